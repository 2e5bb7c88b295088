"""A rule with a condition ("卖方已婚而房屋登记在其一人名下的，经纪人员应当核实…") → 灵活 case: a story in
which named parties meet the condition, and a question about what the rule makes of THIS case. No date:
when it happened decides nothing.

- judge: someone in the case concludes what must be done — the rule's own act, or what another rule of the
  section asks of the same party in another situation — so the case's detail decides, never a turned
  modal word; the explanation names the detail that meets the rule's condition.
- single, "what must be done": "卖方徐某已婚，房屋登记在其一人名下。按照规定，经纪人员余某应当（　）"; the
  distractors are what the chapter's other rules ask of the same party in other situations, so only the
  case's detail tells them apart.
- never "who must do it": the condition told with a name is the rule itself, so naming the party it binds
  maps no fact to the rule; such a single is declined.

Only a 的-clause is told as a case ("…的，"): a clause ending in 时 or 后 is a stage of someone's work, not a
situation. The condition must name a person, so the story says who; a condition holding a rule of its own
or a pointer back into its sentence is declined.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from graph.authors import scenes
from graph.authors.recipes import options as O
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.scenario import Rule, has_modal, named, rule_of
from graph.authors.recipes.statements import alike
from retrieval.facts import Fact, FactKind
from vocabulary.kinds import QuestionType

_POINTING = re.compile(r"此|上述|下列|以下|前述|这些|这种|其他|该|其$|之一")
_CONDITION_MAX = 40
_ACT_MIN = 4
_DUTIES = ("应当", "必须")
_BROKERS = ("房地产经纪人员", "经纪人员", "经纪人")


@dataclass(frozen=True)
class Case:
    """A rule told of named people: the story, who the rule binds and what it asks (each party introduced
    by role the first time it appears, by name after), and everyone in it."""

    rule: Rule
    fact: Fact
    story: str
    bearer: str
    act: str
    parties: dict[str, scenes.Party]


def case_rule(fact: Fact) -> Rule | None:
    """The fact's rule when its condition reads as a situation of named people."""
    rule = rule_of(fact)
    if rule is None or not rule.lead.endswith("的，") or len(rule.consequence) < _ACT_MIN:
        return None
    condition = rule.condition
    if not 4 <= len(condition) <= _CONDITION_MAX or has_modal(condition) or _POINTING.search(condition):
        return None
    if _POINTING.search(rule.consequence) or "，" in rule.subject:
        return None
    people = [r for r in scenes.roles_in(condition) if r not in scenes.ORGANISATIONS]
    if not people or (rule.subject and scenes.roles_in(rule.subject) != [rule.subject]):
        return None  # the case must say who; a rule binding a thing ("合同") has no one to ask about
    if not condition.split("，")[-1].startswith(people[0]) or re.search(r"或|、", condition):
        return None  # the person must be who the clause is about, and the case must say which thing happened
    return rule


def tell(fact: Fact, rng: random.Random) -> Case | None:
    rule = case_rule(fact)
    if rule is None:
        return None
    roles = scenes.roles_in(f"{rule.condition}，{rule.subject}{rule.consequence}")
    parties = scenes.cast(roles, rng)
    introduced: set[str] = set()
    story = named(rule.condition, parties, introduced)
    bearer = named(rule.subject, parties, introduced) if rule.subject else parties[roles[0]].name
    return Case(rule, fact, story, bearer, named(rule.consequence, parties, introduced), parties)


def _basis(case: Case) -> str:
    return f"题干中{case.story}，正属于“{case.rule.condition}”的情形。按照规定，{case.rule.sentence()}。"


def _touches(act: str, condition: str) -> bool:
    """Whether the act shares a two-character word with the condition."""
    return any(act[i : i + 2] in condition for i in range(len(act) - 1))


def _speaker(case: Case, rng: random.Random) -> str:
    """Who draws the conclusion: a client the story has when the rule binds the broker (else a colleague of
    his), or a broker."""
    bound = case.rule.subject or next(
        iter(case.parties)
    )  # a rule without a subject binds its condition's party
    if bound in _BROKERS:
        for role, party in case.parties.items():
            if role not in (*_BROKERS, *scenes.ORGANISATIONS) and party.name in case.story:
                return party.name
    taken = {party.name for party in case.parties.values()}
    colleague = "其同事" if bound in _BROKERS else "经纪人员"
    return f"{colleague}{scenes.plain_name(rng, taken)}"


