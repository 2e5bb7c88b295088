"""Opening a settings menu (the /quiz dialogue or a timed round's dialogue) in a chat: a newer menu
replaces the older one, whose buttons would only earn the stale-button notice, so only one is live.

Why not PTB's ConversationHandler (with conversation_timeout) for the two dialogues:
- it needs updates handled one at a time (PTB's documentation: `concurrent_updates` should be False),
  while this bot handles them concurrently so a class tapping at once is not served in single file;
- a conversation is keyed by chat and user (or by message): an old menu's buttons either keep working
  within the same conversation or stay live as a conversation of their own until it times out, whereas
  here a newer menu retires the old one at once and its buttons get the stale-button notice (the nonce in
  the callback data, checked against the chat's dialogue);
- in a group only the initiator sets up the round and everyone else pressing gets a notice saying so; a
  per-user conversation would pass those presses by silently;
- a timeout adds nothing the dialogues need: an abandoned menu costs nothing, and its buttons get the
  stale notice once a newer menu or a restart has replaced it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any

from telegram.error import BadRequest
from telegram.ext import ContextTypes

from engines.i18n import text
from handlers.botapi import edit_text
from handlers.pacing import paced


async def open_menu(
    context: ContextTypes.DEFAULT_TYPE,
    key: str,
    setup: dict[str, Any],
    chat_id: int,
    send: Callable[[], Awaitable[int]],
    locale: str,
) -> None:
    """Make `setup` the chat's dialogue under `key` and send its menu. Two menus opened at once may finish
    sending in either order; each older one is retired exactly once, by whoever sees it last. `send`: sends
    the menu, giving its message id."""
    previous = context.chat_data.get(key)
    context.chat_data[key] = setup
    menu = setup["menu"] = await send()
    if previous is not None and "menu" in previous:
        await _retire(context, chat_id, previous["menu"], locale)
    if context.chat_data.get(key) is not setup:
        await _retire(context, chat_id, menu, locale)


async def _retire(context: ContextTypes.DEFAULT_TYPE, chat_id: int, message_id: int, locale: str) -> None:
    with suppress(BadRequest):  # deleted, or already edited by a button: nothing left to retire
        async with paced(context.application, chat_id):
            await edit_text(context.bot, chat_id, message_id, text(locale, "menu_replaced"))
