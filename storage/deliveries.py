"""Quiz polls the bot has sent, keyed by Telegram's poll id.

A poll answer from Telegram names only the poll, not the chat or the message, and may arrive after a
restart: this table is the only way back from an answer to the question version, chat and session.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from storage.db import Database, fetch_one, require
from storage.errors import ConflictError, InvalidValueError, check_choice

DeliveryKind = Literal["private", "group", "channel"]
DELIVERY_KINDS: tuple[DeliveryKind, ...] = ("private", "group", "channel")
# Telegram's bounds for a poll's open_period, in seconds.
OPEN_PERIOD_RANGE = (5, 2_628_000)


@dataclass(frozen=True)
class Delivery:
    """`position`: 1-based place in its session or round; `close_at`: when a timed poll closes."""

    id: int
    poll_id: str
    version_id: int
    chat_id: int
    message_id: int
    kind: DeliveryKind
    anonymous: bool
    session_id: int | None
    round_id: int | None
    position: int | None
    delivered_at: float
    open_period: int | None
    close_at: float | None
    closed: bool


@dataclass(frozen=True)
class DeliveredVersion:
    """A version as shown in a set of chats: how often, and when first and last."""

    version_id: int
    question_id: int
    deliveries: int
    first_at: float
    last_at: float


@dataclass(frozen=True)
class RoundTotals:
    """What a group's rounds posted: how many rounds had a question, and how many questions in all."""

    rounds: int
    questions: int


class DeliveryRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def record(
        self,
        *,
        poll_id: str,
        version_id: int,
        chat_id: int,
        message_id: int,
        kind: DeliveryKind,
        anonymous: bool = False,
        session_id: int | None = None,
        round_id: int | None = None,
        position: int | None = None,
        open_period: int | None = None,
    ) -> Delivery:
        """Call right after sendPoll returns, before anyone can answer it."""
        check_choice("kind", kind, DELIVERY_KINDS)
        if kind == "channel" and not anonymous:
            raise InvalidValueError("anonymous: channel polls are always anonymous")
        low, high = OPEN_PERIOD_RANGE
        if open_period is not None and not low <= open_period <= high:
            raise InvalidValueError(f"open_period: {open_period} s is outside Telegram's {low}–{high} s")
        now = self.db.now()
        async with self.db.transaction() as conn:
            await require(
                conn,
                [
                    ("question version", "question_versions", version_id),
                    ("chat", "chats", chat_id),
                    ("session", "sessions", session_id),
                    ("round", "rounds", round_id),
                ],
            )
            try:
                row = await fetch_one(
                    conn,
                    "INSERT INTO deliveries (poll_id, version_id, chat_id, message_id, kind, anonymous, "
                    "session_id, round_id, position, delivered_at, open_period, close_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                    (
                        poll_id,
                        version_id,
                        chat_id,
                        message_id,
                        kind,
                        int(anonymous),
                        session_id,
                        round_id,
                        position,
                        now,
                        open_period,
                        now + open_period if open_period is not None else None,
                    ),
                )
            except sqlite3.IntegrityError as exc:
                raise ConflictError(
                    f"poll {poll_id} or message {message_id} in chat {chat_id} is already recorded"
                ) from exc
        return _delivery(row)

    async def get(self, delivery_id: int) -> Delivery | None:
        return await self._one("id = ?", (delivery_id,))

    async def by_poll(self, poll_id: str) -> Delivery | None:
        return await self._one("poll_id = ?", (poll_id,))

    async def by_message(self, chat_id: int, message_id: int) -> Delivery | None:
        """For the 👍/👎 buttons under a poll: a callback knows its message, not its poll."""
        return await self._one("chat_id = ? AND message_id = ?", (chat_id, message_id))

    async def close(self, delivery_id: int) -> bool:
        """True only for the call that closed it, so the explanation after a timed poll is posted once."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE deliveries SET closed = 1 WHERE id = ? AND closed = 0", (delivery_id,)
            )
            return cursor.rowcount == 1

    async def pending_close(self) -> list[Delivery]:
        """Timed polls not yet closed, soonest first: what to re-arm timers for after a restart."""
        return await self._many("closed = 0 AND close_at IS NOT NULL ORDER BY close_at, id", ())

    async def for_session(self, session_id: int) -> list[Delivery]:
        return await self._many("session_id = ? ORDER BY position, id", (session_id,))

    async def for_version(self, version_id: int) -> list[Delivery]:
        """Where a version was shown, newest first: a report names a version, the fix replies to a poll."""
        return await self._many("version_id = ? ORDER BY delivered_at DESC, id DESC", (version_id,))

    async def for_round(self, round_id: int) -> list[Delivery]:
        return await self._many("round_id = ? ORDER BY position, id", (round_id,))

    async def delivered_versions(
        self, chat_ids: Sequence[int], since: float, until: float
    ) -> list[DeliveredVersion]:
        """Every version shown in `chat_ids` from `since` until before `until`, first shown first."""
        marks = ", ".join("?" for _ in chat_ids)
        rows = await self.db.fetch_all(
            "SELECT d.version_id, v.question_id, count(*) AS deliveries, min(d.delivered_at) AS first_at, "
            "max(d.delivered_at) AS last_at FROM deliveries d "
            "JOIN question_versions v ON v.id = d.version_id "
            f"WHERE d.chat_id IN ({marks}) AND d.delivered_at >= ? AND d.delivered_at < ? "
            "GROUP BY d.version_id ORDER BY first_at, d.version_id",
            (*chat_ids, since, until),
        )
        return [DeliveredVersion(**row) for row in rows]

    async def instructor_chats(self, user_id: int) -> list[int]:
        """Chats where an instructor had questions delivered: their private chat, and every group or channel
        whose rounds they started."""
        rows = await self.db.fetch_all(
            "SELECT DISTINCT d.chat_id FROM deliveries d LEFT JOIN rounds r ON r.id = d.round_id "
            "WHERE d.chat_id = ? OR r.initiator_id = ? ORDER BY d.chat_id",
            (user_id, user_id),
        )
        return [row["chat_id"] for row in rows]

    async def round_totals(self, chat_id: int, since: float | None = None) -> RoundTotals:
        """The questions a chat's rounds posted, from `since` on if given."""
        row = await self.db.fetch_one(
            "SELECT count(DISTINCT round_id) AS rounds, count(*) AS questions FROM deliveries "
            "WHERE chat_id = ? AND round_id IS NOT NULL AND (? IS NULL OR delivered_at >= ?)",
            (chat_id, since, since),
        )
        return RoundTotals(rounds=row["rounds"], questions=row["questions"])

    async def _one(self, where: str, params: tuple[object, ...]) -> Delivery | None:
        row = await self.db.fetch_one(f"SELECT * FROM deliveries WHERE {where}", params)
        return _delivery(row) if row is not None else None

    async def _many(self, where: str, params: tuple[object, ...]) -> list[Delivery]:
        return [
            _delivery(row)
            for row in await self.db.fetch_all(f"SELECT * FROM deliveries WHERE {where}", params)
        ]


def _delivery(row: sqlite3.Row) -> Delivery:
    return Delivery(**{**dict(row), "anonymous": bool(row["anonymous"]), "closed": bool(row["closed"])})
