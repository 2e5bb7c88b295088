"""Opening a settings menu (the /quiz dialogue or a timed round's dialogue) in a chat: a newer menu
replaces the older one, whose buttons would only earn the stale-button notice, so only one is live."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any

from telegram import Message
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from handlers.i18n import text
from handlers.pacing import paced


async def open_menu(
    context: ContextTypes.DEFAULT_TYPE,
    key: str,
    setup: dict[str, Any],
    send: Callable[[], Awaitable[Message]],
    locale: str,
) -> None:
    """Make `setup` the chat's dialogue under `key` and send its menu. Two menus opened at once may finish
    sending in either order; each older one is retired exactly once, by whoever sees it last."""
    previous = context.chat_data.get(key)
    context.chat_data[key] = setup
    menu = await send()
    setup["menu"] = menu.message_id
    if previous is not None and "menu" in previous:
        await _retire(context, menu.chat_id, previous["menu"], locale)
    if context.chat_data.get(key) is not setup:
        await _retire(context, menu.chat_id, menu.message_id, locale)


async def _retire(context: ContextTypes.DEFAULT_TYPE, chat_id: int, message_id: int, locale: str) -> None:
    with suppress(BadRequest):  # deleted, or already edited by a button: nothing left to retire
        async with paced(context.application, chat_id):
            await context.bot.edit_message_text(text(locale, "menu_replaced"), chat_id, message_id)
