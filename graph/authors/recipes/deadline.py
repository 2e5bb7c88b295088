"""A time limit counted from an event ("住房公积金管理中心应当自受理申请之日起15日内作出准予贷款或者不准贷款
的决定") → a 灵活 single choice asking by when, or a multiple choice asking which days around the limit's end
keep it (or miss it). The by-when single is written only for a textbook that says how days are counted;
its wrong days are the mistakes a learner makes with this very limit: counting the event's own day,
reading the days as working days, or taking another limit the same chapter (else the same part) of the
textbook sets; never a figure the textbook does not have.

Only calendar days are told: working days would need a calendar of holidays the question cannot show.
The day the event happens is not counted, as the civil law reckons a period in days; and the case's dates
are chosen so every option's day is a plain working day (holidays.py), since a last day on a rest day or
public holiday moves to the next working day (民法典第二百零三条) and a key or a distractor's reckoning would
be disputable. A rule that applies only under a condition the textbook states ("面积误差比绝对值超出3%时，
买受人有权退房") tells that condition in the case, as without it the rule need not apply; an application
received ("受理申请") names who applied for what, read from the decision the rule asks for.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass

from graph.authors import holidays, scenes
from graph.authors.holidays import plain_working_day
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
# "作出准予贷款或者不准贷款的决定": what the application received was for.
_MATTER = re.compile(r"准予([\u4e00-\u9fff]{2,4}?)(?:或者|或|的|$)")
_TRIES = 400
# How the textbook says a period in days is counted; without it a by-when date is disputable (is the first
# day counted? calendar or working days?), so a case then asks only whether a day is clearly within.
_COUNTING = re.compile(r"(?:开始的?当日|当天)不(?:计入|算入)|(?:次日|下一日)(?:开始)?(?:起算|计算)")
# A list item's number before a clause quoted from the textbook ("③单位应当…", "（1）…", "2．…").
_NUMBERING = re.compile(
    r"^\s*(?:[①-⑳]|[（(]\s*[\d一二三四五六七八九十]{1,2}\s*[)）]|\d{1,2}\s*[、.．]|[一二三四五六七八九十]、)\s*"
)


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


def _working_days(start: dt.date, days: int) -> dt.date:
    """The day `days` plain working days after `start`: the reckoning of a learner who reads 日 as 工作日."""
    day = start
    while days and day.year in holidays.YEARS:  # past the table no day is plain, and the date is refused
        day += dt.timedelta(days=1)
        days -= plain_working_day(day)
    return day


def _party_act(fact: Fact) -> re.Match[str] | None:
    """ "买受人退房的，…": the party and act the rule is conditional on, or None for an unconditional rule."""
    match = _LIMIT.search(fact.source)
    return None if match is None else _IF.search(fact.source[: match.start() + 1])


def condition(fact: Fact, text: str) -> str | None:
    """The premise under which the rule's party may act at all, as the textbook states it: for "买受人退房
    的，…" the clause before "买受人有权退房" ("面积误差比绝对值超出3%"); None when the rule is not
    conditional or `text` does not say when the party may act."""
    head = _party_act(fact)
    if head is None:
        return None
    right = re.compile(
        rf"(?:^|[，。；：）)])(?P<premise>[^，。；：（）()]{{4,40}}?)(?:时|的)，{head['party']}有权{head['act']}"
    )
    found = right.search(text)
    return found["premise"] if found else None


def _day(day: dt.date) -> str:
    return f"{day.year}年{day.month}月{day.day}日"


@dataclass(frozen=True)
class Wrong:
    """A wrong day's reckoning: how far from the event it lies and why a learner lands there."""

    gap: int | None  # calendar days from the event; None for the working-days reading
    why: str


def _limits(brief: Brief, days: int) -> list[int]:
    """The other limits in days the same chapter sets, else the same part (篇): limits a learner studying
    this one has just met. A figure counts only where a clause sets it as a time limit ("30日内")."""
    home = brief.task.slice
    for pool in (
        brief.facts.of_chapter(home.chapter, "threshold"),
        brief.facts.of_part(home.path[0], "threshold"),
    ):
        found: set[int] = set()
        for other in pool:
            if (
                other.unit != "日"
                or not other.value
                or other.value == days
                or other.value != int(other.value)
            ):
                continue
            if other.value in {_count(figure) for figure in _WITHIN.findall(other.source)}:
                found.add(int(other.value))
        if found:
            return sorted(found)
    return []


