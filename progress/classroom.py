"""Class statistics for a group: how each member did over the group's rounds and which questions the class
missed most, with the reasons learners gave when they reported them.

Read from the stored answers, like the leaderboard, so the figures always agree with what was scored. Only
rounds count (a single quiz forwarded into the group is not a class exercise).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engines.i18n import text
from engines.standings import display_name
from storage.store import Store

DAY = 86400.0
STEM_SHOWN = 40


@dataclass(frozen=True)
class MemberStats:
    """`rounds`: rounds the member answered in, out of the group's `total_rounds`."""

    user_id: int
    name: str
    answered: int
    correct: int
    rounds: int
    total_rounds: int

    @property
    def accuracy(self) -> float:
        return self.correct / self.answered if self.answered else 0.0

    @property
    def participation(self) -> float:
        return self.rounds / self.total_rounds if self.total_rounds else 0.0


@dataclass(frozen=True)
class MissedQuestion:
    """`reasons`: report reasons on this version with how often each was given, most frequent first."""

    version_id: int
    stem: str
    attempts: int
    wrong: int
    reasons: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class ClassStats:
    """`days`: the window the figures cover, None for all time."""

    rounds: int
    questions: int
    members: tuple[MemberStats, ...]
    missed: tuple[MissedQuestion, ...]
    days: int | None


@dataclass(frozen=True)
class ChartSeries:
    """What a bar chart of the class plots: one bar pair per member, percentages 0–100."""

    names: tuple[str, ...]
    accuracy: tuple[float, ...]
    participation: tuple[float, ...]


async def class_stats(store: Store, chat_id: int, days: int | None = None, missed: int = 5) -> ClassStats:
    """The group's figures over its rounds, the last `days` days by the store's clock (None: all time)."""
    since = store.db.now() - days * DAY if days is not None else None
    totals = await store.deliveries.round_totals(chat_id, since)
    members = tuple(
        MemberStats(
            m.user_id,
            display_name(m.name, m.username, m.user_id),
            m.answered,
            m.correct,
            m.rounds,
            totals.rounds,
        )
        for m in await store.attempts.round_members(chat_id, since)
    )
    misses = await store.attempts.round_misses(chat_id, since, missed)
    ids = [score.version_id for score in misses]
    versions = await store.questions.versions(ids) if ids else {}
    reasons: dict[int, Counter[str]] = {version_id: Counter() for version_id in ids}
    for report in await store.reports.for_versions(ids) if ids else []:
        reasons[report.version_id][report.reason] += 1
    missed_questions = tuple(
        MissedQuestion(
            version_id=score.version_id,
            stem=versions[score.version_id].question.stem,
            attempts=score.attempts,
            wrong=score.attempts - score.correct,
            reasons=tuple(reasons[score.version_id].most_common()),
        )
        for score in misses
    )
    return ClassStats(totals.rounds, totals.questions, members, missed_questions, days)


def chart_series(stats: ClassStats) -> ChartSeries:
    return ChartSeries(
        names=tuple(m.name for m in stats.members),
        accuracy=tuple(round(100 * m.accuracy, 1) for m in stats.members),
        participation=tuple(round(100 * m.participation, 1) for m in stats.members),
    )


def summary(stats: ClassStats, locale: str) -> str:
    """The text an instructor reads, and the numbers a chart image comes with."""
    period = text(locale, "classstats_days", days=stats.days) if stats.days is not None else ""
    lines = [text(locale, "classstats_title", period=period, rounds=stats.rounds, questions=stats.questions)]
    if not stats.members:
        return "\n".join([*lines, text(locale, "classstats_empty")])
    lines.append(text(locale, "classstats_members"))
    lines += [
        text(
            locale,
            "classstats_member_line",
            rank=rank,
            name=m.name,
            accuracy=round(100 * m.accuracy),
            correct=m.correct,
            answered=m.answered,
            rounds=m.rounds,
            total=m.total_rounds,
        )
        for rank, m in enumerate(stats.members, start=1)
    ]
    if stats.missed:
        lines.append(text(locale, "classstats_missed"))
    for rank, question in enumerate(stats.missed, start=1):
        reasons = text(locale, "classstats_reason_join").join(
            text(locale, "classstats_reason", reason=text(locale, f"reason_{reason}"), count=count)
            for reason, count in question.reasons
        )
        lines.append(
            text(
                locale,
                "classstats_missed_line",
                rank=rank,
                stem=_shortened(question.stem),
                wrong=question.wrong,
                attempts=question.attempts,
                reasons=text(locale, "classstats_reasons", reasons=reasons) if reasons else "",
            )
        )
    return "\n".join(lines)


def _shortened(stem: str) -> str:
    return stem if len(stem) <= STEM_SHOWN else stem[: STEM_SHOWN - 1] + "…"
