"""Group quiz rounds and the leaderboards built from their answers.

A round's answers are the attempts on its deliveries: scoring reads them rather than a copy, so a
leaderboard can never disagree with what was recorded. One live round per group (preparing or running).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Literal

from storage.db import Database, fetch_one, require
from storage.errors import ConflictError, InvalidValueError
from storage.quiz_settings import MAX_COUNT, QuizSettings, stored_settings

RoundStatus = Literal["preparing", "running", "finished", "cancelled"]

# Ranking: most correct answers first; among equals, less time spent on the correct ones (how fast the
# points were earned); then the user id, so equal players keep a stable order.
_STANDINGS = (
    "SELECT a.user_id, u.name, u.username, sum(a.correct) AS correct, count(*) AS answered, "
    "coalesce(sum(CASE WHEN a.correct = 1 THEN a.seconds END), 0.0) AS seconds "
    "FROM attempts a JOIN deliveries d ON d.id = a.delivery_id JOIN users u ON u.id = a.user_id "
    "WHERE {where} GROUP BY a.user_id ORDER BY correct DESC, seconds ASC, a.user_id LIMIT ?"
)


@dataclass(frozen=True)
class Round:
    """`position`: questions posted so far; `question_count`: how many were generated and will be posted;
    `seconds`: each poll's open period; `pause`: seconds between a close and the next post (channels)."""

    id: int
    chat_id: int
    initiator_id: int
    settings: QuizSettings
    status: RoundStatus
    position: int
    question_count: int
    created_at: float
    started_at: float | None
    finished_at: float | None
    seconds: int | None = None
    pause: int = 0


@dataclass(frozen=True)
class Standing:
    """`seconds`: total time on the correct answers, the tie-breaker."""

    rank: int
    user_id: int
    name: str
    username: str | None
    correct: int
    answered: int
    seconds: float


class RoundRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(
        self,
        chat_id: int,
        initiator_id: int,
        settings: QuizSettings,
        seconds: int | None = None,
        pause: int = 0,
    ) -> Round:
        """Open a round in the "preparing" state (its questions are generated before any is posted)."""
        async with self.db.transaction() as conn:
            await require(conn, [("chat", "chats", chat_id), ("user", "users", initiator_id)])
            live = await fetch_one(
                conn,
                "SELECT id, status FROM rounds WHERE chat_id = ? AND status IN ('preparing', 'running')",
                (chat_id,),
            )
            if live is not None:
                raise ConflictError(f"chat {chat_id} already has round {live['id']} {live['status']}")
            row = await fetch_one(
                conn,
                "INSERT INTO rounds (chat_id, initiator_id, settings, question_count, created_at, seconds, "
                "pause) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (chat_id, initiator_id, settings.to_json(), settings.count, self.db.now(), seconds, pause),
            )
        return _round(row)

    async def get(self, round_id: int) -> Round | None:
        row = await self.db.fetch_one("SELECT * FROM rounds WHERE id = ?", (round_id,))
        return _round(row) if row is not None else None

    async def live(self, chat_id: int) -> Round | None:
        row = await self.db.fetch_one(
            "SELECT * FROM rounds WHERE chat_id = ? AND status IN ('preparing', 'running')", (chat_id,)
        )
        return _round(row) if row is not None else None

    async def live_all(self) -> list[Round]:
        """Every round preparing or running, in any chat: what a restarted bot must take up or close."""
        rows = await self.db.fetch_all(
            "SELECT * FROM rounds WHERE status IN ('preparing', 'running') ORDER BY created_at, id"
        )
        return [_round(row) for row in rows]

    async def start(self, round_id: int, question_count: int) -> bool:
        """Preparing → running, with the number of questions that were actually generated (some may have
        failed verification). False if the round was not preparing."""
        if not 1 <= question_count <= MAX_COUNT:
            raise InvalidValueError(f"question_count: {question_count} is not from 1 to {MAX_COUNT}")
        return await self._transition(
            "status = 'running', started_at = ?, question_count = ?",
            (self.db.now(), question_count),
            round_id,
            ("preparing",),
        )

    async def advance(self, round_id: int) -> int | None:
        """Count one more question posted; the new position, or None if the round is not running."""
        async with self.db.transaction() as conn:
            row = await fetch_one(
                conn,
                "UPDATE rounds SET position = position + 1 WHERE id = ? AND status = 'running' "
                "RETURNING position",
                (round_id,),
            )
        return row["position"] if row is not None else None

    async def finish(self, round_id: int) -> bool:
        """True only for the call that finished it, so the closing leaderboard is posted once."""
        return await self._transition(
            "status = 'finished', finished_at = ?", (self.db.now(),), round_id, ("running",)
        )

    async def cancel(self, round_id: int) -> bool:
        return await self._transition(
            "status = 'cancelled', finished_at = ?", (self.db.now(),), round_id, ("preparing", "running")
        )

    async def leaderboard(self, round_id: int, limit: int | None = None) -> list[Standing]:
        return await self._standings("d.round_id = ?", (round_id,), limit)

    async def chat_leaderboard(
        self, chat_id: int, since: float | None = None, limit: int | None = 10
    ) -> list[Standing]:
        """Every answer to a quiz posted in the chat (rounds and single quizzes), from `since` on if given."""
        return await self._standings(
            "d.chat_id = ? AND (? IS NULL OR a.answered_at >= ?)", (chat_id, since, since), limit
        )

    async def week_leaderboard(
        self, chat_id: int, tz: tzinfo | None = None, limit: int | None = 10
    ) -> list[Standing]:
        """This week so far, weeks starting Monday 00:00 in `tz`; None takes the server's current UTC
        offset, so pass a ZoneInfo where daylight saving time applies."""
        now = datetime.fromtimestamp(self.db.now(), UTC).astimezone(tz)
        return await self.chat_leaderboard(chat_id, since=week_start(now), limit=limit)

    async def _standings(self, where: str, params: tuple[object, ...], limit: int | None) -> list[Standing]:
        rows = await self.db.fetch_all(
            _STANDINGS.format(where=where), (*params, -1 if limit is None else limit)
        )
        return [Standing(rank=rank, **row) for rank, row in enumerate(rows, start=1)]

    async def _transition(
        self,
        assignments: str,
        params: tuple[object, ...],
        round_id: int,
        from_status: tuple[RoundStatus, ...],
    ) -> bool:
        marks = ", ".join("?" for _ in from_status)
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                f"UPDATE rounds SET {assignments} WHERE id = ? AND status IN ({marks})",
                (*params, round_id, *from_status),
            )
            return cursor.rowcount == 1


def week_start(moment: datetime) -> float:
    """Unix time of the Monday 00:00 that starts `moment`'s week, in `moment`'s own time zone."""
    if moment.tzinfo is None:
        raise InvalidValueError("week_start needs a time-zone-aware datetime")
    monday = (moment - timedelta(days=moment.weekday())).replace(hour=0, minute=0, second=0, microsecond=0)
    return monday.timestamp()


def _round(row: sqlite3.Row) -> Round:
    return Round(**{**dict(row), "settings": stored_settings(row["settings"], f"round {row['id']}")})
