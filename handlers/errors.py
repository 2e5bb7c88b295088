"""The last line of defence: log the failure with the update id, count it, and tell the user politely."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from engines.i18n import text
from handlers.context import state, user_locale

log = logging.getLogger(__name__)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    update_id = update.update_id if isinstance(update, Update) else None
    log.error("error while handling update %s", update_id, exc_info=context.error)
    if not state(context).running:
        return  # the bot is shutting down: nobody to tell, nothing to count
    state(context).metrics.errors.inc()
    if not isinstance(update, Update) or update.effective_chat is None:
        return
    user = update.effective_user
    try:
        locale = await user_locale(context, user.id if user else None)
        await context.bot.send_message(update.effective_chat.id, text(locale, "error"))
    except TelegramError:
        log.warning("could not tell chat %s about the error", update.effective_chat.id)
