"""Private /quiz sessions: one learner working through a set of questions in one chat.

A learner has at most one active session per chat (a partial unique index says so); starting /quiz again
cancels the old one, which is what the learner meant by starting over.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Literal

from storage.db import Database, fetch_one, require
from storage.errors import NotFoundError
from storage.quiz_settings import QuizSettings, stored_settings

SessionStatus = Literal["active", "finished", "cancelled"]

# The session learner's own answers to the session's deliveries (others may answer a forwarded poll).
_SCORE = (
    "SELECT s.settings, count(a.id) AS answered, coalesce(sum(a.correct), 0) AS correct, "
    "coalesce(sum(a.seconds), 0.0) AS seconds "
    "FROM sessions s LEFT JOIN deliveries d ON d.session_id = s.id "
    "LEFT JOIN attempts a ON a.delivery_id = d.id AND a.user_id = s.user_id "
    "WHERE s.id = ? GROUP BY s.id"
)

# No delivery at the session's position is still waiting for the learner's own answer.
_OWED = (
    "NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.session_id = s.id AND d.position = s.position "
    "AND NOT EXISTS (SELECT 1 FROM attempts a WHERE a.delivery_id = d.id AND a.user_id = s.user_id))"
)


@dataclass(frozen=True)
class Session:
    """`position`: how many questions have been sent so far; `score` is set when the session finishes."""

    id: int
    chat_id: int
    user_id: int
    settings: QuizSettings
    status: SessionStatus
    position: int
    score: int | None
    created_at: float
    finished_at: float | None


@dataclass(frozen=True)
class Score:
    """`total` is the number of questions asked for, so "7/10" reads right even before the end."""

    answered: int
    correct: int
    total: int
    seconds: float


class SessionRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(self, chat_id: int, user_id: int, settings: QuizSettings) -> Session:
        """Start a session, cancelling the learner's active one in this chat."""
        now = self.db.now()
        async with self.db.transaction() as conn:
            await require(conn, [("chat", "chats", chat_id), ("user", "users", user_id)])
            await conn.execute(
                "UPDATE sessions SET status = 'cancelled', finished_at = ? "
                "WHERE chat_id = ? AND user_id = ? AND status = 'active'",
                (now, chat_id, user_id),
            )
            row = await fetch_one(
                conn,
                "INSERT INTO sessions (chat_id, user_id, settings, created_at) VALUES (?, ?, ?, ?) "
                "RETURNING *",
                (chat_id, user_id, settings.to_json(), now),
            )
        return _session(row)

    async def get(self, session_id: int) -> Session | None:
        row = await self.db.fetch_one("SELECT * FROM sessions WHERE id = ?", (session_id,))
        return _session(row) if row is not None else None

    async def active(self, chat_id: int, user_id: int) -> Session | None:
        row = await self.db.fetch_one(
            "SELECT * FROM sessions WHERE chat_id = ? AND user_id = ? AND status = 'active'",
            (chat_id, user_id),
        )
        return _session(row) if row is not None else None

    async def waiting_for_question(self) -> list[Session]:
        """Active sessions whose learner is owed a question: nothing delivered yet, or the latest delivery
        answered. After a restart these resume; the others wait for an answer that will move them on."""
        rows = await self.db.fetch_all(
            f"SELECT s.* FROM sessions s WHERE s.status = 'active' AND s.position < "
            f"json_extract(s.settings, '$.count') AND {_OWED}"
        )
        return [_session(row) for row in rows]

    async def owed_question(self, session_id: int) -> bool:
        """Whether the learner has answered the latest question sent (or none was sent yet): a second
        request for the next question, say from start-up resume and an answer at once, must not send two."""
        row = await self.db.fetch_one(f"SELECT 1 FROM sessions s WHERE s.id = ? AND {_OWED}", (session_id,))
        return row is not None

    async def advance(self, session_id: int) -> int | None:
        """Count one more question sent; the new position, or None when the session is no longer active
        (a late answer after /cancel must not move it)."""
        async with self.db.transaction() as conn:
            row = await fetch_one(
                conn,
                "UPDATE sessions SET position = position + 1 WHERE id = ? AND status = 'active' "
                "RETURNING position",
                (session_id,),
            )
        return row["position"] if row is not None else None

    async def finish(self, session_id: int) -> bool:
        """Close the session with its score. True only for the call that closed it, so two answers racing
        to be the last one send one summary, not two."""
        async with self.db.transaction() as conn:
            score = _score(session_id, await fetch_one(conn, _SCORE, (session_id,)))
            cursor = await conn.execute(
                "UPDATE sessions SET status = 'finished', finished_at = ?, score = ? "
                "WHERE id = ? AND status = 'active'",
                (self.db.now(), score.correct, session_id),
            )
            return cursor.rowcount == 1

    async def cancel(self, session_id: int) -> bool:
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE sessions SET status = 'cancelled', finished_at = ? "
                "WHERE id = ? AND status = 'active'",
                (self.db.now(), session_id),
            )
            return cursor.rowcount == 1

    async def score(self, session_id: int) -> Score:
        return _score(session_id, await self.db.fetch_one(_SCORE, (session_id,)))


def _score(session_id: int, row: sqlite3.Row | None) -> Score:
    if row is None:
        raise NotFoundError(f"session {session_id} is not stored")
    return Score(
        answered=row["answered"],
        correct=row["correct"],
        total=stored_settings(row["settings"], f"session {session_id}").count,
        seconds=row["seconds"],
    )


def _session(row: sqlite3.Row) -> Session:
    return Session(**{**dict(row), "settings": stored_settings(row["settings"], f"session {row['id']}")})
