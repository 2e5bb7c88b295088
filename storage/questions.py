"""Generated questions and their versions.

A question is one generation thread (`<chat_id>/<question_id>` in the LangGraph checkpointer); each verified
result of that thread is a version. Versions are never edited: a revision adds version n+1 and marks n as
superseded, so deliveries, answers and reports keep pointing at exactly the text the learner saw.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import ValidationError

from storage.db import Connection, Database, fetch_one, require
from storage.errors import ConflictError, InvalidValueError, NotFoundError, SchemaError
from vocabulary.records import GenerationRequest, Question

_SELECT_VERSION = "SELECT v.*, q.thread_id FROM question_versions v JOIN questions q ON q.id = v.question_id"


@dataclass(frozen=True)
class StoredQuestion:
    id: int
    thread_id: str
    chat_id: int
    question_key: str
    session_id: int | None
    round_id: int | None
    created_at: float


@dataclass(frozen=True)
class ServedKey:
    """How often a chat was shown a question stored under a key, and when last."""

    question_key: str
    deliveries: int
    last_at: float


@dataclass(frozen=True)
class QuestionVersion:
    """`superseded_by`: the id of the version that replaced this one, None while it is the latest."""

    id: int
    question_id: int
    thread_id: str
    number: int
    question: Question
    flagged: bool
    created_at: float
    superseded_by: int | None

    @property
    def label(self) -> str:
        return f"v{self.number}"


class QuestionRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def record(
        self,
        request: GenerationRequest,
        question: Question,
        *,
        number: int | None = None,
        flagged: bool = False,
        session_id: int | None = None,
        round_id: int | None = None,
    ) -> QuestionVersion:
        """Store a generation result: the question on its first result, then the version.

        `number` is the loop's own version number, so the label the bot shows matches the thread's history;
        None takes the next one.
        """
        now = self.db.now()
        async with self.db.transaction() as conn:
            await require(
                conn,
                [
                    ("chat", "chats", request.chat_id),
                    ("session", "sessions", session_id),
                    ("round", "rounds", round_id),
                ],
            )
            await conn.execute(
                "INSERT INTO questions (thread_id, chat_id, question_key, session_id, round_id, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (thread_id) DO NOTHING",
                (request.thread_id, request.chat_id, request.question_id, session_id, round_id, now),
            )
            row = await fetch_one(conn, "SELECT id FROM questions WHERE thread_id = ?", (request.thread_id,))
            return await _insert_version(conn, row["id"], question, number, flagged, now)

    async def add_version(
        self, question_id: int, question: Question, *, number: int | None = None, flagged: bool = False
    ) -> QuestionVersion:
        """A revision of a stored question; the previous latest version becomes superseded by it."""
        async with self.db.transaction() as conn:
            await require(conn, [("question", "questions", question_id)])
            return await _insert_version(conn, question_id, question, number, flagged, self.db.now())

    async def get(self, question_id: int) -> StoredQuestion | None:
        row = await self.db.fetch_one("SELECT * FROM questions WHERE id = ?", (question_id,))
        return StoredQuestion(**row) if row is not None else None

    async def by_thread(self, thread_id: str) -> StoredQuestion | None:
        row = await self.db.fetch_one("SELECT * FROM questions WHERE thread_id = ?", (thread_id,))
        return StoredQuestion(**row) if row is not None else None

    async def version(self, version_id: int) -> QuestionVersion | None:
        row = await self.db.fetch_one(f"{_SELECT_VERSION} WHERE v.id = ?", (version_id,))
        return _version(row) if row is not None else None

    async def latest(self, question_id: int) -> QuestionVersion | None:
        row = await self.db.fetch_one(
            f"{_SELECT_VERSION} WHERE v.question_id = ? ORDER BY v.number DESC LIMIT 1",
            (question_id,),
        )
        return _version(row) if row is not None else None

    async def history(self, question_id: int) -> list[QuestionVersion]:
        """Every version, oldest first."""
        rows = await self.db.fetch_all(
            f"{_SELECT_VERSION} WHERE v.question_id = ? ORDER BY v.number",
            (question_id,),
        )
        return [_version(row) for row in rows]

    async def versions(self, version_ids: Sequence[int]) -> dict[int, QuestionVersion]:
        """The listed versions by id (absent ids are left out)."""
        marks = ", ".join("?" for _ in version_ids)
        rows = await self.db.fetch_all(f"{_SELECT_VERSION} WHERE v.id IN ({marks})", tuple(version_ids))
        return {row["id"]: _version(row) for row in rows}

    async def served_keys(self, chat_id: int, prefix: str) -> dict[str, ServedKey]:
        """The chat's questions whose key starts with `prefix` and that were delivered there, by key."""
        rows = await self.db.fetch_all(
            "SELECT q.question_key, count(d.id) AS deliveries, max(d.delivered_at) AS last_at "
            "FROM questions q JOIN question_versions v ON v.question_id = q.id "
            "JOIN deliveries d ON d.version_id = v.id AND d.chat_id = q.chat_id "
            "WHERE q.chat_id = ? AND substr(q.question_key, 1, ?) = ? GROUP BY q.id",
            (chat_id, len(prefix), prefix),
        )
        return {row["question_key"]: ServedKey(**row) for row in rows}


