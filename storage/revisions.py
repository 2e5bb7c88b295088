"""Revisions in flight: an instructor's 👎 sending a version back through the critic and fixer. A revision
stays in flight while its result waits for the instructor's 发布 or 放弃 (the result itself is the
generation thread's latest version, checkpointed, so the wait survives a restart).

A version is revised by at most one instructor at a time, whoever pressed first (a partial unique index on
unfinished rows makes the claim atomic, across processes too); the others are told it is already under way.
Rows stay after they finish, as the history of who revised what and why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from storage.db import Database, require
from storage.errors import InvalidValueError, check_choice
from storage.feedback import check_feedback
from storage.questions import check_successor

RevisionOutcome = Literal["revised", "failed", "abandoned"]
REVISION_OUTCOMES: tuple[RevisionOutcome, ...] = ("revised", "failed", "abandoned")


@dataclass(frozen=True)
class Revision:
    """`reason`/`comment` are kept so a revision a crash interrupted can be re-run as asked."""

    id: int
    version_id: int
    instructor_id: int
    reason: str
    comment: str
    started_at: float
    finished_at: float | None
    outcome: RevisionOutcome | None
    result_version_id: int | None


class RevisionRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def try_start_revision(
        self, version_id: int, instructor_id: int, reason: str, comment: str = ""
    ) -> bool:
        """Claim the version for revision; False if a revision of it is already in flight."""
        check_feedback(reason, comment)
        async with self.db.transaction() as conn:
            await require(
                conn,
                [("question version", "question_versions", version_id), ("user", "users", instructor_id)],
            )
            cursor = await conn.execute(
                "INSERT INTO revisions (version_id, instructor_id, reason, comment, started_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (version_id) WHERE finished_at IS NULL DO NOTHING",
                (version_id, instructor_id, reason, comment.strip(), self.db.now()),
            )
            return cursor.rowcount == 1

    async def finish_revision(
        self, version_id: int, outcome: RevisionOutcome, result_version_id: int | None = None
    ) -> bool:
        """Release the claim; `result_version_id` is the new version when the outcome is "revised".
        False if no revision of that version was in flight."""
        check_choice("outcome", outcome, REVISION_OUTCOMES)
        if (outcome == "revised") != (result_version_id is not None):
            raise InvalidValueError(
                "result_version_id: give the new version exactly when the outcome is 'revised'"
            )
        async with self.db.transaction() as conn:
            if result_version_id is not None:
                await check_successor(conn, version_id, result_version_id)
            cursor = await conn.execute(
                "UPDATE revisions SET finished_at = ?, outcome = ?, result_version_id = ? "
                "WHERE version_id = ? AND finished_at IS NULL",
                (self.db.now(), outcome, result_version_id, version_id),
            )
            return cursor.rowcount == 1

    async def get(self, revision_id: int) -> Revision | None:
        row = await self.db.fetch_one("SELECT * FROM revisions WHERE id = ?", (revision_id,))
        return Revision(**row) if row is not None else None

    async def current(self, version_id: int) -> Revision | None:
        """The revision of a version in flight (being written, or written and awaiting the instructor)."""
        row = await self.db.fetch_one(
            "SELECT * FROM revisions WHERE version_id = ? AND finished_at IS NULL", (version_id,)
        )
        return Revision(**row) if row is not None else None

    async def in_flight(self, instructor_id: int | None = None) -> list[Revision]:
        """Unfinished revisions, oldest first: after a restart, the ones to resume or report."""
        rows = await self.db.fetch_all(
            "SELECT * FROM revisions WHERE finished_at IS NULL AND (? IS NULL OR instructor_id = ?) "
            "ORDER BY started_at, id",
            (instructor_id, instructor_id),
        )
        return [Revision(**row) for row in rows]

    async def in_flight_count(self, instructor_id: int) -> int:
        """How many revisions one instructor is waiting for, to cap what one person can queue."""
        row = await self.db.fetch_one(
            "SELECT count(*) FROM revisions WHERE finished_at IS NULL AND instructor_id = ?", (instructor_id,)
        )
        return row[0]
