"""Chats the bot is in, and each chat's knowledge-slice sampler state.

The sampler state lives here because it belongs to the chat, not to one /quiz session: a learner who starts
a new session should still not see a slice again before the chat has worked through the others.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from storage.db import Database, require
from storage.errors import SchemaError, check_choice
from vocabulary.records import SamplerState

ChatType = Literal["private", "group", "supergroup", "channel"]
CHAT_TYPES: tuple[ChatType, ...] = ("private", "group", "supergroup", "channel")


@dataclass(frozen=True)
class Chat:
    id: int
    type: ChatType
    title: str
    created_at: float
    updated_at: float


class ChatRepository:
    def __init__(self, db: Database) -> None:
        self.db = db
        # What this process last wrote of each chat, so an unchanged chat costs no write per update.
        self._written: dict[int, tuple[ChatType, str]] = {}

    async def upsert(self, chat_id: int, chat_type: ChatType, title: str = "") -> None:
        """A group upgraded to a supergroup gets a new id from Telegram, so type changes are plain updates."""
        check_choice("chat type", chat_type, CHAT_TYPES)
        if self._written.get(chat_id) == (chat_type, title):
            return
        now = self.db.now()
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO chats (id, type, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET type = excluded.type, title = excluded.title, "
                "updated_at = excluded.updated_at",
                (chat_id, chat_type, title, now, now),
            )
        self._written[chat_id] = (chat_type, title)

    async def get(self, chat_id: int) -> Chat | None:
        row = await self.db.fetch_one("SELECT * FROM chats WHERE id = ?", (chat_id,))
        return Chat(**row) if row is not None else None

    async def get_sampler_state(self, chat_id: int) -> SamplerState:
        """A chat that never drew starts with an empty state."""
        row = await self.db.fetch_one("SELECT state FROM sampler_states WHERE chat_id = ?", (chat_id,))
        if row is None:
            return SamplerState()
        try:
            return SamplerState.from_dict(json.loads(row["state"]))
        except (ValueError, AttributeError) as exc:
            raise SchemaError(f"sampler state of chat {chat_id} is unreadable: {exc}") from exc

    async def put_sampler_state(self, chat_id: int, state: SamplerState) -> None:
        async with self.db.transaction() as conn:
            await require(conn, [("chat", "chats", chat_id)])
            await conn.execute(
                "INSERT INTO sampler_states (chat_id, state, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (chat_id) DO UPDATE SET state = excluded.state, "
                "updated_at = excluded.updated_at",
                (chat_id, json.dumps(state.to_dict(), ensure_ascii=False), self.db.now()),
            )
