"""Modal rules with a condition → 灵活 single (and multiple) choice: which of these situations calls for the
rule's act. "下列情形中，（　）的，经纪人员周某应当核实房屋是否属于夫妻共同财产。" The right option is the
rule's own condition told of named people; the others are conditions of other rules of the chapter, each
calling for something else, so the learner must know which situation the rule is about. The field's papers
ask conditions this way ("下列情形中，应当申请注销网签的是").

A condition is told only when it reads as a situation on its own: short, with no rule, pointer or stage of
someone's work in it ("经纪人员采集房源信息时" is when an act is done, not a case), and an act only when it
says what is done without pointing back into its sentence. Two options never state one situation, and no
distractor belongs to a rule that asks the same act, since it would then be right too.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from graph.authors import scenes
from graph.authors.recipes import options as O
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.scenario import Rule, rule_of
from graph.authors.recipes.statements import alike
from graph.authors.recipes.threshold import multi_answers
from retrieval.facts import MODALS, Fact, FactKind
from vocabulary.kinds import QuestionType

_CONDITION_MIN, _CONDITION_MAX = 6, 24
_ACT_MIN = 6
_CLOSEST = 3  # distractors are the situations closest in wording to the asked one (ties drawn at random)
_MODAL_WORDS = re.compile("|".join((*MODALS, "应", "须", "不能", "禁止")))
# What points outside the clause or marks a stage of work rather than a case.
_POINTING = re.compile(r"此|上述|下列|以下|前述|这些|这种|其他|该|其|时$|后$|前$|中$|期间$")
_OPENINGS = ("按照", "根据", "依照", "依据", "因此", "所以", "但", "而", "如果", "若", "对于", "对")
# Who may act in the case; the stem names them ("监护人周某"), a rule binding anyone else is declined.
_COMMON = ("房屋", "住房", "房产", "合同", "买方", "卖方", "当事", "事人")
_ACTORS = tuple(role for role, _ in scenes.ROLES if role != "个人")


@dataclass(frozen=True)
class _Case:
    rule: Rule
    fact: Fact


def _case(fact: Fact) -> _Case | None:
    rule = rule_of(fact)
    if rule is None or not rule.condition or rule.subject not in ("", *_ACTORS):
        return None
    condition = rule.condition
    if not _CONDITION_MIN <= len(condition) <= _CONDITION_MAX or "，" in condition or "：" in condition:
        return None
    if _MODAL_WORDS.search(condition) or _POINTING.search(condition) or condition.startswith(_OPENINGS):
        return None
    if any(actor in condition for actor in ("经纪人员", "经纪人", "经纪机构")):
        return None  # the broker's own work ("经纪人员承接…时") is when an act is done, not a case
    return _Case(rule, fact)


def _asks(case: _Case) -> bool:
    act = case.rule.consequence
    return len(act) >= _ACT_MIN and not _POINTING.search(act) and not _MODAL_WORDS.search(act)


def _told(condition: str, names: dict[str, str], rng: random.Random) -> str:
    """The condition with each party named ("卖方已婚…" → "卖方周某已婚…"); one role keeps one name in the
    whole question, so the stem's 权利人 is the options' 权利人."""
    for role in scenes.roles_in(condition):
        if role in scenes.ORGANISATIONS:
            continue
        if role not in names:
            names[role] = scenes.plain_name(rng, set(names.values()))
        condition = condition.replace(role, f"{role}{names[role]}", 1)
    return condition


def _plain(condition: str) -> str:
    """A condition as compared for being told twice: "记载的事项错误" and "记载事项错误" are one."""
    return O.key(condition).replace("的", "")


def _unnamed(text: str) -> str:
    """`text` without its party words, which say who and not what about."""
    for role in scenes.roles_in(text):
        text = text.replace(role, "、")
    return text


def _shared(a: str, b: str) -> int:
    """How many two-character words two texts share: distractors that share words with the asked act
    cannot be ruled out by wording alone."""
    words = {a[i : i + 2] for i in range(len(a) - 1)}
    return sum(b[i : i + 2] in words for i in range(len(b) - 1))


def _gives_away(act: str, right: list[str], wrong: list[str]) -> bool:
    """A right situation sharing a word with the act that no wrong one has ("抵押人转让抵押财产" for
    "通知抵押权人"): the learner matches the words instead of knowing the rule. Words every deal has
    (房屋, 合同, 买方) match nothing."""
    pairs = (act[i : i + 2] for i in range(len(act) - 1))
    words = {w for w in pairs if re.fullmatch(r"[\u4e00-\u9fff]{2}", w) and w not in _COMMON}
    return any(w in text and not any(w in other for other in wrong) for text in right for w in words)


class Trigger:
    name = "trigger"
    kinds: tuple[FactKind, ...] = ("modal",)
    qtypes: tuple[QuestionType, ...] = ("single", "multi")

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if brief.task.mode != "flexible" or brief.task.qtype not in self.qtypes:
            return None
        own = _case(fact)
        if own is None or not _asks(own):
            return None
        act = own.rule.consequence
        same, other = [own], []
        for peer in O.nearby(fact, brief, "modal"):
            case = _case(peer)
            # conditions worded alike ("买方违约不买", "卖方违约不卖") are the best traps; not one told twice
            told = {_plain(c.rule.condition) for c in same + other}
            if case is None or _plain(case.rule.condition) in told:
                continue
            same_act = O.key(case.rule.consequence) == O.key(act)
            if same_act and case.rule.subject == own.rule.subject and case.rule.modal == own.rule.modal:
                same.append(case)  # the same act asked in another situation: right as well
                continue
            if same_act or alike(case.rule.consequence, act) or O.key(act) in O.key(peer.source):
                continue  # a rule asking much the same act may make its situation right too
            if _shared(_unnamed(act), _unnamed(case.rule.condition)):
                continue  # a situation about what the act concerns ("违约金…", "承担违约责任") may call it
            other.append(case)
        rng = brief.rng
        rng.shuffle(other)
        other.sort(key=lambda case: -_shared(own.rule.condition, case.rule.condition))
        other = other[:_CLOSEST]
        if brief.task.qtype == "multi":
            mixed = multi_answers(same, other, rng)
            if mixed is None:
                return None
        else:
            if len(other) < 3 or len(same) > 1:
                return None
            mixed = [(own, True), *((case, False) for case in rng.sample(other, 3))]
        right = [case.rule.condition for case, correct in mixed if correct]
        if _gives_away(act, right, [case.rule.condition for case, correct in mixed if not correct]):
            return None
        names: dict[str, str] = {}
        actor = _told(own.rule.subject, names, rng) if own.rule.subject else ""
        choices = []
        for case, right in mixed:
            text = _told(case.rule.condition, names, rng)
            if len(text) > O.OPTION_MAX:
                return None
            why = f"按照规定，{case.rule.sentence()}"
            if right:
                choices.append(O.Option(text, True, f"属于这种情形，{why}"))
            else:
                choices.append(O.Option(text, False, f"{why}，教材未规定这种情形{own.rule.written}{act}"))
        # a date decides nothing here: it only stands in for a case when no party of the rule is named
        when = "" if actor else f"{O.case_date(rng, fact.source)}，"
        stem = f"{when}下列情形中，（　）的，{actor}{own.rule.written}{act}。"
        return O.choice(
            [case.fact.id for case, _ in mixed],
            brief.task.qtype,
            stem,
            O.arrange(choices, rng),
            [case.fact.source for case, _ in mixed],
            difficulty=0.55,
        )


RECIPE = Trigger()
