"""One wake-up primitive shared by long polling, the event journal and callback answers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Wakeup:
    """Lets any number of waiters sleep until something changes.

    Each notification replaces the event, so a waiter that checked its condition just before a change
    still wakes: it holds the old event, which the change has set.
    """

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    async def wait_until(self, check: Callable[[], T], timeout: float) -> T:
        """Return the first truthy result of `check`, or its last (falsy) result once `timeout` runs out."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(timeout, 0.0)
        while True:
            event = self._event
            result = check()
            remaining = deadline - loop.time()
            if result or remaining <= 0:
                return result
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                return check()
