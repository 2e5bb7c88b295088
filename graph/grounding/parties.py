"""Who must do what a rule asks, in a case: "卖方周某已婚而房屋登记在其一人名下。参与办理此事的还有经纪人员
黄某…。按照规定，应当由（　）核实房屋是否属于夫妻共同财产", its options the people of the case by name. No
sentence says that 黄某 must act: the rule says the 经纪人员 must, and the stem says who 黄某 is. The option
whose role, as the stem introduces it, is the one the rule binds is supported; any other person is not.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graph.grounding.statements import Statement
from graph.grounding.text import bare
from graph.grounding.typed import FactCheck
from retrieval.facts import Fact

_ASKS_WHO = re.compile(r"(?:应当|必须)由$")
_DUTY_WORDS = ("应当", "必须", "应", "须")
# The roles a case introduces a person by ("经纪人员黄某"), longest first so 经纪人员 wins over 经纪人.
_ROLES = (
    "房地产经纪人员", "经纪人员", "经纪人", "委托人", "购房人", "买受人", "出卖人", "借款人", "抵押人",
    "权利人", "监护人", "业主", "买方", "卖方", "职工",
)  # fmt: skip


def _role_of(name: str, stem: str) -> str | None:
    """The role the stem introduces `name` with, or None when it names no such person."""
    found = re.search(rf"({'|'.join(_ROLES)}){re.escape(name)}", stem)
    return found.group(1) if found else None


def _bearer(fact: Fact) -> str | None:
    """The role the rule's sentence binds: the words right before its modal ("…的，经纪人员应当核实…")."""
    at = fact.source.find(fact.consequence)
    if at < 0:
        return None
    before = fact.source[:at]
    word = next((w for w in _DUTY_WORDS if before.endswith(w)), None)
    if word is None:
        return None
    head = re.split(r"[，。；：]", before[: -len(word)])[-1]
    return next((role for role in _ROLES if head.endswith(role)), None)


def bearer(statement: Statement, facts: Sequence[Fact]) -> FactCheck | None:
    if statement.kind != "fill" or not statement.option:
        return None
    stem = statement.context + statement.text
    head, _, act = statement.text.rpartition(statement.option)
    if not _ASKS_WHO.search(head):
        return None
    act = bare(act.split("。")[0])
    person = re.fullmatch(r"[\u4e00-\u9fff]某", statement.option)
    role = _role_of(statement.option, stem) if person else statement.option
    for fact in facts:
        if fact.kind != "modal" or fact.modal not in ("应当", "必须") or bare(fact.consequence) != act:
            continue
        bound = _bearer(fact)
        if bound is None:
            continue
        said = f"规定由{bound}{fact.consequence}"
        if role == bound:
            return FactCheck("supported", f"{said}，题干中的{bound}即{statement.option}", fact)
        return FactCheck("contradicted", f"{said}，{statement.option}不是{bound}", fact)
    return None
