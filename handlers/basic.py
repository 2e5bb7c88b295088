"""Commands that need no round: /start, /help, /lang, and helpful answers to anything unexpected."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes

from engines.i18n import LOCALES, text
from handlers.context import acknowledge, remember, state
from vocabulary import callbacks

LANG_NAMES = {"zh": "中文", "en": "English"}


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    locale = await remember(update, context)
    await update.effective_message.reply_text(text(locale, "start"))


async def help_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    locale = await remember(update, context)
    await update.effective_message.reply_text(text(locale, "help"))


async def lang(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    locale = await remember(update, context)
    buttons = [
        [
            InlineKeyboardButton(LANG_NAMES[code], callback_data=callbacks.LANGUAGE.build(code))
            for code in LOCALES
        ]
    ]
    await update.effective_message.reply_text(
        text(locale, "lang_prompt"), reply_markup=InlineKeyboardMarkup(buttons)
    )


async def lang_chosen(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    locale = await remember(update, context)
    (code,) = callbacks.LANGUAGE.parse(query.data)
    if code not in LOCALES:
        await acknowledge(query, text(locale, "stale_button"))
        return
    await state(context).store.users.set_locale(query.from_user.id, code)
    await acknowledge(query)
    await query.edit_message_text(text(code, "lang_set"))


async def unknown_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    command = (update.effective_message.text or "").split()[0]
    addressee = command.partition("@")[2]
    if addressee and addressee.lower() != (context.bot.username or "").lower():
        return  # `/start@other_bot` in a group is another bot's business
    locale = await remember(update, context)
    await update.effective_message.reply_text(text(locale, "unknown_command", command=command))


async def unknown_text(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    locale = await remember(update, context)
    key = "use_buttons" if context.chat_data.get("setup") else "unknown_text"
    await update.effective_message.reply_text(text(locale, key))


async def stale_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Any button no handler claims belongs to something that no longer exists."""
    locale = await remember(update, context)
    await acknowledge(update.callback_query, text(locale, "stale_button"))