def _siblings(brief: Brief, days: int) -> list[Wrong]:
    """The chapter's other limits as the days a learner reckons with them."""
    return [Wrong(gap, f"是按{gap}日计算的日期，而本案的期限是{days}日") for gap in _limits(brief, days)]


def unnumbered(clause: str) -> str:
    """A clause quoted without the list number it bears in the textbook ("③单位应当…" → "单位应当…")."""
    return _NUMBERING.sub("", clause)


def counting_rule(texts: Iterable[str]) -> str | None:
    """The textbook's sentence on how a period in days is counted, when one of `texts` has it."""
    for text in texts:
        for sentence in re.split(r"(?<=[。；])", text):
            if _COUNTING.search(sentence):
                return unnumbered(sentence.strip())
    return None


def _wrongs(brief: Brief, days: int) -> list[Wrong]:
    """Three mistaken reckonings, the textbook's neighbouring limits first in random order."""
    siblings = _siblings(brief, days)
    brief.rng.shuffle(siblings)
    mistakes = [
        brief.rng.choice(
            (
                Wrong(days - 1, "是把事件发生的当日也算作第1日得出的，少算了一日"),
                Wrong(days + 1, f"是把“{days}日内”误当成满{days}日后的次日得出的，多算了一日"),
            )
        ),
        Wrong(None, f"是把{days}日当成{days}个工作日、跳过休息日和节假日得出的"),
        *siblings[1:],
    ]
    return siblings[:1] + brief.rng.sample(mistakes, min(len(mistakes), _SIBLINGS - len(siblings[:1])))


def _dates(brief: Brief, days: int) -> tuple[dt.date, list[dt.date], list[Wrong]] | None:
    """A plain working day for the event and three wrong reckonings whose days, with the key's, fall on
    distinct plain working days; the reckonings are drawn again with each date, as some limits never all
    end on weekdays together."""
    for _ in range(_TRIES):
        wrongs = _wrongs(brief, days)
        if len(wrongs) < _SIBLINGS:
            return None
        start = scenes.day_in(brief.rng, brief.rng.choice(holidays.YEARS[-2:]))
        picked = [start + dt.timedelta(days=days)]
        picked += [
            _working_days(start, days) if w.gap is None else start + dt.timedelta(days=w.gap) for w in wrongs
        ]
        if len(set(picked)) == len(picked) and all(map(plain_working_day, [start, *picked])):
            return start, picked, wrongs
    return None


def _told(brief: Brief, limit: Limit, day: str, because: str) -> str | None:
    """The event on its day as a case tells it. An application received names its applicant and its
    matter ("周某向某住房公积金管理中心申请贷款"), read from the decision the rule asks for; None when
    the rule names no matter, as "某中心受理申请" alone is no case."""
    if _OWN_PARTY.match(limit.event):
        return f"{day}，{because}{limit.event}"
    if not limit.event.endswith("申请"):
        return f"{day}，{because}某{limit.actor}{limit.event}"
    matter = _MATTER.search(limit.act)
    if matter is None:
        return None
    applicant = scenes.plain_name(brief.rng)
    return (
        f"{because}{applicant}向某{limit.actor}申请{matter[1]}，该{_short(limit.actor)}于{day}{limit.event}"
    )


def _short(actor: str) -> str:
    """ "住房公积金管理中心" → "中心": the head noun a case uses the second time it names a body."""
    for head in ("中心", "机构", "企业", "部门", "银行", "单位"):
        if actor.endswith(head):
            return head
    return actor


class Deadline:
    name = "deadline"
    kinds: tuple[FactKind, ...] = ("threshold",)
    qtypes: tuple[QuestionType, ...] = ("single", "multi")

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if brief.task.mode != "flexible":
            return None
        limit = limit_of(fact)
        if limit is None:
            return None
        home = brief.task.slice
        # the premise may stand in another point of the chapter than the limit ("…超出3%时，买受人有权退房")
        told_in = "。".join([home.text, *(other.source for other in brief.facts.of_chapter(home.chapter))])
        premise = condition(fact, told_in)
        if premise is None and _party_act(fact) is not None:
            return None  # "买受人提出退房" with no reason is no case
        because = f"因{premise}，" if premise else ""
        counting = counting_rule([home.text, *(other.source for other in brief.facts)])
        if brief.task.qtype == "multi":
            return _around(fact, brief, limit, because, counting is not None)
        if counting is None:
            return None  # a single's one kept day would always be the earliest date
        return _by_when(fact, brief, limit, because, counting)


