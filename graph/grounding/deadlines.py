"""A by-when case read against the time limit it is a case of: "2026年7月2日，买受人提出退房。…房地产开发企业
最迟应当于2026年8月1日将已付房价款退还买受人" is the textbook's "自买受人提出退房之日起30日内" only if the
two dates are 30 days apart. No sentence says that date, so the sentence comparison cannot ground it. A case
asking which day keeps within the limit ("…其中没有超过规定期限的是") is read the same way."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from graph.authors.recipes.deadline import counting_rule, limit_of
from graph.grounding.statements import Statement
from graph.grounding.text import bare
from graph.grounding.typed import FactCheck
from retrieval.facts import Fact

_DATE = re.compile(r"((?:19|20)\d{2})年(\d{1,2})月(\d{1,2})日")
_BY = "最迟应当于"
# "…于下列日期作出…决定，其中没有超过规定期限的是": a day inside the limit however it is counted, or
# "…已超过规定期限的是": a day past it however it is counted.
_KEPT = "没有超过规定期限"
_MISSED = "已超过规定期限"


def deadline(statement: Statement, facts: Sequence[Fact]) -> FactCheck | None:
    """Supported when the days from the event to the date the statement gives are the limit the rule of
    that event and act sets; contradicted when they are not."""
    text, context = statement.text, statement.context
    whole = text if context in text else f"{context}。{text}"  # a filled stem holds its case already
    by = _BY in whole
    if not by and _KEPT not in whole and _MISSED not in whole:
        return None
    dates = [dt.date(int(y), int(m), int(d)) for y, m, d in _DATE.findall(whole)]
    if len(dates) != 2:
        return None
    start, due = dates
    said = bare(whole)
    for fact in facts:
        limit = limit_of(fact)
        if limit is None or bare(limit.event) not in said or bare(limit.act) not in said:
            continue
        days = (due - start).days
        rule = f"自{limit.event}之日起{limit.days}日内"
        if not by:
            counted = counting_rule(other.source for other in facts) is not None
            return _kept(days, limit.days, rule, fact, _KEPT in whole, counted)
        if bare(f"{limit.actor}{_BY}") not in said:
            continue
        if days == limit.days:
            return FactCheck("supported", f"按照“{rule}”，期限的最后一日正是这一天", fact)
        return FactCheck("contradicted", f"按照“{rule}”，这一天距起算日{days}日，不是期限的最后一日", fact)
    return None


def _kept(days: int, limit: int, rule: str, fact: Fact, asked_kept: bool, counted: bool) -> FactCheck | None:
    """A day before the limit's last under any reckoning keeps it, a day past it does not; the last day
    itself keeps it only where the textbook says the event's own day is not counted (`counted`), and is
    judged neither way otherwise. `asked_kept`: whether the statement says the day keeps the limit (else
    that it misses it)."""
    if 0 < days < limit or (counted and days == limit):
        inside = True
    elif days > limit:
        inside = False
    else:
        return None
    where = "在期限之内" if inside else "已超过期限"
    verdict = "supported" if inside == asked_kept else "contradicted"
    return FactCheck(verdict, f"按照“{rule}”，这一天距起算日{days}日，{where}", fact)
