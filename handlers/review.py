"""/review and the results card's 错题重练 button: the learner's due questions as a private session."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from engines.i18n import text
from handlers.context import acknowledge, remember
from handlers.sessions import start_review


async def review(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    locale = await remember(update, context)
    if update.effective_chat.type != "private":
        await update.effective_message.reply_text(text(locale, "review_private_only"))
        return
    await start_review(context.application, update.effective_chat.id, update.effective_user.id, locale)


async def review_pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    locale = await remember(update, context)
    await acknowledge(update.callback_query)
    await update.callback_query.edit_message_reply_markup(None)
    await start_review(
        context.application, update.effective_chat.id, update.callback_query.from_user.id, locale
    )
