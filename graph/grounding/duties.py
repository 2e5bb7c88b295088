"""What a party must do in a case: "卖方周某已婚而房屋登记在其一人名下。按照规定，经纪人员黄某应当（　）",
its options what the chapter's rules ask of the broker in one situation or another; or a judge in which
someone concludes one such duty ("…。周某据此认为，经纪人员袁某应当在房屋状况说明书中注明"). Each duty
alone is true somewhere ("经纪人员应当及时撤下房源信息"), so the sentences cannot tell them apart; the
rule's condition can. The duty whose rule's condition the case meets is supported; one whose rule asks it
only in a situation the case does not tell is contradicted. A judge's conclusion is contradicted only when
the case tells another rule's situation: a case that tells none is no ground to deny a duty.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graph.grounding.statements import Statement
from graph.grounding.text import bare
from graph.grounding.typed import FactCheck
from retrieval.facts import Fact

_ASKS_WHAT = re.compile(r"按照规定，[^，。]{0,16}?(?:应当|必须)$")
_CONCLUDES = re.compile(r"^(.*)据此认为，[^，。]{0,16}?(?:应当|必须)([^，。]+)$")
# The head of a list of acts a party must not do: "经纪机构和经纪人员发布房源信息时不得有下列行为",
# "议价中常见的违反执业规范的行为".
_FORBIDS = re.compile(r"(?:(?:不得|禁止)(?:有|从事|实施)?|违反[^，。的]{0,8})的(?:行为|做法)$")
# A situation stated as something missing: "业主没有书面授权并交付钥匙".
_MISSING = re.compile(r"^(?P<who>[\u4e00-\u9fff]{0,6}?)(?:没有|未)(?P<what>[\u4e00-\u9fff]{2,16})$")
_NAMES = re.compile(r"[\u4e00-\u9fff]某(?![一些种项个类])|[甲乙丙丁](?=房地产经纪机构)")


def _unnamed(text: str) -> str:
    """The case's words without its people's names ("卖方周某已婚" → "卖方已婚"), as a rule words it."""
    return bare(_NAMES.sub("", text).replace("房地产经纪机构", "经纪机构"))


def _act_of(act: str, consequence: str) -> bool:
    """The case's act is the rule's consequence, a person's name standing where the rule names a party."""
    pieces = (re.escape(bare(piece)) for piece in _NAMES.split(act))
    return re.fullmatch(r"[\u4e00-\u9fff]{1,6}?".join(pieces), bare(consequence)) is not None


def _concluded(statement: Statement, facts: Sequence[Fact]) -> FactCheck | None:
    """A judge's conclusion of a duty, held against the situation the case tells."""
    found = _CONCLUDES.match(statement.text)
    if found is None:
        return None
    case = _unnamed(found[1])
    duties = [f for f in facts if f.kind == "modal" and f.modal in ("应当", "必须") and f.condition]
    met = [f for f in duties if _unnamed(f.condition) in case]
    for fact in duties:
        if not _act_of(found[2], fact.consequence):
            continue
        if fact in met:
            return FactCheck("supported", f"题干的情形正是“{fact.condition}”，此时{fact.consequence}", fact)
        if met:
            return FactCheck(
                "contradicted", f"“{fact.consequence}”是“{fact.condition}”时的要求，题干并非这种情形", fact
            )
    return None


def _lifted(fact: Fact, case: str) -> FactCheck | None:
    """A prohibition that holds only while something is missing ("业主没有书面授权的，…不得…"), read
    against a case that says it is there ("业主已书面授权"): the act is then allowed."""
    missing = _MISSING.match(fact.condition.removesuffix("的"))
    if missing is None:
        return None
    if bare(f"{missing['who']}已{missing['what']}") in case:
        return FactCheck("supported", f"本案不属于“{fact.condition}”的情形，这一禁止不适用", fact)
    return None


def _forbidden(statement: Statement, facts: Sequence[Fact]) -> FactCheck | None:
    """A conduct ("下列做法中，不符合规定的是", "…，这一做法符合规定") that is an item of a list of
    forbidden acts: done, it is improper, however far the list's head sits from the item ("不得有下列行为：
    （1）…")."""
    said = bare(statement.option if statement.kind == "saying" else "，".join(statement.asserted))
    if not said:
        return None
    for fact in facts:
        if fact.kind == "modal" and fact.modal == "不得":
            allowed = _lifted(fact, bare(statement.context + statement.text))
            if allowed is not None and said.endswith(bare(fact.consequence)):
                return allowed
            items: tuple[str, ...] = (fact.consequence,)
        elif fact.kind == "enumeration" and _FORBIDS.search(fact.subject):
            items = tuple(fact.items)
        else:
            continue
        for item in items:
            act = bare(item)
            if len(act) >= 4 and (said == act or (statement.kind == "judge" and said.endswith(act))):
                return FactCheck("contradicted", f"“{item}”是教材所列{fact.subject}", fact)
    return None


def duty_in_case(statement: Statement, facts: Sequence[Fact]) -> FactCheck | None:
    if statement.conduct:
        return _forbidden(statement, facts)
    if statement.kind == "judge":
        return _concluded(statement, facts)
    if statement.kind != "fill" or not statement.option:
        return None
    head, _, rest = statement.text.rpartition(statement.option)
    if not _ASKS_WHAT.search(head) or bare(rest):
        return None
    case = _unnamed(statement.context)
    option = bare(statement.option)
    for fact in facts:
        if fact.kind != "modal" or fact.modal not in ("应当", "必须") or bare(fact.consequence) != option:
            continue
        if not fact.condition:
            return None  # a duty with no condition holds in every case
        if _unnamed(fact.condition) in case:
            return FactCheck("supported", f"题干的情形正是“{fact.condition}”，此时{fact.consequence}", fact)
        return FactCheck(
            "contradicted", f"“{fact.consequence}”是“{fact.condition}”时的要求，题干并非这种情形", fact
        )
    return None
