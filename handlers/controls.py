"""Session controls: /cancel, /stop, the retry button after a failed generation, the results card's
再来一轮 and 换设置, and 👍/👎 votes on delivered questions."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from engines.i18n import text
from handlers.context import acknowledge, remember, state
from handlers.feedback import ask_reason
from handlers.sessions import repeat_session
from handlers.setup import cancel_setup, quiz
from vocabulary import callbacks


async def cancel(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    locale = await remember(update, context)
    had_setup = cancel_setup(context)
    had_session = await state(context).sessions.stop(
        update.effective_chat.id, update.effective_user.id, finish=False
    )
    key = "cancelled" if had_setup or had_session else "nothing_to_cancel"
    await update.effective_message.reply_text(text(locale, key))


async def stop(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    locale = await remember(update, context)
    cancel_setup(context)
    stopped = await state(context).sessions.stop(
        update.effective_chat.id, update.effective_user.id, finish=True
    )
    if not stopped:
        await update.effective_message.reply_text(text(locale, "no_active_session"))


async def retry(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    locale = await remember(update, context)
    (session_id,) = callbacks.RETRY.parse(query.data)
    if not await state(context).sessions.retry(session_id, query.from_user.id):
        await acknowledge(query, text(locale, "stale_button"))
        return
    await acknowledge(query)
    await query.edit_message_reply_markup(None)


async def repeat(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    locale = await remember(update, context)
    (session_id,) = callbacks.REPEAT.parse(query.data)
    if not await repeat_session(context.application, session_id, query.from_user.id, locale):
        await acknowledge(query, text(locale, "stale_button"))
        return
    await acknowledge(query)
    await query.edit_message_reply_markup(None)


async def again(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await acknowledge(update.callback_query)
    await update.callback_query.edit_message_reply_markup(None)
    await quiz(update, context)


async def vote(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    locale = await remember(update, context)
    version_id, direction = callbacks.VOTE.parse(query.data)
    version = await state(context).store.questions.version(version_id)
    if version is None:
        await acknowledge(query, text(locale, "stale_button"))
        return
    await state(context).store.votes.record(query.from_user.id, version.id, 1 if direction == "up" else -1)
    await acknowledge(query, text(locale, "vote_up_thanks" if direction == "up" else "vote_down_thanks"))
    if direction == "down":
        await ask_reason(update, context, locale)
