"""Whether what a case lists is all a required list asks for: "…已经提交了A、B、C。经纪人员周某据此认为，材料
已经齐全". No sentence says "A, B and C are all", so the sentence comparison cannot ground it; the list can.
The list is the enumeration the case names most items of (two at least); the claim is supported when the
case names every item but a catch-all ("其他材料"), contradicted when it leaves one out. Of a choice asking
what the list "还包括" beyond what the case brought, an item the case already names is contradicted: it is
required, but not still to come.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graph.grounding.statements import Statement
from graph.grounding.text import bare
from graph.grounding.typed import FactCheck
from retrieval.facts import Fact

_COMPLETE = re.compile(r"已经齐全|已经完备|已齐全")
_STILL = re.compile(r"还包括")
_CATCH_ALL = re.compile(r"其他|其它")
_LISTED_MIN = 2


def _named(item: str, case: str) -> bool:
    """The case names the item, perhaps without the 的 closing a condition or the 等 closing a list."""
    return bare(item).removesuffix("的").removesuffix("等") in case


def _best(case: str, facts: Sequence[Fact]) -> Fact | None:
    """The enumeration the case names most items of, two at least."""
    best: tuple[int, Fact] | None = None
    for fact in facts:
        if fact.kind != "enumeration":
            continue
        count = sum(_named(item, case) for item in fact.items)
        if count >= _LISTED_MIN and (best is None or count > best[0]):
            best = (count, fact)
    return best[1] if best else None


def _brought(statement: Statement, facts: Sequence[Fact]) -> FactCheck | None:
    """An option of "…还包括（　）" that the case already names among what was brought."""
    case = bare(statement.context or statement.text.rpartition(statement.option)[0])
    fact = _best(case, facts)
    option = bare(statement.option)
    if fact is None or not any(bare(item) == option for item in fact.items) or not _named(option, case):
        return None
    return FactCheck("contradicted", f"“{statement.option}”属于“{fact.subject}”，但本案已经具备", fact)


def completeness(statement: Statement, facts: Sequence[Fact]) -> FactCheck | None:
    if statement.kind == "fill" and statement.option and _STILL.search(statement.text):
        return _brought(statement, facts)
    if statement.kind != "judge" or not _COMPLETE.search(statement.text):
        return None
    case = bare(statement.context or statement.text)
    fact = _best(case, facts)
    if fact is None:
        return None
    left = [item for item in fact.items if not _CATCH_ALL.search(item) and not _named(item, case)]
    if left:
        return FactCheck("contradicted", f"按照“{fact.subject}”，本案尚缺“{left[0]}”", fact)
    return FactCheck("supported", f"本案已具备“{fact.subject}”所列各项", fact)
