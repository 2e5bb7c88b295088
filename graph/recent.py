"""Facts this process asked each chat lately, so a chat's next question picks another fact while unused
ones remain. In memory, bounded by chats and by facts a chat: a restart forgets it."""

from __future__ import annotations

from collections import OrderedDict, deque

ASKED_PER_CHAT = 300
ASKED_CHATS = 10_000


class RecentFacts:
    def __init__(self) -> None:
        self._asked: OrderedDict[int, deque[str]] = OrderedDict()

    def of_chat(self, chat_id: int) -> deque[str]:
        """The chat's recent facts, live: extend it with what the chat is asked next. The chat becomes the
        most recent one; the least recent chats are forgotten beyond the bound."""
        asked = self._asked.pop(chat_id, None) or deque(maxlen=ASKED_PER_CHAT)
        self._asked[chat_id] = asked
        while len(self._asked) > ASKED_CHATS:
            self._asked.popitem(last=False)
        return asked