async def _insert_version(
    conn: Connection,
    question_id: int,
    question: Question,
    number: int | None,
    flagged: bool,
    now: float,
) -> QuestionVersion:
    previous = await fetch_one(
        conn,
        "SELECT id, number FROM question_versions WHERE question_id = ? ORDER BY number DESC LIMIT 1",
        (question_id,),
    )
    last = previous["number"] if previous is not None else 0
    if number is None:
        number = last + 1
    elif number < 1:
        raise InvalidValueError(f"number: version numbers start at 1, not {number}")
    elif number <= last:
        raise ConflictError(f"question {question_id} already has version {last}; cannot add version {number}")
    row = await fetch_one(
        conn,
        "INSERT INTO question_versions (question_id, number, body, flagged, created_at) "
        "VALUES (?, ?, ?, ?, ?) RETURNING id",
        (question_id, number, question.model_dump_json(), int(flagged), now),
    )
    if previous is not None:
        await conn.execute(
            "UPDATE question_versions SET superseded_by = ? WHERE id = ?", (row["id"], previous["id"])
        )
    return await version_in(conn, row["id"])


async def version_in(conn: Connection, version_id: int) -> QuestionVersion:
    """A version read inside another repository's transaction, e.g. to mark an answer right or wrong."""
    row = await fetch_one(conn, f"{_SELECT_VERSION} WHERE v.id = ?", (version_id,))
    if row is None:
        raise NotFoundError(f"question version {version_id} is not stored")
    return _version(row)


def _version(row: sqlite3.Row) -> QuestionVersion:
    try:
        question = Question.model_validate_json(row["body"])
    except ValidationError as exc:
        raise SchemaError(f"question version {row['id']} holds an unreadable question: {exc}") from exc
    return QuestionVersion(
        id=row["id"],
        question_id=row["question_id"],
        thread_id=row["thread_id"],
        number=row["number"],
        question=question,
        flagged=bool(row["flagged"]),
        created_at=row["created_at"],
        superseded_by=row["superseded_by"],
    )


async def check_successor(conn: Connection, version_id: int, later_id: int) -> None:
    """Refuse to link a version to one that is not a later version of the same question (a fix or a
    revision result pointing at unrelated text)."""
    earlier, later = await version_in(conn, version_id), await version_in(conn, later_id)
    if later.question_id != earlier.question_id or later.number <= earlier.number:
        raise ConflictError(
            f"version {later_id} is not a later version of the same question as version {version_id}"
        )
