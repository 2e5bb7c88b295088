"""What learners think of a question version: 👍/👎 votes and the reports behind a learner's 👎.

Both attach to a version, not to the question, so a revision starts with a clean tally and a report says
which text it was about.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from storage.db import Connection, Database, fetch_one, require
from storage.errors import InvalidValueError, check_choice
from storage.questions import check_successor
from vocabulary.kinds import FEEDBACK_REASONS

UP, DOWN = 1, -1
VOTE_VALUES: tuple[int, ...] = (UP, DOWN)
MAX_COMMENT = 1000
ReportStatus = Literal["open", "fixed", "dismissed"]


@dataclass(frozen=True)
class Vote:
    """`value`: UP (👍) or DOWN (👎)."""

    user_id: int
    version_id: int
    value: int
    voted_at: float


@dataclass(frozen=True)
class VoteChange:
    """`previous`: the user's earlier vote on this version, None for a first vote."""

    vote: Vote
    previous: int | None

    @property
    def changed(self) -> bool:
        return self.previous != self.vote.value


@dataclass(frozen=True)
class Tally:
    up: int
    down: int


@dataclass(frozen=True)
class Report:
    """`fixed_by`: the version that answered the report; `resolved_by`: the instructor who closed it."""

    id: int
    version_id: int
    reporter_id: int
    reason: str
    comment: str
    status: ReportStatus
    created_at: float
    resolved_at: float | None
    resolved_by: int | None
    fixed_by: int | None


def check_feedback(reason: str, comment: str) -> None:
    check_choice("reason", reason, FEEDBACK_REASONS)
    if len(comment) > MAX_COMMENT:
        raise InvalidValueError(f"comment: {len(comment)} characters, at most {MAX_COMMENT}")


class VoteRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def record(self, user_id: int, version_id: int, value: int) -> VoteChange:
        """One vote per user per version; voting again replaces it (a learner may change their mind)."""
        check_choice("vote", value, VOTE_VALUES)
        async with self.db.transaction() as conn:
            await require(
                conn, [("user", "users", user_id), ("question version", "question_versions", version_id)]
            )
            previous = await fetch_one(
                conn, "SELECT value FROM votes WHERE user_id = ? AND version_id = ?", (user_id, version_id)
            )
            row = await fetch_one(
                conn,
                "INSERT INTO votes (user_id, version_id, value, voted_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id, version_id) DO UPDATE SET value = excluded.value, "
                "voted_at = excluded.voted_at RETURNING *",
                (user_id, version_id, value, self.db.now()),
            )
        return VoteChange(Vote(**row), previous["value"] if previous is not None else None)

    async def get(self, user_id: int, version_id: int) -> Vote | None:
        row = await self.db.fetch_one(
            "SELECT * FROM votes WHERE user_id = ? AND version_id = ?", (user_id, version_id)
        )
        return Vote(**row) if row is not None else None

    async def tally(self, version_id: int) -> Tally:
        row = await self.db.fetch_one(
            "SELECT coalesce(sum(value = 1), 0) AS up, coalesce(sum(value = -1), 0) AS down "
            "FROM votes WHERE version_id = ?",
            (version_id,),
        )
        return Tally(up=row["up"], down=row["down"])

    async def tallies(self, version_ids: Sequence[int]) -> dict[int, Tally]:
        """The tally of each listed version that has votes (an export's 👍/👎 columns in one query)."""
        marks = ", ".join("?" for _ in version_ids)
        rows = await self.db.fetch_all(
            "SELECT version_id, sum(value = 1) AS up, sum(value = -1) AS down FROM votes "
            f"WHERE version_id IN ({marks}) GROUP BY version_id",
            tuple(version_ids),
        )
        return {row["version_id"]: Tally(up=row["up"], down=row["down"]) for row in rows}


class ReportRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(self, version_id: int, reporter_id: int, reason: str, comment: str = "") -> Report:
        """File a learner's report. While it is open, reporting the same version again rewrites it rather
        than piling up duplicates for the instructors."""
        check_feedback(reason, comment)
        async with self.db.transaction() as conn:
            await require(
                conn, [("question version", "question_versions", version_id), ("user", "users", reporter_id)]
            )
            row = await fetch_one(
                conn,
                "INSERT INTO reports (version_id, reporter_id, reason, comment, created_at) "
                "VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (version_id, reporter_id) WHERE status = 'open' "
                "DO UPDATE SET reason = excluded.reason, comment = excluded.comment RETURNING *",
                (version_id, reporter_id, reason, comment.strip(), self.db.now()),
            )
        return Report(**row)

    async def get(self, report_id: int) -> Report | None:
        row = await self.db.fetch_one("SELECT * FROM reports WHERE id = ?", (report_id,))
        return Report(**row) if row is not None else None

    async def open_reports(self, chat_id: int | None = None) -> list[Report]:
        """Oldest first; with `chat_id`, only questions asked in that chat (a group's instructors)."""
        rows = await self.db.fetch_all(
            "SELECT r.* FROM reports r JOIN question_versions v ON v.id = r.version_id "
            "JOIN questions q ON q.id = v.question_id "
            "WHERE r.status = 'open' AND (? IS NULL OR q.chat_id = ?) ORDER BY r.created_at, r.id",
            (chat_id, chat_id),
        )
        return [Report(**row) for row in rows]

    async def open_for(self, version_id: int) -> list[Report]:
        """The open reports on one version, oldest first: whom to tell when a revision answers them."""
        rows = await self.db.fetch_all(
            "SELECT * FROM reports WHERE version_id = ? AND status = 'open' ORDER BY created_at, id",
            (version_id,),
        )
        return [Report(**row) for row in rows]

    async def for_versions(self, version_ids: Sequence[int]) -> list[Report]:
        """Every report on the listed versions, open or closed, oldest first: why learners faulted them."""
        marks = ", ".join("?" for _ in version_ids)
        rows = await self.db.fetch_all(
            f"SELECT * FROM reports WHERE version_id IN ({marks}) ORDER BY created_at, id", tuple(version_ids)
        )
        return [Report(**row) for row in rows]

    async def mark_fixed(self, version_id: int, fixed_by: int, resolved_by: int) -> int:
        """Close every open report on a version once a later version of the same question answers them;
        the number closed."""
        async with self.db.transaction() as conn:
            await check_successor(conn, version_id, fixed_by)
            return await self._resolve(conn, "version_id = ?", version_id, "fixed", fixed_by, resolved_by)

    async def _resolve(
        self,
        conn: Connection,
        where: str,
        key: int,
        status: ReportStatus,
        fixed_by: int | None,
        resolved_by: int,
    ) -> int:
        await require(conn, [("user", "users", resolved_by)])
        cursor = await conn.execute(
            "UPDATE reports SET status = ?, fixed_by = ?, resolved_by = ?, resolved_at = ? "
            f"WHERE {where} AND status = 'open'",
            (status, fixed_by, resolved_by, self.db.now(), key),
        )
        return cursor.rowcount
