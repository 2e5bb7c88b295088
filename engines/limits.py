"""A per-user limit on opening new dialogues (/quiz, /groupquiz, /post).

One user sending /quiz a hundred times a second would otherwise get a hundred menus, each a database write
and a Bot API call, and everyone else would wait behind them. Within the limit a newer menu replaces the
older one; past it the command is dropped quietly. The clock is injectable, as the store's is, so tests set
the time instead of sleeping.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

# New dialogues one user may open within WINDOW seconds: enough to change one's mind, not to flood.
DIALOGUES = 3
WINDOW = 10.0
# Users remembered before idle ones are forgotten.
TRACKED = 10_000


class DialogueLimit:
    def __init__(
        self, clock: Callable[[], float] = time.monotonic, limit: int = DIALOGUES, window: float = WINDOW
    ) -> None:
        self.clock, self.limit, self.window = clock, limit, window
        self._opened: dict[int, deque[float]] = {}

    def admit(self, user_id: int) -> bool:
        """True if the user may open one more dialogue now (and counts it)."""
        now = self.clock()
        if len(self._opened) > TRACKED:
            self._forget_idle(now)
        opened = self._opened.setdefault(user_id, deque())
        while opened and now - opened[0] >= self.window:
            opened.popleft()
        if len(opened) >= self.limit:
            return False
        opened.append(now)
        return True

    def _forget_idle(self, now: float) -> None:
        for user_id in [
            u for u, opened in self._opened.items() if not opened or now - opened[-1] >= self.window
        ]:
            del self._opened[user_id]
