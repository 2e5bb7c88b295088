"""Answers read back for learner statistics and for how hard each question proved.

Read-only: answers are written by `storage.attempts`. Each answer carries the chapter of the version it
answered (the generated `question_versions.chapter` column), so per-chapter accuracy needs no bank lookup.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from storage.db import Database
from storage.errors import SchemaError


@dataclass(frozen=True)
class Answer:
    """`chapter`: the (篇, 章) pair of the question, empty when it was filed under none."""

    answered_at: float
    correct: bool
    chapter: tuple[str, ...]
    question_id: int


@dataclass(frozen=True)
class QuestionTally:
    """First answers to one question: how many learners answered it and how many of them got it right."""

    answered: int
    correct: int


class HistoryRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def answers(self, user_id: int) -> list[Answer]:
        """Every answer of the learner, oldest first: a learner's whole history is a few thousand rows at
        most, which the statistics fold in one pass."""
        rows = await self.db.fetch_all(
            "SELECT a.answered_at, a.correct, v.chapter, v.question_id FROM attempts a "
            "JOIN question_versions v ON v.id = a.version_id "
            "WHERE a.user_id = ? ORDER BY a.answered_at, a.id",
            (user_id,),
        )
        return [
            Answer(row["answered_at"], bool(row["correct"]), _chapter(row["chapter"]), row["question_id"])
            for row in rows
        ]

    async def first_answer_tallies(self, question_ids: Sequence[int]) -> dict[int, QuestionTally]:
        """Per question, each learner's first answer only (to any of its versions): a learner drilled on it
        in review gets it right in the end, which says nothing about how hard it is to meet cold."""
        if not question_ids:
            return {}
        marks = ", ".join("?" * len(question_ids))
        rows = await self.db.fetch_all(
            "SELECT question_id, count(*) AS answered, sum(correct) AS correct FROM ("
            "  SELECT v.question_id, a.user_id, a.correct,"
            "  row_number() OVER (PARTITION BY v.question_id, a.user_id ORDER BY a.answered_at, a.id) AS n"
            "  FROM attempts a JOIN question_versions v ON v.id = a.version_id"
            f"  WHERE v.question_id IN ({marks})"
            ") WHERE n = 1 GROUP BY question_id",
            tuple(question_ids),
        )
        return {row["question_id"]: QuestionTally(row["answered"], row["correct"]) for row in rows}


def _chapter(stored: str | None) -> tuple[str, ...]:
    if stored is None:
        return ()
    try:
        chapter = json.loads(stored)
    except json.JSONDecodeError as exc:
        raise SchemaError(f"a stored question's chapter is not JSON: {stored!r}") from exc
    return tuple(str(part) for part in chapter) if isinstance(chapter, list) else ()
