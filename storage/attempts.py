"""Learners' answers to delivered quiz polls, scored against the exact version they were shown.

Each answer is committed before `record` returns, so the bot's reply ("correct!", the explanation, the next
question) never runs ahead of what a crash would keep.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from storage.db import Database, fetch_one, require
from storage.errors import InvalidValueError, NotFoundError
from storage.questions import version_in


@dataclass(frozen=True)
class Attempt:
    """`option_ids`: 0-based, as in Telegram's poll answer; `seconds`: from delivery to answer."""

    id: int
    delivery_id: int
    version_id: int
    user_id: int
    option_ids: tuple[int, ...]
    correct: bool
    seconds: float
    answered_at: float


@dataclass(frozen=True)
class RecordedAttempt:
    """`new` is False when the user had already answered this delivery: `attempt` is then that first one."""

    attempt: Attempt
    new: bool


class AttemptRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def record(self, delivery_id: int, user_id: int, option_ids: Sequence[int]) -> RecordedAttempt:
        """Score and store a poll answer; the first answer of a user to a delivery is the one that counts
        (Telegram can deliver an update twice, and a second answer must not rewrite a score)."""
        if not option_ids:
            raise InvalidValueError("option_ids: a retracted vote (no options) is not an answer")
        if not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in option_ids):
            raise InvalidValueError(f"option_ids: {list(option_ids)!r} must be option indexes 0, 1, …")
        now = self.db.now()
        async with self.db.transaction() as conn:
            await require(conn, [("user", "users", user_id)])
            delivery = await fetch_one(
                conn, "SELECT version_id, delivered_at FROM deliveries WHERE id = ?", (delivery_id,)
            )
            if delivery is None:
                raise NotFoundError(f"delivery {delivery_id} is not stored")
            first = await fetch_one(
                conn, "SELECT * FROM attempts WHERE user_id = ? AND delivery_id = ?", (user_id, delivery_id)
            )
            if first is not None:
                return RecordedAttempt(_attempt(first), new=False)
            question = (await version_in(conn, delivery["version_id"])).question
            chosen = sorted(set(option_ids))
            if chosen[-1] >= len(question.options):
                raise InvalidValueError(
                    f"option_ids: {chosen[-1]} is past the {len(question.options)} options of the question"
                )
            row = await fetch_one(
                conn,
                "INSERT INTO attempts (delivery_id, version_id, user_id, option_ids, correct, seconds, "
                "answered_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    delivery_id,
                    delivery["version_id"],
                    user_id,
                    json.dumps(chosen),
                    int(chosen == sorted(question.correct_indexes)),
                    max(0.0, now - delivery["delivered_at"]),
                    now,
                ),
            )
        return RecordedAttempt(_attempt(row), new=True)

    async def for_delivery(self, delivery_id: int) -> list[Attempt]:
        rows = await self.db.fetch_all(
            "SELECT * FROM attempts WHERE delivery_id = ? ORDER BY answered_at, id", (delivery_id,)
        )
        return [_attempt(row) for row in rows]

    async def for_session(self, session_id: int) -> list[Attempt]:
        """The session learner's answers in the order the questions were sent."""
        rows = await self.db.fetch_all(
            "SELECT a.* FROM attempts a JOIN deliveries d ON d.id = a.delivery_id "
            "JOIN sessions s ON s.id = d.session_id AND s.user_id = a.user_id "
            "WHERE s.id = ? ORDER BY d.position, d.id",
            (session_id,),
        )
        return [_attempt(row) for row in rows]


def _attempt(row: sqlite3.Row) -> Attempt:
    return Attempt(
        **{**dict(row), "option_ids": tuple(json.loads(row["option_ids"])), "correct": bool(row["correct"])}
    )
