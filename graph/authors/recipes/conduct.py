"""A list of acts a party must not do ("经纪机构和经纪人员发布房源信息时不得有的行为") → 灵活 question
on what one broker did: "经纪人员周某近期办理业务时有下列做法，其中不符合规定的是（　）". The options are
acts, some forbidden by the list and the others what the textbook asks the same party to do, so each must
be weighed against the rules; the stem states no rule, and no option is a forbidden act turned round.

- single: one forbidden act among three required ones ("不符合规定的是"), or one required act among three
  forbidden ones ("符合规定的是");
- multi: two or three forbidden acts among required ones ("不符合规定的有");
- judge: the broker did one act, and a colleague says it complies; right exactly when the act is a
  required one.

Forbidden acts are a list's items or a rule "经纪人员不得…" with no condition; a list's items are offered
beside it only from the same knowledge point, where the critic reads them under their head. Required acts
come from the textbook's own duties of the same party: a list whose head binds it with 应当
("经纪人员执业时应当遵守的要求") or a rule "经纪人员应当…" with no condition. An act with a rule word, a
condition or a pointer of its own is never an option, since it would not read as one thing done.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from graph.authors import scenes
from graph.authors.recipes import options as O
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.scenario import has_modal, rule_of
from graph.authors.recipes.statements import alike
from retrieval.facts import Fact, FactKind
from vocabulary.kinds import QuestionType

_FORBIDDEN = re.compile(r"(?:(?:不得|禁止)(?:有|从事|实施)?|违反[^，。的]{0,8})的(?:行为|做法)$")
_REQUIRED = re.compile(r"应当(?:遵守|做到|履行|做)?的(?:要求|义务|职责|事项|行为|做法)$")
# A pointer, or a quantifier only a prohibition has ("不得以任何理由…"): no act done reads so.
_POINTER = re.compile(r"此|上述|下列|以下|前述|这些|其他|其它|该|之一|任何|等$")
# How a question introduces what one broker did; varied so a round does not repeat one frame.
_FRAMES = (
    "经纪人员{name}近期办理业务时有下列做法，其中{verdict}的{ending}（　）。",
    "经纪人员{name}在执业中的下列做法，{verdict}的{ending}（　）。",
    "下列经纪人员{name}的做法中，{verdict}的{ending}（　）。",
)
_ACT_MIN = 6
_ACT_MAX = 30
_BROKER = ("房地产经纪人员", "经纪人员", "经纪人", "房地产经纪机构", "经纪机构")
# A broker at a stage of the work ("带看中经纪人员", "签约前经纪人员"): the stage goes with the act.
_STAGE = re.compile(r"^([\u4e00-\u9fff]{1,3}(?:中|前|时|后))(?:房地产)?经纪人员$")
_PEOPLE = (
    "房地产经纪人员",
    "经纪人员",
    "经纪人",
    "房地产经纪机构和经纪人员",
    "房地产经纪机构和房地产经纪人员",
)


def _party(subject: str) -> str | None:
    """Whom the list binds, as a broker (a person or a brokerage): the lists a case of a broker's work can
    tell. A list of breaches of practice ("违反执业规范的行为") names no one: practice is a broker's."""
    roles = scenes.roles_in(subject)
    if not roles and "执业" in subject:
        return "经纪人员"
    return "经纪人员" if roles and all(role in _BROKER for role in roles) else None


def _act(text: str) -> str | None:
    """A list item as one act a broker did: opens with a verb, holds no rule word, condition or pointer."""
    act = O.clean_item(text)
    if not _ACT_MIN <= len(act) <= _ACT_MAX or has_modal(act) or _POINTER.search(act):
        return None
    if act.count("，") > 1 or re.search(r"的，|时，|后，", act) or O.act_of(act) != act:
        return None
    return act


@dataclass(frozen=True)
class Act:
    text: str
    forbidden: bool
    fact: Fact
    rule: str  # the list or rule it comes from, as the explanation names it
    stage: str = ""  # the stage of the work the act opens with ("带看中"), when the rule binds one
    situation: str = ""  # the condition the rule forbids it in ("业主没有书面授权并交付钥匙"): judge only


def _forbidden(fact: Fact) -> list[Act]:
    """Acts the textbook forbids a broker: the items of a list headed by 不得, or a rule "经纪人员不得…"
    without a condition."""
    if fact.kind == "enumeration" and _FORBIDDEN.search(fact.subject) and _party(fact.subject):
        acts = (_act(item) for item in fact.items)
        return [Act(act, True, fact, fact.subject) for act in O.distinct(a for a in acts if a)]
    return _ruled(fact, "不得")


def _required(fact: Fact) -> list[Act]:
    """A duty of a broker the textbook states: an item of a list headed by 应当, or a rule "经纪人员应当…"
    without a condition."""
    if fact.kind == "enumeration" and _REQUIRED.search(fact.subject) and _party(fact.subject):
        acts = (_act(item) for item in fact.items)
        return [Act(act, False, fact, fact.subject) for act in O.distinct(a for a in acts if a)]
    return _ruled(fact, "应当")


