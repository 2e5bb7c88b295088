"""The review schedule (错题重练): one row per learner and missed question, holding the scheduler's state.

Rows are per question, not per version: an instructor's revision replaces the text a learner reviews, not
their progress on it. `card` is the scheduler's own state as JSON, opaque here; `due_at` is copied out of it
so that "what is due" is an indexed query.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from storage.db import Database, fetch_one, require
from storage.errors import NotFoundError


@dataclass(frozen=True)
class Review:
    """`missed_version_id`: the version the learner last got wrong; `reviews`: answers since the first miss;
    `misses`: every wrong answer, the first included."""

    user_id: int
    question_id: int
    missed_version_id: int
    card: str
    due_at: float
    reviews: int
    misses: int
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class Reschedule:
    """What the scheduler decided for one answer: its new state and when the question is due again."""

    card: str
    due_at: float
    missed: bool


# Given the stored row (None before the first miss), the answer's new schedule, or None to leave it alone.
Step = Callable[[Review | None], Reschedule | None]


class ReviewRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def reschedule(self, user_id: int, version_id: int, step: Step) -> Review | None:
        """Apply one answer to the learner's schedule for the version's question, atomically: the row is
        read and written in one transaction, so two answers landing together cannot lose one."""
        now = self.db.now()
        async with self.db.transaction() as conn:
            await require(conn, [("user", "users", user_id)])
            version = await fetch_one(
                conn, "SELECT question_id FROM question_versions WHERE id = ?", (version_id,)
            )
            if version is None:
                raise NotFoundError(f"question version {version_id} is not stored")
            question_id = version["question_id"]
            row = await fetch_one(
                conn, "SELECT * FROM reviews WHERE user_id = ? AND question_id = ?", (user_id, question_id)
            )
            current = _review(row) if row is not None else None
            change = step(current)
            if change is None:
                return current
            if current is None:
                row = await fetch_one(
                    conn,
                    "INSERT INTO reviews (user_id, question_id, missed_version_id, card, due_at, created_at, "
                    "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *",
                    (user_id, question_id, version_id, change.card, change.due_at, now, now),
                )
            else:
                row = await fetch_one(
                    conn,
                    "UPDATE reviews SET card = ?, due_at = ?, reviews = reviews + 1, misses = misses + ?, "
                    "missed_version_id = CASE WHEN ? THEN ? ELSE missed_version_id END, updated_at = ? "
                    "WHERE user_id = ? AND question_id = ? RETURNING *",
                    (
                        change.card,
                        change.due_at,
                        int(change.missed),
                        int(change.missed),
                        version_id,
                        now,
                        user_id,
                        question_id,
                    ),
                )
        return _review(row)

    async def get(self, user_id: int, question_id: int) -> Review | None:
        row = await self.db.fetch_one(
            "SELECT * FROM reviews WHERE user_id = ? AND question_id = ?", (user_id, question_id)
        )
        return _review(row) if row is not None else None

    async def due(self, user_id: int, now: float, limit: int) -> list[Review]:
        """The learner's questions due at `now`, longest overdue first."""
        rows = await self.db.fetch_all(
            "SELECT * FROM reviews WHERE user_id = ? AND due_at <= ? ORDER BY due_at, question_id LIMIT ?",
            (user_id, now, limit),
        )
        return [_review(row) for row in rows]

    async def due_count(self, user_id: int, now: float) -> int:
        row = await self.db.fetch_one(
            "SELECT count(*) FROM reviews WHERE user_id = ? AND due_at <= ?", (user_id, now)
        )
        return row[0]

    async def due_counts(self, now: float) -> dict[int, int]:
        """Questions due per learner (learners with none due are absent): one query for every reminder."""
        rows = await self.db.fetch_all(
            "SELECT user_id, count(*) AS due FROM reviews WHERE due_at <= ? GROUP BY user_id", (now,)
        )
        return {row["user_id"]: row["due"] for row in rows}

    async def next_due_at(self, user_id: int) -> float | None:
        """When the learner's earliest scheduled question comes due; None with nothing scheduled."""
        row = await self.db.fetch_one("SELECT min(due_at) FROM reviews WHERE user_id = ?", (user_id,))
        return row[0]

    async def scheduled_count(self, user_id: int) -> int:
        row = await self.db.fetch_one("SELECT count(*) FROM reviews WHERE user_id = ?", (user_id,))
        return row[0]


def _review(row: sqlite3.Row) -> Review:
    return Review(**row)
