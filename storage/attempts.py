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


@dataclass(frozen=True)
class VersionScore:
    """How a version was answered: `attempts` answers, `correct` of them right."""

    version_id: int
    attempts: int
    correct: int


@dataclass(frozen=True)
class MemberScore:
    """One member's answers in a group's rounds; `rounds`: how many rounds they answered in."""

    user_id: int
    name: str
    username: str | None
    answered: int
    correct: int
    rounds: int


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

    async def version_scores(
        self, chat_ids: Sequence[int], since: float, until: float
    ) -> dict[int, VersionScore]:
        """Answers to the polls shown in `chat_ids` from `since` until before `until`, per version."""
        marks = ", ".join("?" for _ in chat_ids)
        rows = await self.db.fetch_all(
            "SELECT a.version_id, count(*) AS attempts, sum(a.correct) AS correct "
            "FROM attempts a JOIN deliveries d ON d.id = a.delivery_id "
            f"WHERE d.chat_id IN ({marks}) AND d.delivered_at >= ? AND d.delivered_at < ? "
            "GROUP BY a.version_id",
            (*chat_ids, since, until),
        )
        return {row["version_id"]: VersionScore(**row) for row in rows}

    async def round_members(self, chat_id: int, since: float | None = None) -> list[MemberScore]:
        """Every member who answered in the chat's rounds, most correct first (then fewer answered, then
        the user id, so the order is stable)."""
        rows = await self.db.fetch_all(
            "SELECT a.user_id, u.name, u.username, count(*) AS answered, sum(a.correct) AS correct, "
            "count(DISTINCT d.round_id) AS rounds FROM attempts a "
            "JOIN deliveries d ON d.id = a.delivery_id JOIN users u ON u.id = a.user_id "
            "WHERE d.chat_id = ? AND d.round_id IS NOT NULL AND (? IS NULL OR d.delivered_at >= ?) "
            "GROUP BY a.user_id ORDER BY correct DESC, answered ASC, a.user_id",
            (chat_id, since, since),
        )
        return [MemberScore(**row) for row in rows]

    async def round_misses(
        self, chat_id: int, since: float | None = None, limit: int = 5
    ) -> list[VersionScore]:
        """The versions most often answered wrong in the chat's rounds: most misses first, then the
        lowest share right, then the version id."""
        rows = await self.db.fetch_all(
            "SELECT a.version_id, count(*) AS attempts, sum(a.correct) AS correct FROM attempts a "
            "JOIN deliveries d ON d.id = a.delivery_id "
            "WHERE d.chat_id = ? AND d.round_id IS NOT NULL AND (? IS NULL OR d.delivered_at >= ?) "
            "GROUP BY a.version_id HAVING count(*) > sum(a.correct) "
            "ORDER BY count(*) - sum(a.correct) DESC, 1.0 * sum(a.correct) / count(*), a.version_id LIMIT ?",
            (chat_id, since, since, limit),
        )
        return [VersionScore(**row) for row in rows]


def _attempt(row: sqlite3.Row) -> Attempt:
    return Attempt(
        **{**dict(row), "option_ids": tuple(json.loads(row["option_ids"])), "correct": bool(row["correct"])}
    )
