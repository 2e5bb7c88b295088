"""Pacing of the bot's own posts to a group or channel.

Telegram allows about 20 messages a minute per group and answers faster bursts with 429 (RetryAfter). A
timed round posts a poll, an explanation and finally a leaderboard; spacing those posts here keeps a long
round under the limit on its own, so AIORateLimiter's retries stay a safety net rather than the plan.

Why not AIORateLimiter's per-group limit alone (it stays on, with the same 20 a minute, as the safety net
for everything else the bot posts in groups): its limiter is a leaky bucket, which lets a full bucket of 20
through at once and then one more every 3 seconds, so about 40 posts can fall within one minute, twice what
Telegram allows; a 429 is then retried after the fact. The pacer counts a sliding window as Telegram does,
and keeps posts `post_interval` apart, so a round never earns the 429 in the first place.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext

from telegram.ext import Application

from engines.clock import POSTS_PER_WINDOW, Clock
from handlers.botapi import Keyboard, send_text
from handlers.context import state


class Pacer:
    """One per chat. Posts take turns; each waits `interval` after the previous one and until the last
    `window` seconds hold room for it under `limit`. Time is the injected clock's."""

    def __init__(self, clock: Clock, interval: float, window: float, limit: int = POSTS_PER_WINDOW) -> None:
        self.clock, self.interval, self.window, self.limit = clock, interval, window, limit
        self._lock = asyncio.Lock()
        self._sent: deque[float] = deque()

    def _delay(self, messages: int, now: float) -> float:
        while self._sent and now - self._sent[0] >= self.window:
            self._sent.popleft()
        delay = self._sent[-1] + self.interval - now if self._sent else 0.0
        excess = len(self._sent) + messages - self.limit
        if excess > 0:
            delay = max(delay, self._sent[excess - 1] + self.window - now)
        return max(delay, 0.0)

    @asynccontextmanager
    async def turn(self, messages: int = 1) -> AsyncIterator[None]:
        """Send `messages` messages inside the block. Times are taken after the send returns — later than
        Telegram saw them — so the count errs on the safe side; a failed send still counts."""
        async with self._lock:
            await self.clock.sleep(self._delay(messages, self.clock.now()))
            try:
                yield
            finally:
                self._sent.extend([self.clock.now()] * messages)


def paced(app: Application, chat_id: int, messages: int = 1) -> AbstractAsyncContextManager[None]:
    """A turn to post in a group or channel (negative ids); private chats are not paced."""
    if chat_id > 0:
        return nullcontext()
    found = state(app)
    pacer = found.pacers.get(chat_id)
    if pacer is None:
        pace = found.pace
        pacer = found.pacers[chat_id] = Pacer(found.clock, pace.post_interval, pace.post_window)
    return pacer.turn(messages)


async def post(app: Application, chat_id: int, body: str, markup: Keyboard | None = None) -> int:
    """Send a message in its turn; its id."""
    async with paced(app, chat_id):
        return await send_text(app.bot, chat_id, body, markup=markup)
