"""The words that go with the progress engines' numbers, in the learner's language: the /stats text sent
with (or instead of) the chart, the chart's labels, the review outlook and the reminder line."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from engines.i18n import plural, text
from progress.chart import ChartLabels
from progress.review import ReviewOutlook
from progress.stats import LearnerStats, Tally


def percent(tally: Tally) -> str:
    accuracy = tally.accuracy
    return "—" if accuracy is None else f"{round(accuracy * 100)}%"


def chapter_name(locale: str, chapter: tuple[str, ...]) -> str:
    """The 章 of a (篇, 章) pair, as the /quiz menu shows it."""
    return chapter[-1] if chapter else text(locale, "stats_unassigned")


def stats_text(stats: LearnerStats, locale: str) -> str:
    """The /stats message; with no answers yet it is the whole answer (no chart is drawn)."""
    if not stats.has_data:
        return text(locale, "stats_empty")
    recent = Tally(sum(d.answered for d in stats.days), sum(d.correct for d in stats.days))
    lines = [
        text(locale, "stats_title"),
        plural(
            locale,
            "stats_total",
            stats.total.answered,
            correct=stats.total.correct,
            accuracy=percent(stats.total),
        ),
        text(locale, "stats_streak", current=stats.current_streak, best=stats.best_streak),
        plural(
            locale,
            "stats_recent",
            recent.answered,
            days=sum(1 for d in stats.days if d.answered),
            accuracy=percent(recent),
        ),
        "",
        text(locale, "stats_chapters"),
    ]
    lines += [
        text(
            locale,
            "stats_chapter_line",
            chapter=chapter_name(locale, c.chapter),
            correct=c.correct,
            answered=c.answered,
            accuracy=percent(c),
        )
        for c in stats.chapters
    ]
    if stats.unpractised:
        separator = "、" if locale == "zh" else ", "
        names = separator.join(chapter_name(locale, c) for c in stats.unpractised)
        lines += ["", text(locale, "stats_unpractised", chapters=names)]
    return "\n".join(lines)


def chart_labels(locale: str) -> ChartLabels:
    return ChartLabels(
        title=text(locale, "chart_title"),
        answered=text(locale, "chart_answered"),
        accuracy=text(locale, "chart_accuracy"),
    )


def outlook_text(outlook: ReviewOutlook, locale: str, time_zone: str) -> str:
    """What /review says when nothing is due: when the next question comes due, in the learner's zone."""
    if outlook.next_due_at is None:
        return text(locale, "review_none_scheduled")
    when = datetime.fromtimestamp(outlook.next_due_at, ZoneInfo(time_zone))
    return plural(locale, "review_nothing_due", outlook.scheduled, when=f"{when:%Y-%m-%d %H:%M}")


def reminder_text(due: int, locale: str) -> str:
    return plural(locale, "reminder_due", due)
