"""Pacing of the bot's own posts to a group or channel.

Telegram allows about 20 messages a minute per group and answers faster bursts with 429 (RetryAfter). A
timed round posts a poll, an explanation and finally a leaderboard; spacing those posts here keeps a long
round under the limit on its own, so AIORateLimiter's retries stay a safety net rather than the plan.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext

from telegram import Message
from telegram.ext import Application

from handlers.context import state

# Module constants rather than settings: Telegram's limit is not the operator's to change. Tests shrink them.
MIN_INTERVAL = 3.0
WINDOW = 60.0
LIMIT = 20


class Pacer:
    """One per chat. Posts take turns; each waits MIN_INTERVAL after the previous one and until the last
    WINDOW seconds hold room for it under LIMIT."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._sent: deque[float] = deque()

    def _delay(self, messages: int, now: float) -> float:
        while self._sent and now - self._sent[0] >= WINDOW:
            self._sent.popleft()
        delay = self._sent[-1] + MIN_INTERVAL - now if self._sent else 0.0
        excess = len(self._sent) + messages - LIMIT
        if excess > 0:
            delay = max(delay, self._sent[excess - 1] + WINDOW - now)
        return max(delay, 0.0)

    @asynccontextmanager
    async def turn(self, messages: int = 1) -> AsyncIterator[None]:
        """Send `messages` messages inside the block. Times are taken after the send returns — later than
        Telegram saw them — so the count errs on the safe side; a failed send still counts."""
        async with self._lock:
            await asyncio.sleep(self._delay(messages, time.monotonic()))
            try:
                yield
            finally:
                self._sent.extend([time.monotonic()] * messages)


def paced(app: Application, chat_id: int, messages: int = 1) -> AbstractAsyncContextManager[None]:
    """A turn to post in a group or channel (negative ids); private chats are not paced."""
    if chat_id > 0:
        return nullcontext()
    pacers: dict[int, Pacer] = state(app).pacers
    return pacers.setdefault(chat_id, Pacer()).turn(messages)


async def post(app: Application, chat_id: int, body: str, **options: object) -> Message:
    async with paced(app, chat_id):
        return await app.bot.send_message(chat_id, body, **options)
