"""What people in the chats see happen, in order, so clients can wait for it instead of polling.

Every new message, edit, deletion, poll change, callback answer and chat action becomes an event with a
sequence number that only grows (also across resets), carrying a snapshot of the message at that moment.
"""

from __future__ import annotations

import bisect
import time

from emulator.objects import JsonDict
from emulator.wakeup import Wakeup


class Journal:
    def __init__(self) -> None:
        self._events: list[JsonDict] = []
        self._by_chat: dict[int, list[JsonDict]] = {}
        self._wakeups: dict[int | None, Wakeup] = {}
        self._seq = 0
        self.closed = False

    @property
    def last_seq(self) -> int:
        return self._seq

    def append(self, kind: str, chat_id: int, **fields: object) -> JsonDict:
        self._seq += 1
        event: JsonDict = {"seq": self._seq, "kind": kind, "chat_id": chat_id, "time": time.time(), **fields}
        self._events.append(event)
        self._by_chat.setdefault(chat_id, []).append(event)
        for key in (chat_id, None):
            if key in self._wakeups:
                self._wakeups[key].notify()
        return event

    def since(self, seq: int, chat_id: int | None = None, limit: int = 1000) -> list[JsonDict]:
        events = self._events if chat_id is None else self._by_chat.get(chat_id, [])
        start = bisect.bisect_right(events, seq, key=lambda event: event["seq"])
        return events[start : start + limit]

    async def wait(self, seq: int, chat_id: int | None, timeout: float, limit: int = 1000) -> list[JsonDict]:
        """Events after `seq` (in one chat or all), waiting up to `timeout` seconds for the first one."""
        wakeup = self._wakeups.setdefault(chat_id, Wakeup())
        found = await wakeup.wait_until(lambda: self.closed or self.since(seq, chat_id, limit), timeout)
        return found if isinstance(found, list) else []

    def clear(self) -> None:
        self._events.clear()
        self._by_chat.clear()

    def close(self) -> None:
        """Release every waiter, so a server can stop without waiting out long polls."""
        self.closed = True
        for wakeup in self._wakeups.values():
            wakeup.notify()
