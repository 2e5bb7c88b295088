"""A list of acts a party must not do ("经纪机构和经纪人员发布房源信息时不得有的行为") → 灵活 question
on what one broker did: "经纪人员周某近期办理业务时有下列做法，其中不符合规定的是（　）". The options are
acts, some forbidden by the list and the others what the textbook asks the same party to do, so each must
be weighed against the rules; the stem states no rule, and no option is a forbidden act turned round.

- single: one forbidden act among three required ones ("不符合规定的是"), or one required act among three
  forbidden ones ("符合规定的是");
- multi: two or three forbidden acts among required ones ("不符合规定的有");
- judge: the broker did one act, and a colleague says it complies; right exactly when the act is a
  required one.

Required acts come from the textbook's own duties of the same party: a list whose head binds it with 应当
("经纪人员执业时应当遵守的要求") or a rule "经纪人员应当…" with no condition. An act with a rule word, a
condition or a pointer of its own is never an option, since it would not read as one thing done.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from graph.authors import scenes
from graph.authors.recipes import options as O
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.scenario import has_modal, rule_of
from retrieval.facts import Fact, FactKind
from vocabulary.kinds import QuestionType

_FORBIDDEN = re.compile(r"(?:不得|禁止)(?:有|从事|实施)?的(?:行为|做法)$")
_REQUIRED = re.compile(r"应当(?:遵守|做到|履行|做)?的(?:要求|义务|职责|事项|行为|做法)$")
_POINTER = re.compile(r"此|上述|下列|以下|前述|这些|其他|其它|该|之一|等$")
_ACT_MIN = 6
_ACT_MAX = 30
_BROKER = ("房地产经纪人员", "经纪人员", "经纪人", "房地产经纪机构", "经纪机构")
_PEOPLE = ("房地产经纪人员", "经纪人员", "经纪人")


def _party(subject: str) -> str | None:
    """Whom the list binds, as a broker (a person or a brokerage): the lists a case of a broker's work can
    tell."""
    roles = scenes.roles_in(subject)
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


def _forbidden(fact: Fact) -> list[Act]:
    if fact.kind != "enumeration" or not _FORBIDDEN.search(fact.subject) or not _party(fact.subject):
        return []
    acts = (_act(item) for item in fact.items)
    return [Act(act, True, fact, fact.subject) for act in O.distinct(a for a in acts if a)]


def _required(fact: Fact) -> list[Act]:
    """A duty of a broker the textbook states: an item of a list headed by 应当, or a rule "经纪人员应当…"
    without a condition."""
    if fact.kind == "enumeration" and _REQUIRED.search(fact.subject) and _party(fact.subject):
        acts = (_act(item) for item in fact.items)
        return [Act(act, False, fact, fact.subject) for act in O.distinct(a for a in acts if a)]
    if fact.kind == "modal" and fact.modal == "应当":
        rule = rule_of(fact)
        if rule is None or rule.lead or rule.subject not in _PEOPLE:
            return []
        rest = fact.source.split(rule.consequence, 1)[1][:1]
        if rest not in ("。", "；", ""):
            return []  # the act goes on past the compiled consequence ("提示买卖双方，…")
        act = _act(rule.consequence)
        return [Act(act, False, fact, f"{rule.subject}{rule.written}{rule.consequence}")] if act else []
    return []


def _duties(brief: Brief, fact: Fact) -> list[Act]:
    """The broker's required acts, those of the fact's chapter first."""
    chapter = brief.facts.of_chapter(brief.task.slice.chapter)
    found: list[Act] = []
    for other in dict.fromkeys([*chapter, *brief.facts]):
        if other.id != fact.id:
            found += _required(other)
    seen: set[str] = set()
    return [a for a in found if not (O.key(a.text) in seen or seen.add(O.key(a.text)))]


def _why(act: Act) -> str:
    if act.forbidden:
        return f"“{act.text}”是教材所列{act.rule}之一，违反规定"
    if act.rule.endswith(act.text):
        return f"按照规定，{act.rule}，这一做法符合规定"
    return f"“{act.text}”是教材所列{act.rule}之一，符合规定"


class Conduct:
    name = "conduct"
    kinds: tuple[FactKind, ...] = ("enumeration",)
    qtypes: tuple[QuestionType, ...] = ("single", "multi", "judge")

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if brief.task.mode != "flexible":
            return None
        bad = _forbidden(fact)
        if not bad:
            return None
        good = _duties(brief, fact)
        rng = brief.rng
        name = scenes.plain_name(rng)
        qtype = brief.task.qtype
        if qtype == "judge":
            return self._judge(bad, good, name, rng)
        picked = self._picked(bad, good, qtype, rng)
        if picked is None:
            return None
        asks_bad = picked[0]
        options = [
            O.Option(act.text, act.forbidden == asks_bad, _why(act)) for act in picked[1] if act is not None
        ]
        verdict = "不符合规定" if asks_bad else "符合规定"
        ending = "有" if qtype == "multi" else "是"
        stem = f"经纪人员{name}近期办理业务时有下列做法，其中{verdict}的{ending}（　）。"
        facts = list(dict.fromkeys(act.fact for act in picked[1]))
        return O.choice(
            [f.id for f in facts],
            qtype,
            stem,
            O.arrange(options, rng),
            [f.source for f in facts],
            difficulty=0.45,
        )

    def _picked(
        self, bad: list[Act], good: list[Act], qtype: QuestionType, rng: random.Random
    ) -> tuple[bool, list[Act]] | None:
        """Whether the question asks for the forbidden acts, and its options."""
        if qtype == "multi":
            keyed = min(len(bad), rng.choice((2, 3)))
            if keyed < 2 or len(good) < 5 - keyed:
                return None
            return True, rng.sample(bad, keyed) + rng.sample(good, 5 - keyed)
        asks_bad = len(bad) < 3 or (len(good) >= 3 and rng.random() < 0.6)
        keyed, others = (bad, good) if asks_bad else (good, bad)
        if not keyed or len(others) < 3:
            return None
        return asks_bad, [rng.choice(keyed), *rng.sample(others, 3)]

    def _judge(self, bad: list[Act], good: list[Act], name: str, rng: random.Random) -> Written | None:
        """A colleague says the broker's act complies: right exactly when it is a required act."""
        truth = bool(good) and rng.random() < 0.5
        act = rng.choice(good if truth else bad)
        stem = f"经纪人员{name}{act.text}，这一做法符合规定。（　）"
        analysis = f"{_why(act)}。"
        return O.judge([act.fact.id], stem, truth, analysis, [act.fact.source], difficulty=0.4)


RECIPE = Conduct()
