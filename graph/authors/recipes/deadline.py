"""A time limit counted from an event ("住房公积金管理中心应当自受理申请之日起15日内作出准予贷款或者不准贷款
的决定") → a 灵活 single choice asking by when: the event is given a date and the options are that date
moved on by the limit and by the other day limits the textbook sets (5日, 30日, 90日), so a learner who
mixes up the limits picks the wrong day.

Only calendar days are told: working days would need a calendar of holidays the question cannot show.
The day the event happens is not counted, as the civil law reckons a period in days.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from graph.authors import scenes
from graph.authors.recipes import options as O
from graph.authors.recipes.base import Brief, Written
from retrieval.chapters import chinese_number
from retrieval.facts import Fact, FactKind
from vocabulary.kinds import QuestionType

# "住房公积金管理中心应当自受理申请之日起15日内作出…决定": who, from what, how long, what.
_LIMIT = re.compile(
    r"(?:^|[，。；：])(?P<actor>[\u4e00-\u9fff]{2,16}?)应当(?:自|在|从)(?P<event>[\u4e00-\u9fff]{2,12}?)之日起"
    r"(?P<days>\d+|[一二三四五六七八九十百]+)日内，?(?P<act>[^，。；]{4,40})"
)
# A figure of days that is a time limit ("十五日内", "90日以内"), not part of a date.
_WITHIN = re.compile(r"(\d+|[一二三四五六七八九十百]+)日(?:内|以内)")
# An event told with its own party ("买受人提出退房") needs no actor before it.
_OWN_PARTY = re.compile(r"^[\u4e00-\u9fff]{1,3}人")
_SIBLINGS = 3


@dataclass(frozen=True)
class Limit:
    """The rule as the case tells it."""

    actor: str
    event: str
    days: int
    act: str


def _count(text: str) -> float | None:
    return float(text) if text.isdigit() else chinese_number(text)


def limit_of(fact: Fact) -> Limit | None:
    """The source's own clause for the fact's limit; None for working days or a limit not counted from an
    event."""
    if fact.kind != "threshold" or fact.unit != "日" or not fact.value:
        return None
    for match in _LIMIT.finditer(fact.source):
        days = _count(match["days"])
        if days == fact.value and match["act"].strip() and not match["actor"].endswith("的"):
            return Limit(match["actor"], match["event"], int(days), match["act"].strip())
    return None


def _day(day: dt.date) -> str:
    return f"{day.year}年{day.month}月{day.day}日"


def _others(brief: Brief, days: int) -> list[tuple[int, str]]:
    """Three of the other time limits in days the textbook sets (with a source that sets each): the
    limits a learner mixes up, drawn at random so the key is not always the same option."""
    seen: dict[int, str] = {}
    for other in brief.facts:
        if other.kind != "threshold" or other.unit != "日" or not other.value:
            continue
        limits = {_count(found) for found in _WITHIN.findall(other.source)}
        if other.value in limits and other.value == int(other.value) and other.value != days:
            seen.setdefault(int(other.value), other.source)
    if len(seen) < _SIBLINGS:
        return []
    return [(value, seen[value]) for value in brief.rng.sample(sorted(seen), _SIBLINGS)]


class Deadline:
    name = "deadline"
    kinds: tuple[FactKind, ...] = ("threshold",)
    qtypes: tuple[QuestionType, ...] = ("single",)

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if brief.task.mode != "flexible" or brief.task.qtype != "single":
            return None
        limit = limit_of(fact)
        if limit is None:
            return None
        others = _others(brief, limit.days)
        if len(others) < _SIBLINGS:
            return None
        rng = brief.rng
        start = scenes.day_in(rng, rng.choice((2025, 2026)))
        told = limit.event if _OWN_PARTY.match(limit.event) else f"某{limit.actor}{limit.event}"
        stem = f"{_day(start)}，{told}。按照规定，{limit.actor}最迟应当于（　）{limit.act}。"
        due = start + dt.timedelta(days=limit.days)
        rule = f"{limit.actor}应当自{limit.event}之日起{limit.days}日内{limit.act}"
        choices = [O.Option(_day(due), True, f"“{_day(due)}”是自{_day(start)}的次日起算的第{limit.days}日")]
        for days, _ in others:
            day = _day(start + dt.timedelta(days=days))
            choices.append(O.Option(day, False, f"“{day}”是按{days}日计算的结果，把这一期限记成了{days}日"))
        return O.choice(
            [fact.id],
            "single",
            stem,
            sorted(choices, key=lambda option: _order(option.text)),  # in date order, as papers print them
            [fact.source],
            lead=f"教材规定，{rule}。期间开始的当日不计入，{_day(start)}的次日为第1日。",
            difficulty=0.5,
        )


def _order(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text))


RECIPE = Deadline()
