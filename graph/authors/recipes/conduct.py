"""A prohibition that holds only in a situation ("业主没有书面授权并交付钥匙的，经纪人员不得在业主不在场时
带客户进入房屋") → 灵活 judge on what one broker did in a case: "业主已书面授权并交付钥匙，经纪人员周某在业主
不在场时带客户进入房屋，这一做法符合规定。（　）". The act is the same either way; whether the case tells the
rule's situation or its opposite decides the answer, so a learner who only recognises the act as risky
cannot answer.

Only a situation stated as something missing ("没有…", "未…") is told, since its opposite can be said
plainly ("已…"); a prohibition without a situation, or lists of forbidden acts, are not asked this way:
"经纪人员的下列做法中，不符合规定的是" with textbook acts as options is the fixed frame examiners strike
(the acts decide nothing about a case, and the forbidden ones give themselves away).
"""

from __future__ import annotations

import re

from graph.authors import scenes
from graph.authors.recipes import options as O
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.scenario import has_modal, rule_of
from retrieval.facts import Fact, FactKind
from vocabulary.kinds import QuestionType

# A situation stated as something missing, and how the case says it is there: "业主没有书面授权" → "业主已
# 书面授权"; the party before the negation stays.
_MISSING = re.compile(r"^(?P<who>[\u4e00-\u9fff]{0,6}?)(?:没有|未)(?P<what>[\u4e00-\u9fff]{2,16})$")
_POINTER = re.compile(r"此|上述|下列|以下|前述|这些|其他|其它|该|之一|任何|等$")
_BROKERS = ("房地产经纪人员", "经纪人员", "经纪人")
_ACT_MAX = 30


def prohibition(fact: Fact) -> tuple[str, str, str] | None:
    """(situation, its opposite, act) of a broker's prohibition that holds in a situation of something
    missing; None for any other rule."""
    rule = rule_of(fact)
    if rule is None or rule.modal != "不得" or rule.subject not in _BROKERS or not rule.lead.endswith("的，"):
        return None
    situation = rule.condition
    missing = _MISSING.match(situation)
    act = rule.consequence
    if missing is None or has_modal(situation) or _POINTER.search(situation + act) or len(act) > _ACT_MAX:
        return None
    if "，" in act or re.search(r"或|、", situation):
        return None  # the case would have to say which alternative happened
    return situation, f"{missing['who']}已{missing['what']}", act


class Conduct:
    name = "conduct"
    kinds: tuple[FactKind, ...] = ("modal",)
    qtypes: tuple[QuestionType, ...] = ("judge",)

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if brief.task.mode != "flexible" or brief.task.qtype != "judge":
            return None
        found = prohibition(fact)
        if found is None:
            return None
        situation, opposite, act = found
        rng = brief.rng
        allowed = rng.random() < 0.5
        name = scenes.plain_name(rng)
        told = opposite if allowed else situation
        stem = f"{told}，经纪人员{name}{act}，这一做法符合规定。（　）"
        rule = f"按照规定，{situation}的，经纪人员不得{act}。"
        if allowed:
            why = f"本案{opposite}，不属于“{situation}”的情形，这一禁止不适用，{name}的做法符合规定。"
        else:
            why = f"本案正是“{situation}”的情形，{name}的做法违反规定。"
        return O.judge([fact.id], stem, allowed, rule + why, [fact.source], difficulty=0.5)


RECIPE = Conduct()
