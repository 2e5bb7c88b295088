"""A dated sale read against the rule it is a case of. `periods.held_for` has turned the case's dates into
the years held ("周女士购买4.92年的住房出售"); that shares the rule's words whichever side of the bound it
falls, so no sentence comparison can tell a right key from a wrong one. Here the years, and the family's
other homes when the rule asks for its only one (满五唯一), are held against the rule's condition."""

from __future__ import annotations

import re
from collections.abc import Sequence

from graph.grounding.figures import inside
from graph.grounding.statements import Statement
from graph.grounding.text import Number, bare, normalise, numbers
from graph.grounding.typed import FactCheck
from retrieval.facts import Fact

# What `held_for` leaves of a dated case: "周女士购买5.08年的住房出售".
_HELD_YEARS = re.compile(r"(?:购买|购入|购置|取得)(\d+(?:\.\d+)?)年的")
# A rule's condition that speaks of how long a home was owned ("转让自用达5年以上", "持有满2年").
_OWNED = re.compile(r"自用|持有|购买|购入|购置|取得")
# A case's word on the family's other homes: "另有一套住房" says it is not the only one.
_NOT_ONLY = re.compile(r"另有|还有[一二两\d]套|不是[^，。；]{0,6}唯一|并非[^，。；]{0,6}唯一")
_ONLY = "唯一"
_TANGLED = re.compile(r"但|或者|除外|不适用")


def _only_home(case: str) -> bool | None:
    """Whether the case says the home sold was the family's only one (None: it does not say)."""
    if _NOT_ONLY.search(case):
        return False
    return True if _ONLY in case else None


def _period_bound(condition: str) -> Number | None:
    """The one bound on years a rule's condition sets, when that is all it bounds (no date, no second
    bound, no exception)."""
    found = numbers(normalise(condition))
    if len(found) != 1 or found[0].unit != "年" or not found[0].bound or _TANGLED.search(condition):
        return None
    return found[0] if _OWNED.search(condition) else None


def holding_case(statement: Statement, facts: Sequence[Fact]) -> FactCheck | None:
    """The rule's consequence is supported for a case that meets every condition and contradicted for one
    that misses any; a case two rules judge differently is left to the sentences."""
    held = _HELD_YEARS.findall(statement.text)
    if len(held) != 1:
        return None
    years = float(held[0])
    case = f"{statement.context}，{statement.text}"
    only = _only_home(case)
    said = bare(statement.text)
    found: list[FactCheck] = []
    for fact in facts:
        if fact.kind != "threshold" or not fact.subject or bare(fact.subject) not in said:
            continue
        bound = _period_bound(fact.condition)
        needs_only = _ONLY in fact.condition
        if bound is None or (needs_only and only is None):
            continue
        negated = bool(re.search(rf"不(?:能|得|可以)?{re.escape(bare(fact.subject))}", said))
        meets = inside(years, bound) and (only or not needs_only)
        reason = f"案例中的住房{'符合' if meets else '不符合'}“{fact.condition.strip('，。；')}”的条件"
        found.append(FactCheck("supported" if meets != negated else "contradicted", reason, fact))
    verdicts = {check.verdict for check in found}
    return found[0] if len(verdicts) == 1 else None