class Duty:
    name = "duty"
    kinds: tuple[FactKind, ...] = ("modal",)
    qtypes: tuple[QuestionType, ...] = ("single", "judge")

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if brief.task.mode != "flexible" or brief.task.qtype not in self.qtypes:
            return None
        case = tell(fact, brief.rng)
        if case is None:
            return None
        if brief.task.qtype == "judge":
            return self._judge(case, brief)
        # only "what must be done": there the case's situation decides; who bears a duty is the rule's
        # own words with a name attached, not a case (the request goes to another recipe)
        return self._what(case, brief)

    def _others(self, case: Case, brief: Brief) -> list[tuple[str, Rule, Fact]]:
        """What the section's other rules ask of the same party in other situations, worded for this
        case's people: the acts only the case's detail tells apart from its own."""
        rule = case.rule
        found: list[tuple[str, Rule, Fact]] = []
        for peer in O.nearby(case.fact, brief, "modal"):
            other = case_rule(peer)
            if other is None or other.modal not in _DUTIES or other.subject != rule.subject:
                continue
            theirs = named(other.consequence, case.parties, set(case.parties))
            if scenes.roles_in(theirs) or len(theirs) > O.OPTION_MAX:
                continue  # a party this case does not have
            if alike(theirs, case.act) or alike(other.condition, rule.condition):
                continue
            if any(O.key(theirs) == O.key(text) for text, _, _ in found):
                continue
            found.append((theirs, other, peer))
        return found

    def _judge(self, case: Case, brief: Brief) -> Written | None:
        """Someone concludes what the case's detail requires: the rule's own act, or what another rule
        asks of the same party in another situation. Both read as a broker's plausible advice, so only the
        situation the case tells decides; a rule with no such neighbour is declined rather than asked by
        turning its modal word."""
        rule = case.rule
        if rule.modal not in _DUTIES or not rule.subject:
            return None  # with no one named, whom another rule's duty binds is anyone's guess
        # a duty touching the case's own matter ("贷款" in a case of a loan refused) may well hold here too
        others = [o for o in self._others(case, brief) if not _touches(o[0], rule.condition)]
        if not others:
            return None  # no false variant to pair with: a rule asked only ever true gives itself away
        rng = brief.rng
        truth = rng.random() < 0.5
        said, other, peer = (case.act, rule, case.fact) if truth else rng.choice(others)
        speaker = _speaker(case, rng)
        who = speaker.removeprefix("其同事")
        stem = f"{case.story}。{speaker}据此认为，{case.bearer}{rule.written}{said}。（　）"
        if truth:
            verdict = f"{who}的说法正确。"
        else:
            verdict = (
                f"“{said}”是“{other.condition}”时的要求，本案并非这种情形；本案{case.bearer}{rule.written}"
                f"{case.act}，{who}的说法错误。"
            )
        sources = [case.fact.source] if truth else [case.fact.source, peer.source]
        return O.judge([case.fact.id], stem, truth, _basis(case) + verdict, sources, difficulty=0.5)

    def _what(self, case: Case, brief: Brief) -> Written | None:
        """What the bound party must do here, among what other rules ask of it in other situations."""
        rule = case.rule
        if rule.modal not in _DUTIES or not rule.subject or len(case.act) > O.OPTION_MAX:
            return None
        wrong = self._others(case, brief)
        if len(wrong) < 3:
            return None
        rng = brief.rng
        picked = rng.sample(wrong, 3)
        choices = [O.Option(case.act, True, f"本案{case.story}，{case.bearer}{rule.written}{case.act}")]
        for text, other, _ in picked:
            choices.append(O.Option(text, False, f"“{text}”是“{other.condition}”时的要求，本案并非这种情形"))
        stem = f"{case.story}。按照规定，{case.bearer}{rule.written}（　）。"
        sources = [case.fact.source, *(peer.source for _, _, peer in picked)]
        return O.choice([case.fact.id], "single", stem, O.arrange(choices, rng), sources, lead=_basis(case))


RECIPE = Duty()
