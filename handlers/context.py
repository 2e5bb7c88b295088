"""What every handler needs around a Telegram update: the process state, who is asking and in which
language, and a button press answered without failing when it comes late.

Handlers never import LangGraph or SQL: they call the generation service and the store's repositories.
"""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Update
from telegram.error import BadRequest
from telegram.ext import Application, CallbackContext, ContextTypes

from engines.i18n import text
from engines.state import KEY, BotState
from progress.preferences import language

log = logging.getLogger(__name__)


def state(owner: Application | CallbackContext) -> BotState:
    """The process state, from the Application or from a callback's context."""
    application = owner if isinstance(owner, Application) else owner.application
    return application.bot_data[KEY]


async def user_locale(context: ContextTypes.DEFAULT_TYPE, user_id: int | None) -> str:
    found = state(context)
    chosen = await found.store.users.get_locale(user_id) if user_id is not None else None
    return chosen or found.settings.locale.default


async def remember(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str:
    """Record who and where (so later lookups by id work), and return the user's locale."""
    found = state(context)
    found.metrics.updates.inc()
    user, chat = update.effective_user, update.effective_chat
    if chat is not None:
        await found.store.chats.upsert(chat.id, chat.type, chat.title or chat.full_name or "")
    if user is None:
        return found.settings.locale.default
    await found.store.users.upsert(user.id, user.full_name, user.username)
    stored = await found.store.users.get_locale(user.id)
    chosen = language(stored, user.language_code, found.settings.locale.default)
    if stored is None and chosen != found.settings.locale.default:
        # Telegram's app language is kept as the learner's choice, so messages sent outside an update
        # (a reminder, the end of a round) are in it too; /lang or /settings changes it.
        await found.store.users.set_locale(user.id, chosen)
    return chosen


async def say(update: Update, context: ContextTypes.DEFAULT_TYPE, key: str, **values: object) -> None:
    locale = await user_locale(context, update.effective_user.id if update.effective_user else None)
    await update.effective_message.reply_text(text(locale, key, **values))


async def acknowledge(query: CallbackQuery, notice: str | None = None, *, show_alert: bool = False) -> None:
    """Answer a button press. Telegram takes the answer only for a short while after the press, and a bot
    behind on its updates (a class all tapping at once) answers later than that: the press must still take
    effect, so an expired query is no error."""
    try:
        await query.answer(notice, show_alert=show_alert)
    except BadRequest as exc:
        if "query is too old" not in exc.message.lower():
            raise
        log.info("button press %s answered too late to show", query.id)
