"""What an engine may send, as a small interface: the Telegram side (handlers/telegram_sender.py) implements
it over the Bot API with pacing, and engine tests implement it with a list."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from vocabulary.records import Question

# A row of inline buttons: (label, callback data) pairs.
Buttons = Sequence[Sequence[tuple[str, str]]]


class SendFailed(Exception):
    """Telegram did not take the message; `reason` is its own words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Refused(SendFailed):
    """The chat itself refuses the bot's messages (removed, no rights, a bad chat): retrying will not help."""


@dataclass(frozen=True)
class SentQuiz:
    message_id: int
    poll_id: str


class Sender(Protocol):
    async def text(
        self, chat_id: int, body: str, *, reply_to: int | None = None, buttons: Buttons | None = None
    ) -> int:
        """Send a message (paced in groups and channels); its message id."""

    async def quiz(
        self,
        chat_id: int,
        question: Question,
        locale: str,
        *,
        version_id: int,
        label: str,
        anonymous: bool,
        open_period: float | None,
    ) -> SentQuiz:
        """Send a question as a quiz poll with its 👍/👎 (paced in groups and channels)."""

    async def stop_poll(self, chat_id: int, message_id: int, version_id: int) -> None:
        """Close a poll early, keeping its 👍/👎; a poll Telegram closed already is no error."""