def _rule(limit: Limit) -> str:
    return f"{limit.actor}应当自{limit.event}之日起{limit.days}日内{limit.act}"


def _by_when(fact: Fact, brief: Brief, limit: Limit, because: str, counting: str) -> Written | None:
    """The last day of the limit, for a textbook that says how a period in days is counted."""
    dates = _dates(brief, limit.days)
    if dates is None:
        return None
    start, (due, *others), wrongs = dates
    told = _told(brief, limit, _day(start), because)
    if told is None:
        return None
    stem = f"{told}。按照规定，{limit.actor}最迟应当于（　）{limit.act}。"
    choices = [O.Option(_day(due), True, f"“{_day(due)}”是自{_day(start)}的次日起算的第{limit.days}日")]
    choices += [
        O.Option(_day(day), False, f"“{_day(day)}”{wrong.why}")
        for day, wrong in zip(others, wrongs, strict=True)
    ]
    return O.choice(
        [fact.id],
        "single",
        stem,
        sorted(choices, key=lambda option: _order(option.text)),  # in date order, as papers print them
        [fact.source, counting],
        lead=f"教材规定，{_rule(limit)}；{counting.rstrip('。；')}。{_day(start)}的次日为第1日；"
        f"期限的最后一日{_day(due)}是{holidays.weekday(due)}，不是休息日或法定节假日，不发生顺延。",
        difficulty=0.5,
    )


def _around(fact: Fact, brief: Brief, limit: Limit, because: str, counted: bool) -> Written | None:
    """Which of four or five days around the limit's end keep within it (or miss it), as a multiple choice:
    only the rule tells them apart, where a single choice's one kept day is always the earliest date. The
    last day is told only when the textbook says how days are counted (`counted`); without it that day is
    disputable (is the event's own day the first?) and the days either side of it are asked, which keep or
    miss the limit on both readings. Both possible last days are plain working days, so none moves on."""
    days, rng = limit.days, brief.rng
    if days < 6:
        return None
    ends = (days,) if counted else (days - 1, days)
    band = [gap for gap in range(days - 3, days + 4) if counted or gap != days]
    kept = rng.random() < 0.5
    edge = [days if counted else days - 1, days + 1]  # the pair the rule splits is always asked
    for _ in range(_TRIES):
        gaps = sorted([*edge, *rng.sample([gap for gap in band if gap not in edge], rng.choice((2, 3)))])
        right = [(gap <= days) == kept for gap in gaps]
        start = scenes.day_in(rng, rng.choice(holidays.YEARS[-2:]))
        keys = {(start + dt.timedelta(days=gap)).day for gap, key in zip(gaps, right, strict=True) if key}
        # a key's day of the month also in the stem's date would give it away
        if (
            2 <= sum(right) < len(right)
            and all(plain_working_day(start + dt.timedelta(days=gap)) for gap in {0, *ends, *gaps})
            and start.day not in keys
        ):
            break
    else:
        return None
    told = _told(brief, limit, _day(start), because)
    if told is None:
        return None
    doer = limit.actor if _OWN_PARTY.match(limit.event) else f"该{_short(limit.actor)}"
    asked = "没有超过规定期限" if kept else "已超过规定期限"
    stem = f"{told}。{doer}于下列日期{limit.act}，其中{asked}的有（　）。"
    choices = []
    for gap, correct in zip(gaps, right, strict=True):
        day = start + dt.timedelta(days=gap)
        where = f"在{days}日的期限之内" if gap <= days else f"已超过{days}日的期限"
        choices.append(O.Option(_day(day), correct, f"“{_day(day)}”是{_day(start)}之后第{gap}日，{where}"))
    last = _day(start + dt.timedelta(days=days))
    if counted:
        lead = f"教材规定，{_rule(limit)}。{_day(start)}的次日为第1日，期限的最后一日是{last}。"
    else:
        lead = (
            f"教材规定，{_rule(limit)}。无论{_day(start)}当日是否计入，第{days - 1}日及以前都在期限之内，"
            f"第{days + 1}日及以后都已超过期限。"
        )
    return O.choice(
        [fact.id],
        "multi",
        stem,
        choices,
        [fact.source],
        lead=lead,
        difficulty=0.5,
    )


def _order(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text))


RECIPE = Deadline()