def _ruled(fact: Fact, modal: str) -> list[Act]:
    """The act of a rule binding a broker with `modal` and no condition, stated whole."""
    if fact.kind != "modal" or fact.modal != modal:
        return []
    rule = rule_of(fact)
    if rule is None:
        return []
    situation = rule.condition if rule.lead.endswith("的，") else ""
    if rule.lead and (modal != "不得" or not situation or _POINTER.search(situation) or len(situation) > 20):
        return []  # only a prohibition's own situation is told, and only in a judge
    stage = _STAGE.match(rule.subject)
    if stage is None and rule.subject not in _PEOPLE:
        return []
    rest = fact.source.split(rule.consequence, 1)[1][:1]
    if rest not in ("。", "；", ""):
        return []  # the act goes on past the compiled consequence ("提示买卖双方，…")
    when = stage[1] if stage else ""
    act = _act(when + rule.consequence)
    return [Act(act, modal == "不得", fact, rule.sentence(), when, situation)] if act else []


def _gathered(brief: Brief, fact: Fact, acts: Callable[[Fact], list[Act]], *, anywhere: bool) -> list[Act]:
    """The acts `acts` finds in the other facts of the chapter (and then the whole textbook, `anywhere`),
    the chapter's first, each once."""
    chapter = brief.facts.of_chapter(brief.task.slice.chapter)
    found: list[Act] = []
    for other in dict.fromkeys([*chapter, *(brief.facts if anywhere else ())]):
        if other.id != fact.id:
            found += acts(other)
    seen: set[str] = set()
    return [a for a in found if not (O.key(a.text) in seen or seen.add(O.key(a.text)))]


def _why(act: Act) -> str:
    """The rule the act meets or breaks, named: the list it is an item of, or the rule itself."""
    verdict = "违反规定" if act.forbidden else "符合规定"
    if act.fact.kind == "enumeration":
        return f"“{act.text}”是教材所列{act.rule}之一，{verdict}"
    return f"按照规定，{act.rule}，这一做法{verdict}"


def _apart(acts: list[Act]) -> list[Act]:
    """The acts without any that restates an earlier one ("以个人名义收取费用" beside "以个人名义承接业务
    和收取费用"): two options of one rule give each other away."""
    kept: list[Act] = []
    for act in acts:
        if not any(alike(act.text, other.text) for other in kept):
            kept.append(act)
    return kept


class Conduct:
    name = "conduct"
    kinds: tuple[FactKind, ...] = ("enumeration", "modal")
    qtypes: tuple[QuestionType, ...] = ("single", "multi", "judge")

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if brief.task.mode != "flexible":
            return None
        own = _forbidden(fact)
        if brief.task.qtype != "judge":
            own = [a for a in own if not a.situation]  # an option cannot carry its situation
        if not own:
            return None
        good = [
            a
            for a in _gathered(brief, fact, _required, anywhere=True)
            if not any(alike(a.text, o.text) for o in own)
        ]
        # the chapter's other prohibitions: a list's items only from the fact's own knowledge point, where the
        # critic reads the list's head with them; a rule's act from anywhere in the chapter
        more = [
            a
            for a in _apart([*own, *_gathered(brief, fact, _forbidden, anywhere=False)])
            if not a.situation
            if a.text not in {o.text for o in own}
            and (a.fact.kind == "modal" or a.fact.slice_id == fact.slice_id)
        ]
        rng = brief.rng
        name = scenes.plain_name(rng)
        qtype = brief.task.qtype
        if qtype == "judge":
            return self._judge(own, good, name, rng)
        picked = self._picked(own, more, good, qtype, rng)
        if picked is None:
            return None
        asks_bad, acts = picked
        options = [O.Option(act.text, act.forbidden == asks_bad, _why(act)) for act in acts]
        verdict = "不符合规定" if asks_bad else "符合规定"
        ending = "有" if qtype == "multi" else "是"
        frame = rng.choice(_FRAMES)
        stem = frame.format(name=name, verdict=verdict, ending=ending)
        facts = list(dict.fromkeys(act.fact for act in acts))
        return O.choice(
            [f.id for f in facts],
            qtype,
            stem,
            O.arrange(options, rng),
            [f.source for f in facts],
            difficulty=0.45,
        )

    def _picked(
        self, own: list[Act], more: list[Act], good: list[Act], qtype: QuestionType, rng: random.Random
    ) -> tuple[bool, list[Act]] | None:
        """Whether the question asks for the forbidden acts, and its options: always one of this fact's
        forbidden acts, the rest from the chapter's other prohibitions and the broker's duties."""
        first = rng.choice(own)
        bad = [a for a in own if a is not first] + more
        if qtype == "multi":
            keyed = min(len(bad) + 1, rng.choice((2, 3)))
            if keyed < 2 or len(good) < 5 - keyed:
                return None
            return True, [first, *rng.sample(bad, keyed - 1), *rng.sample(good, 5 - keyed)]
        if len(good) >= 3 and (len(bad) < 2 or rng.random() < 0.6):
            return True, [first, *rng.sample(good, 3)]
        if len(bad) < 2 or not good:
            return None
        return False, [rng.choice(good), first, *rng.sample(bad, 2)]

    def _judge(self, own: list[Act], good: list[Act], name: str, rng: random.Random) -> Written | None:
        """The broker did one act, and the statement says it complies: right exactly when the act is a
        duty the textbook gives."""
        truth = bool(good) and rng.random() < 0.5
        act = rng.choice(good if truth else own)
        opening = act.situation or act.stage
        done = (
            f"{opening}，经纪人员{name}{act.text.removeprefix(act.stage)}"
            if opening
            else f"经纪人员{name}{act.text}"
        )
        stem = f"{done}，这一做法符合规定。（　）"
        analysis = f"{_why(act)}。"
        return O.judge([act.fact.id], stem, truth, analysis, [act.fact.source], difficulty=0.4)


RECIPE = Conduct()
