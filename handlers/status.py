"""The live status message of a generation: one message edited as the loop's nodes finish, at most about
once a second (Telegram's per-chat limit), with the last state always shown.

Every message sent counts against Telegram's budget of about 30 a second for the whole bot, so a status
is written under the bot's last message in the chat (the round's settings, or the previous answer's
explanation) when that message can take it, instead of opening a message of its own."""

from __future__ import annotations

import time

from telegram.ext import Application

from engines.i18n import text
from engines.sessions import Shown
from graph.events import Progress
from handlers.botapi import edit_text, send_text
from handlers.pacing import paced

EDIT_INTERVAL = 1.0
SHOWN_LINES = 6
MESSAGE_LIMIT = 4096
# Room kept for the title and the shown lines under an adopted message's own text.
STATUS_ROOM = 600


def describe(locale: str, event: Progress) -> str:
    node, verdict, detail = event.node, event.verdict, event.detail
    if node == "router":
        return text(locale, "node_reroute" if verdict == "reroute" else "node_router", detail=detail)
    if node == "critic":
        key = "node_critic_passed" if verdict == "passed" else "node_critic_failed"
        return text(locale, key, detail=detail)
    if node == "self_heal":
        return text(locale, "node_self_heal" if verdict == "flagged" else "node_failed", detail=detail)
    if verdict == "failed":
        return text(locale, "node_failed", detail=detail)
    return text(locale, f"node_{node}", detail=detail)


def can_adopt(message: Shown | None) -> bool:
    """Whether a status can be written under this plain message: with room left under Telegram's length
    limit."""
    return message is not None and len(message.text) + STATUS_ROOM <= MESSAGE_LIMIT


class StatusMessage:
    def __init__(
        self, app: Application, chat_id: int, locale: str, title: str, above: Shown | None = None
    ) -> None:
        """`above`: the bot's last message in the chat; the status goes under its text if it can take it."""
        self.app, self.bot, self.chat_id, self.locale, self.title = app, app.bot, chat_id, locale, title
        self.lines: list[str] = []
        adopted = above if can_adopt(above) else None
        self.message_id: int | None = adopted.message_id if adopted is not None else None
        self._head = f"{adopted.text}\n\n" if adopted is not None else ""
        self._last_edit = 0.0
        self._shown = adopted.text if adopted is not None else ""

    def _render(self) -> str:
        return self._head + "\n".join([self.title, *(f"· {line}" for line in self.lines[-SHOWN_LINES:])])

    async def open(self) -> None:
        """Send the status, or, under an adopted message, only start the clock: the first progress (within
        a second) or the close edits it, so a question ready soon after costs one edit. In a group or channel
        the message takes its turn with the pacer."""
        if self.message_id is None:
            self._shown = self._render()
            async with paced(self.app, self.chat_id):
                self.message_id = await send_text(self.bot, self.chat_id, self._shown)
        self._last_edit = time.monotonic()

    async def add(self, event: Progress) -> None:
        self.lines.append(describe(self.locale, event))
        if time.monotonic() - self._last_edit >= EDIT_INTERVAL:
            await self._flush()

    async def close(self, title: str) -> None:
        self.title = title
        await self._flush()

    async def _flush(self) -> None:
        rendered = self._render()
        if self.message_id is None or rendered == self._shown:
            return
        await edit_text(self.bot, self.chat_id, self.message_id, rendered, unchanged_ok=True)
        self._shown = rendered
        self._last_edit = time.monotonic()
