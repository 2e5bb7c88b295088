"""What comes next in a procedure the textbook lists in order: "…目前已经完成：①…；②…。按照X的一般办理顺序，
接下来的环节是（　）", or a judge's "…告诉双方，接下来的环节是Y". No sentence says "after these two,
the third", so the sentence comparison cannot ground it; the ordered list can. The steps the stem reports
done must be the list's first ones, and the step right after them is the one supported; any other step of
the list is contradicted. A step only some cases take ("需要贷款的，…") is passed over when the case says
its condition does not hold ("周某不需要贷款"), and offering it is then contradicted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graph.grounding.statements import Statement
from graph.grounding.text import bare
from graph.grounding.typed import NAMED, FactCheck, _named, _same_item
from retrieval.facts import Fact

_ASKS_NEXT = re.compile(r"接下来|下一步")
# A choice of the steps still to take: "…按照X的一般办理顺序，双方还需要办理的环节有（　）".
_ASKS_STILL = re.compile(r"还需要?办理的环节")
# A judge's claim of the next step: "…告诉双方，按照…，接下来的环节是买卖双方缴纳交易税费".
_CLAIMED = re.compile(r"(?:接下来|下一步)(?:的环节)?(?:是|为|应当)([^，。；（]+)")
_ORDER_WORDS = re.compile(r"(?:依次)?(?:为|是)?$")  # "不动产登记的程序依次" is named without its 依次
# A step that only some cases take: "需要贷款的，买方申请贷款…".
_CONDITION = re.compile(r"^([^，]{2,12})的，")


def _denied(step: str, case: str) -> bool:
    """The case says the step's condition does not hold ("周某不需要贷款"), so the step is not on its way."""
    condition = _CONDITION.match(step)
    return condition is not None and bare("不" + condition.group(1)) in bare(case)


def _reported(step: str, stem: str) -> bool:
    """The stem reports the step done: its last clause in the stem's words, without the condition that may
    open it ("需要贷款的，买方申请贷款…")."""
    return bare(step.split("，")[-1]) in bare(stem)


def next_step(statement: Statement, facts: Sequence[Fact]) -> FactCheck | None:
    still = statement.kind == "fill" and _ASKS_STILL.search(statement.text) is not None
    if statement.kind == "fill" and (_ASKS_NEXT.search(statement.text) or still):
        option = statement.option
    elif statement.kind == "judge" and (claimed := _CLAIMED.search(statement.text)):
        option = claimed.group(1)
    else:
        return None
    stem = (statement.context + statement.text).replace(option, "")
    case = statement.context  # the sentences before the question: what has been done
    for fact in facts:
        if fact.kind != "enumeration" or _named(_ORDER_WORDS.sub("", fact.subject), stem) < NAMED:
            continue
        at = next(
            (
                i
                for i, item in enumerate(fact.items)
                if _same_item(option, item) or _same_item(option, _CONDITION.sub("", item))
            ),
            None,
        )
        if at is None:
            continue
        done = [_reported(item, case) for item in fact.items]
        skipped = [_denied(item, case) for item in fact.items]
        count = next((i for i, d in enumerate(done) if not d and not skipped[i]), len(done))
        if not any(done[:count]) or any(done[count:]):
            return None  # the steps reported done are not the list's first ones: no "next" to speak of
        if skipped[at]:
            condition = _CONDITION.match(fact.items[at])
            return FactCheck("contradicted", f"这一环节只在“{condition[1] if condition else ''}”时办理", fact)
        if still:
            if done[at]:
                return FactCheck("contradicted", "本案已经办理了这一环节", fact)
            return FactCheck("supported", f"按照“{fact.subject}”，这一环节在已完成的环节之后，尚未办理", fact)
        if at == count:
            return FactCheck("supported", f"按照“{fact.subject}”，已完成的环节之后紧接着是这一环节", fact)
        return FactCheck("contradicted", f"按照“{fact.subject}”，已完成的环节之后并不紧接着这一环节", fact)
    return None
