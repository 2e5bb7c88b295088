"""Who may act as an instructor: the user ids in config, plus the administrators of the group where the
question was posted (asked of Telegram, cached a few minutes to spare the rate limit)."""

from __future__ import annotations

import time

from telegram.error import TelegramError
from telegram.ext import ContextTypes

from handlers.context import state

ADMIN_CACHE_SECONDS = 300.0


async def chat_admins(context: ContextTypes.DEFAULT_TYPE, chat_id: int) -> set[int]:
    cache: dict[int, tuple[float, set[int]]] = state(context.application).admin_cache
    cached = cache.get(chat_id)
    if cached and time.monotonic() - cached[0] < ADMIN_CACHE_SECONDS:
        return cached[1]
    try:
        members = await context.bot.get_chat_administrators(chat_id)
    except TelegramError:
        return set()
    admins = {member.user.id for member in members if not member.user.is_bot}
    cache[chat_id] = (time.monotonic(), admins)
    return admins


async def is_instructor(context: ContextTypes.DEFAULT_TYPE, user_id: int, chat_id: int | None = None) -> bool:
    """Configured instructors everywhere; a group's administrators for questions posted in that group."""
    if user_id in state(context).settings.telegram.instructors:
        return True
    if chat_id is None or chat_id == user_id or chat_id > 0:
        return False
    return user_id in await chat_admins(context, chat_id)


def instructor_ids(context: ContextTypes.DEFAULT_TYPE) -> list[int]:
    return list(state(context).settings.telegram.instructors)
