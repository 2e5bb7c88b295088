"""A learner's statistics: answered, accuracy overall and per chapter, the last 30 days, practice streaks.

Days are the learner's calendar days in their own time zone: a question answered at 23:30 in Shanghai
counts for that day, not for the next UTC day, and a streak breaks on a day they did not practise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from storage import Store
from storage.history import ChapterCount, SlotCount

DAYS = 30


@dataclass(frozen=True)
class Tally:
    answered: int = 0
    correct: int = 0

    @property
    def accuracy(self) -> float | None:
        """Share of correct answers, None before the first answer (0 % would claim every answer was wrong)."""
        return self.correct / self.answered if self.answered else None


@dataclass(frozen=True)
class ChapterTally(Tally):
    """`chapter`: the (篇, 章) pair, empty for questions filed under no chapter."""

    chapter: tuple[str, ...] = ()


@dataclass(frozen=True)
class DayTally(Tally):
    day: date = date.min


@dataclass(frozen=True)
class LearnerStats:
    """`chapters`: weakest first; `unpractised`: chapters of the knowledge base never answered, in textbook
    order; `days`: the last 30 calendar days, oldest first, ending today, days without answers included;
    `current_streak`: practice days in a row up to today, or up to yesterday while today is still open."""

    total: Tally
    chapters: tuple[ChapterTally, ...]
    unpractised: tuple[tuple[str, ...], ...]
    days: tuple[DayTally, ...]
    current_streak: int
    best_streak: int

    @property
    def has_data(self) -> bool:
        return self.total.answered > 0


def compute_stats(
    by_chapter: Iterable[ChapterCount],
    by_slot: Iterable[SlotCount],
    chapters: Sequence[tuple[str, ...]],
    now: float,
    time_zone: str,
) -> LearnerStats:
    """Fold a learner's answer counts; `chapters` is the knowledge base's chapter list in textbook order."""
    zone = ZoneInfo(time_zone)
    today = datetime.fromtimestamp(now, zone).date()
    first_day = today - timedelta(days=DAYS - 1)
    day_answered: Counter[date] = Counter()
    day_correct: Counter[date] = Counter()
    for slot in by_slot:
        day = datetime.fromtimestamp(slot.start, zone).date()
        day_answered[day] += slot.answered
        day_correct[day] += slot.correct
    order = {tuple(chapter): index for index, chapter in enumerate(chapters)}
    practised = [ChapterTally(c.answered, c.correct, c.chapter) for c in by_chapter if c.answered]
    # Weakest first; among equals the one answered most (the surer verdict), then textbook order.
    practised.sort(
        key=lambda t: (t.correct / t.answered, -t.answered, order.get(t.chapter, len(order)), t.chapter)
    )
    current, best = _streaks(set(day_answered), today)
    seen = {t.chapter for t in practised}
    return LearnerStats(
        total=Tally(sum(t.answered for t in practised), sum(t.correct for t in practised)),
        chapters=tuple(practised),
        unpractised=tuple(c for c in order if c not in seen),
        days=tuple(
            DayTally(day_answered[d], day_correct[d], d)
            for d in (first_day + timedelta(days=n) for n in range(DAYS))
        ),
        current_streak=current,
        best_streak=best,
    )


def _streaks(days: set[date], today: date) -> tuple[int, int]:
    best = run = 0
    previous: date | None = None
    for day in sorted(days):
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    end = today if today in days else today - timedelta(days=1)
    current = 0
    while end - timedelta(days=current) in days:
        current += 1
    return current, best


async def learner_stats(
    store: Store, user_id: int, chapters: Sequence[tuple[str, ...]], time_zone: str
) -> LearnerStats:
    """The statistics as of the store's clock."""
    return compute_stats(
        await store.history.by_chapter(user_id),
        await store.history.by_slot(user_id),
        chapters,
        store.db.now(),
        time_zone,
    )
