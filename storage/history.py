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

# Answers are summed per quarter hour: every time zone in use is offset from UTC by a whole number of
# quarter hours, so a quarter hour never straddles a local midnight and the learner's days stay exact.
SLOT_SECONDS = 900


@dataclass(frozen=True)
class ChapterCount:
    """`chapter`: the (篇, 章) pair of the questions, empty for questions filed under none."""

    chapter: tuple[str, ...]
    answered: int
    correct: int


@dataclass(frozen=True)
class SlotCount:
    """Answers given in the quarter hour starting at `start` (Unix seconds)."""

    start: float
    answered: int
    correct: int


@dataclass(frozen=True)
class QuestionCount:
    """First answers to one question: how many learners answered it and how many of them got it right."""

    answered: int
    correct: int


class HistoryRepository:
    """Sums computed by SQLite, so a learner with thousands of answers costs the event loop a few dozen
    rows, not thousands (reading every answer with its chapter took 80 ms for 5,000 answers)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def by_chapter(self, user_id: int) -> list[ChapterCount]:
        """The learner's answers per chapter; answers are summed per version first, so each version's
        chapter is read out of its body once."""
        rows = await self.db.fetch_all(
            "SELECT v.chapter, sum(t.answered) AS answered, sum(t.correct) AS correct FROM ("
            "  SELECT version_id, count(*) AS answered, sum(correct) AS correct FROM attempts"
            "  WHERE user_id = ? GROUP BY version_id"
            ") t JOIN question_versions v ON v.id = t.version_id GROUP BY v.chapter",
            (user_id,),
        )
        counts: dict[tuple[str, ...], tuple[int, int]] = {}
        for row in rows:
            # One chapter stored with different JSON escapes folds into one.
            chapter = _chapter(row["chapter"])
            answered, correct = counts.get(chapter, (0, 0))
            counts[chapter] = (answered + row["answered"], correct + row["correct"])
        return [ChapterCount(chapter, *totals) for chapter, totals in counts.items()]

    async def by_slot(self, user_id: int) -> list[SlotCount]:
        """The learner's answers per quarter hour, oldest first."""
        rows = await self.db.fetch_all(
            f"SELECT CAST(answered_at / {SLOT_SECONDS} AS INTEGER) AS slot, count(*) AS answered, "
            "sum(correct) AS correct FROM attempts WHERE user_id = ? GROUP BY slot ORDER BY slot",
            (user_id,),
        )
        return [SlotCount(row["slot"] * SLOT_SECONDS, row["answered"], row["correct"]) for row in rows]

    async def first_answer_tallies(self, question_ids: Sequence[int]) -> dict[int, QuestionCount]:
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
        return {row["question_id"]: QuestionCount(row["answered"], row["correct"]) for row in rows}

    async def first_answer_tallies_by_key(self, prefix: str) -> dict[str, QuestionCount]:
        """Per question key starting with `prefix`, each learner's first answer, summed over every chat:
        a bank question is stored once per chat that met it, yet how hard it is is one figure."""
        rows = await self.db.fetch_all(
            "SELECT question_key, count(*) AS answered, sum(correct) AS correct FROM ("
            "  SELECT q.question_key, a.correct,"
            "  row_number() OVER (PARTITION BY q.question_key, a.user_id ORDER BY a.answered_at, a.id) AS n"
            "  FROM attempts a JOIN question_versions v ON v.id = a.version_id"
            "  JOIN questions q ON q.id = v.question_id WHERE substr(q.question_key, 1, ?) = ?"
            ") WHERE n = 1 GROUP BY question_key",
            (len(prefix), prefix),
        )
        return {row["question_key"]: QuestionCount(row["answered"], row["correct"]) for row in rows}


def _chapter(stored: str | None) -> tuple[str, ...]:
    if stored is None:
        return ()
    try:
        chapter = json.loads(stored)
    except json.JSONDecodeError as exc:
        raise SchemaError(f"a stored question's chapter is not JSON: {stored!r}") from exc
    return tuple(str(part) for part in chapter) if isinstance(chapter, list) else ()
