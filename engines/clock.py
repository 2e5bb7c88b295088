"""Time as the engines see it: the wall clock and a way to wait. Injected like the store's clock, so a test
moves time forward instead of sleeping, and a round's timers are no module globals to patch."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Unix seconds."""

    async def sleep(self, seconds: float) -> None: ...


class WallClock:
    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


@dataclass(frozen=True)
class Pace:
    """The timing of timed rounds and of posts to groups and channels, in real seconds. Not settings: they
    follow Telegram, not the operator. The emulator tests pass shrunk ones so a round plays in seconds.

    `second`: real seconds per second of round time (open periods and pauses). `close_grace`: our close
    timer fires this long after a poll's close time, so Telegram's own poll update normally wins.
    `close_settle`: a closed-poll update may come in the same batch as last-second answers; they are
    recorded first. `resume_delay`: after a restart, queued answers to a poll that closed meanwhile are
    fetched before it is closed here. `post_interval` and `post_window`: posts to one group or channel
    keep this far apart, and at most `POSTS_PER_WINDOW` fall in any window (Telegram allows about 20 a
    minute); `group_limiter`: AIORateLimiter enforces the same per-group limit as a safety net."""

    second: float = 1.0
    close_grace: float = 1.0
    close_settle: float = 0.3
    resume_delay: float = 1.0
    post_interval: float = 3.0
    post_window: float = 60.0
    group_limiter: bool = True


POSTS_PER_WINDOW = 20
