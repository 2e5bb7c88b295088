"""A time limit counted from an event ("住房公积金管理中心应当自受理申请之日起15日内作出准予贷款或者不准贷款
的决定") → a 灵活 single choice asking by when: the event is given a date and the options are that date
moved on by the limit and by the other day limits the textbook sets, those of acts most like this one
first, so a learner who mixes up the limits picks the wrong day.

Only calendar days are told: working days would need a calendar of holidays the question cannot show.
The day the event happens is not counted, as the civil law reckons a period in days; and the case's dates
are chosen so the last day is a plain working day, since a last day on a rest day or public holiday moves
to the next working day (民法典第二百零三条) and the key would be disputable. A rule that applies only
under a condition the textbook states ("面积误差比绝对值超出3%时，买受人有权退房") tells that condition in
the case, as without it the rule need not apply.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
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
# "买受人退房的，房地产开发企业应当…": the clause the rule is conditional on, just before its actor.
_IF = re.compile(r"(?:^|[，。；：])(?P<party>[\u4e00-\u9fff]{1,6}?人)(?P<act>[\u4e00-\u9fff]{2,8})的，$")
# Days on which no period ends: 1 January, the May Day and National Day holidays, and a span wide enough
# to hold the Spring Festival holiday of any year (the lunar date moves between late January and February).
_HOLIDAYS = ((1, 1, 1, 1), (1, 20, 2, 28), (5, 1, 5, 5), (10, 1, 10, 8))
_TRIES = 200


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


def plain_working_day(day: dt.date) -> bool:
    """True for a Monday to Friday outside the public holidays: a period ending then ends on that day."""
    if day.weekday() >= 5:
        return False
    return not any((m1, d1) <= (day.month, day.day) <= (m2, d2) for m1, d1, m2, d2 in _HOLIDAYS)


def _start(brief: Brief, days: int) -> dt.date | None:
    """A day for the event whose period of `days` ends on a plain working day."""
    for _ in range(_TRIES):
        start = scenes.day_in(brief.rng, brief.rng.choice((2025, 2026)))
        if plain_working_day(start + dt.timedelta(days=days)):
            return start
    return None


def condition(fact: Fact, text: str) -> str | None:
    """The premise under which the rule's party may act at all, as the slice states it: for "买受人退房的，…"
    the clause before "买受人有权退房" ("面积误差比绝对值超出3%"); None when the rule is not conditional or
    the slice does not say when the party may act."""
    match = _LIMIT.search(fact.source)
    if match is None:
        return None
    head = _IF.search(fact.source[: match.start() + 1])
    if head is None:
        return None
    right = re.compile(
        rf"(?:^|[，。；：）)])(?P<premise>[^，。；：（）()]{{4,40}}?)(?:时|的)，{head['party']}有权{head['act']}"
    )
    found = right.search(text)
    return found["premise"] if found else None


def _day(day: dt.date) -> str:
    return f"{day.year}年{day.month}月{day.day}日"


def _pairs(text: str) -> set[str]:
    words = re.sub(r"[^\u4e00-\u9fff]", "", text)
    return {words[i : i + 2] for i in range(len(words) - 1)}


def _others(brief: Brief, fact: Fact, days: int) -> list[tuple[int, str]]:
    """Three of the other time limits in days the textbook sets (with a source that sets each): the
    limits a learner mixes up, drawn at random from the four whose rules share most wording with this one
    (the same kind of act), so the key is not always the same option."""
    seen: dict[int, str] = {}
    for other in brief.facts:
        if other.kind != "threshold" or other.unit != "日" or not other.value:
            continue
        limits = {_count(found) for found in _WITHIN.findall(other.source)}
        if other.value in limits and other.value == int(other.value) and other.value != days:
            seen.setdefault(int(other.value), other.source)
    if len(seen) < _SIBLINGS:
        return []
    own = _pairs(fact.source)
    pairs = {value: own & _pairs(source) for value, source in seen.items()}
    spread = Counter(
        pair for shared in pairs.values() for pair in shared
    )  # wording every rule has weighs little
    values = brief.rng.sample(sorted(seen), len(seen))
    values.sort(key=lambda value: -sum(1 / spread[pair] for pair in pairs[value]))
    return [(value, seen[value]) for value in brief.rng.sample(values[: _SIBLINGS + 1], _SIBLINGS)]


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
        others = _others(brief, fact, limit.days)
        start = _start(brief, limit.days)
        if len(others) < _SIBLINGS or start is None:
            return None
        told = limit.event if _OWN_PARTY.match(limit.event) else f"某{limit.actor}{limit.event}"
        premise = condition(fact, brief.task.slice.text)
        because = f"因{premise}，" if premise else ""
        stem = f"{because}{_day(start)}，{told}。按照规定，{limit.actor}最迟应当于（　）{limit.act}。"
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
            lead=f"教材规定，{rule}。期间开始的当日不计入，{_day(start)}的次日为第1日；"
            f"期限的最后一日{_day(due)}是工作日，不发生顺延。",
            difficulty=0.5,
        )


def _order(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text))


RECIPE = Deadline()
