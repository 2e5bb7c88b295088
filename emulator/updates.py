"""The bot's update queue: getUpdates semantics (offset confirms, long polling) shared by webhook delivery."""

from __future__ import annotations

from collections.abc import Iterable

from emulator.errors import ApiError
from emulator.objects import JsonDict
from emulator.wakeup import Wakeup

# Telegram's default when allowed_updates was never given: everything except these three.
_OPT_IN_ONLY = frozenset({"chat_member", "message_reaction", "message_reaction_count"})
MAX_LONG_POLL = 50.0
POLLING_CONFLICT = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"
)


class UpdateQueue:
    def __init__(self) -> None:
        self._pending: list[tuple[int, JsonDict]] = []
        self._last_id = 0
        self._allowed: frozenset[str] | None = None
        self._wakeup = Wakeup()
        self._generation = 0
        self.closed = False

    @property
    def pending_count(self) -> int:
        return len(self._pending)

    @property
    def allowed_updates(self) -> list[str] | None:
        return sorted(self._allowed) if self._allowed is not None else None

    def set_allowed(self, kinds: Iterable[str] | None) -> None:
        """Telegram keeps the last non-null choice; an empty list restores the default."""
        if kinds is None:
            return
        chosen = frozenset(kinds)
        self._allowed = chosen or None

    def accepts(self, kind: str) -> bool:
        return kind in self._allowed if self._allowed is not None else kind not in _OPT_IN_ONLY

    def push(self, kind: str, payload: JsonDict) -> JsonDict | None:
        if not self.accepts(kind):
            return None
        self._last_id += 1
        update: JsonDict = {"update_id": self._last_id, kind: payload}
        self._pending.append((self._last_id, update))
        self._wakeup.notify()
        return update

    def confirm(self, offset: int) -> None:
        """Forget what the bot has seen: ids below a positive offset, or all but the last -offset updates."""
        if offset < 0:
            del self._pending[: max(len(self._pending) + offset, 0)]
        elif offset > 0:
            self._pending = [
                (update_id, update) for update_id, update in self._pending if update_id >= offset
            ]

    def drop_pending(self) -> None:
        self._pending.clear()

    async def get(self, offset: int, limit: int, timeout: float) -> list[JsonDict]:
        """Pending updates from `offset` on, waiting up to `timeout` for one.

        A newer call ends an older one still waiting with Telegram's 409, which exposes a bot that runs
        two pollers at once.
        """
        self.confirm(offset)
        limit = min(max(limit, 1), 100)
        self._generation += 1
        mine = self._generation
        self._wakeup.notify()
        found = await self._wakeup.wait_until(
            lambda: (
                self.closed or mine != self._generation or [update for _, update in self._pending[:limit]]
            ),
            min(max(timeout, 0.0), MAX_LONG_POLL),
        )
        if mine != self._generation and not isinstance(found, list):
            raise ApiError(409, POLLING_CONFLICT)
        return found if isinstance(found, list) else []

    def close(self) -> None:
        self.closed = True
        self._wakeup.notify()
