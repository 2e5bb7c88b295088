"""A rule that asks both for years owned and for the family's only home ("个人转让自用达5年以上、并且是家庭
唯一生活用房取得的所得，免征个人所得税") → 灵活 cases told with the deed's date, a sale date and the
family's other homes, as the papers set 满五唯一: the learner works out the years held and checks both
conditions.

The traps are the two ways to miss it: a sale a month or two short of the anniversary of an only home, and
a home held well past the bound while the family owns another. The case never names the rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graph.authors import scenes
from graph.authors.recipes import options as O
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.holding import Held, Sale, _day, _held, acquired, counting_lead, frames, sale_year
from graph.authors.recipes.threshold import bounds, consequence
from retrieval.facts import Fact, FactKind
from vocabulary.kinds import QuestionType

_OWNED = re.compile(r"(自用|持有|购买|购置|购入)达?$")
_SELL = re.compile(r"转让|出售|销售")
_ONLY = "唯一"
_TANGLED = re.compile(r"但|或者|除外|不适用|\d{4}年")
_INCOME = "取得的所得"


@dataclass(frozen=True)
class Rule:
    """The rule told as a sale: its verb, the bound in years, and how the consequence is said of a case."""

    sell: str
    years: int
    exact: bool  # "5年以上" takes the anniversary in: a sale days after it meets the bound
    income: bool  # the consequence is of the sale's proceeds (取得的所得), not of the sale


def rule_of(fact: Fact) -> Rule | None:
    """The condition read as "sell – owned – bound – only home"; None when it bounds anything else."""
    condition = fact.condition.strip().rstrip("，,。；;").removesuffix("的")
    if _ONLY not in condition or _TANGLED.search(condition) or not consequence(fact) or fact.unit != "年":
        return None
    if "，" in fact.subject or not fact.value or fact.value != int(fact.value):
        return None
    found = bounds(condition)
    if len(found) != 1 or found[0].low != fact.value or found[0].unit != "年":
        return None
    bound = found[0]
    before, after = condition[: bound.start], condition[bound.end :]
    sell = _SELL.search(before)
    if sell is None or not _OWNED.search(before) or _ONLY not in after:
        return None
    span = condition[bound.start : bound.end]
    return Rule(sell.group(), int(fact.value), not span.startswith(("超过", "高于")), _INCOME in after)


def _status(only: bool, pronoun: str) -> str:
    return f"该住房是{pronoun}家庭唯一的生活用房" if only else f"{pronoun}家庭名下另有一套住房"


class OnlyHome:
    """Cases of a rule with a holding bound and an only-home condition; the critic reads them with
    graph/grounding/ownership.py."""

    name = "only_home"
    kinds: tuple[FactKind, ...] = ("threshold",)
    qtypes: tuple[QuestionType, ...] = ("single", "multi", "judge")

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if brief.task.mode != "flexible":
            return None
        rule = rule_of(fact)
        if rule is None:
            return None
        sale = Sale("住房", rule.sell, rule.years * 12, True, rule.exact, 0, f"{rule.years}年")
        if brief.task.qtype == "judge":
            return self._judge(fact, rule, sale, brief)
        return self._choice(fact, rule, sale, brief)

    def _reasoning(self, fact: Fact, rule: Rule, held: Held, only: bool) -> str:
        reached = held.meets
        years = f"持有{held.period()}，{'已满' if reached else '不满'}{rule.years}年"
        if only:
            home = "且是家庭唯一生活用房" if reached else "虽是家庭唯一生活用房"
        else:
            home = "但家庭另有其他住房，不是唯一生活用房" if reached else "且家庭另有其他住房"
        verdict = fact.subject if reached and only else f"不能{fact.subject}"
        since = f"自{_day(held.bought)}完税并取得不动产权证书至{_day(held.sold)}{rule.sell}"
        return f"{since}，{years}，{home}，{verdict}"

    def _judge(self, fact: Fact, rule: Rule, sale: Sale, brief: Brief) -> Written | None:
        rng = brief.rng
        met = "exact" if rule.exact else "over"
        kind, only = rng.choice([(met, True), ("over", True), ("short", True), ("short", True), (met, False)])
        held = _held(sale, kind, rng, sale_year(sale, rng))
        person = scenes.person(rng)
        pronoun = "她" if person.endswith("女士") else "他"
        said = f"{rule.sell}该住房{_INCOME}" if rule.income else f"{rule.sell}该住房时"
        stem = (
            f"{_day(held.bought)}，{person}{acquired('住房')}；{_day(held.sold)}，{pronoun}{rule.sell}这套住房，"
            f"{_status(only, pronoun)}。{person}{said}{fact.subject}。（　）"
        )
        lead, sources = counting_lead(fact, brief)
        analysis = f"{lead}{person}{self._reasoning(fact, rule, held, only)}。"
        truth = held.meets and only
        return O.judge([fact.id], stem, truth, analysis, sources, difficulty=0.55)

    def _choice(self, fact: Fact, rule: Rule, sale: Sale, brief: Brief) -> Written | None:
        """A single has one exempt seller among four, a multiple two among five; either keeps both traps:
        an only home sold short of the bound, and a home held long enough while the family owns another."""
        rng = brief.rng
        met = "exact" if rule.exact else "over"
        misses = [("short", True), ("over", False), rng.choice([("under", True), (met, False)])]
        if brief.task.qtype == "multi":
            picked = [(met, True), ("over", True), *misses]  # five options, two of them right
        else:
            picked = [(met, True), *misses]
        year = sale_year(sale, rng)
        taken: set[str] = set()
        choices = []
        for kind, only in picked:
            held = _held(sale, kind, rng, year)
            person = scenes.plain_name(rng, taken)
            taken.add(person)
            status = "该住房是其家庭唯一的生活用房" if only else "其家庭名下另有一套住房"
            text = f"{person}于{_day(held.bought)}{acquired('住房')}，{_day(held.sold)}{rule.sell}，{status}"
            right = held.meets and only
            if right != (only and kind in ("exact", "over")):
                return None  # the dates fell on the other side of the bound
            choices.append(O.Option(text, right, f"：{person}{self._reasoning(fact, rule, held, only)}"))
        asked = f"{rule.sell}住房{_INCOME}" if rule.income else f"{rule.sell}住房时"
        stem = rng.choice(frames(f"{asked}{fact.subject}")).format(
            year=year, home="住房", sell=rule.sell, asked=f"{asked}{fact.subject}"
        )
        rule_told, sources = counting_lead(fact, brief)
        return O.choice(
            [fact.id],
            brief.task.qtype,
            stem,
            O.arrange(choices, rng),
            sources,
            lead=rule_told,
            difficulty=0.6,
        )


RECIPE = OnlyHome()
