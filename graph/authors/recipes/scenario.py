"""Modal rule → 严谨 judge: the textbook's rule as one sentence, true or with its modal turned into the
opposite (应当 → 无需, 不得 → 可以). A 灵活 rule is told as a case by `duty` and `situation`, which use
`named` and `rule_of` from here; this recipe is never asked for 灵活, since a rule with a name pasted before
it is a fixed frame that examiners strike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graph.authors import scenes
from graph.authors.falsify import modal_turn
from graph.authors.recipes import options as O
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.standalone import fragment, leans_on_before
from retrieval.facts import Fact, FactKind
from vocabulary.kinds import QuestionType

# The modals as textbooks write them, longest first, with the canonical modal each stands for.
_WRITTEN: tuple[tuple[str, str], ...] = (
    ("不需要", "无需"),
    ("不允许", "不得"),
    ("应当", "应当"),
    ("应该", "应当"),
    ("必须", "必须"),
    ("不得", "不得"),
    ("禁止", "不得"),
    ("不能", "不得"),
    ("可以", "可以"),
    ("无需", "无需"),
    ("无须", "无需"),
    ("不必", "无需"),
    ("应", "应当"),
    ("须", "必须"),
)
_ADVERBS = "还也更都均仍亦"
_NEGATIONS = ("不", "未", "无", "非", "没")
_AUTHORITY = re.compile(
    r"^(?:(?:按照|根据|依照|依据)?《[^》]*》[^，,]{0,12}?(?:规定|要求)?[，,：:]|[^，,。]{0,14}(?:规定|要求)[，,：:])"
)
_EXCEPTION = re.compile(r"^[，,]\s*(?:但|除外)|除外")
# "不得从事的行为", "应当遵循的行为准则": a modal inside a noun phrase states no rule.
_RELATIVE = re.compile(r"^[\u4e00-\u9fff]{1,4}的")
_CLAUSE_MAX = 80
_CONSEQUENCE_MAX = 40
_CONDITION_ENDS = ("时", "后", "前", "起", "中")
_CONNECTIVE = re.compile(r"^(?:因此|所以|因而|但是|但|而且|而|同时|此外|另外)[，,]?")
# "应当由委托人协助的事宜和提供的资料": with nothing before it, a consequence ending in a noun is an item.
_NOUN_PHRASE = re.compile(r"的[\u4e00-\u9fff]{1,6}$")
# A lead-in before a colon that limits the rule to a period or a place ("在2024年12月1日前，四市另有规定："):
# the rule read without it would claim what holds only there.
_SCOPED = re.compile(r"\d{4}年|另有|[前后]，|以前|以后|期间")


@dataclass(frozen=True)
class Rule:
    """A modal rule as the source words it: what comes before its subject (the condition or context, with
    its closing comma), who it binds, the modal as written and what it asks."""

    lead: str
    subject: str
    written: str
    modal: str
    consequence: str

    def sentence(self, modal_word: str | None = None) -> str:
        return f"{self.lead}{self.subject}{modal_word or self.written}{self.consequence}"

    @property
    def condition(self) -> str:
        """The lead when it is a condition ("…的，", "…时，"), without its closing 的; else empty."""
        lead = self.lead.removesuffix("，")
        if lead.endswith("的"):
            return lead.removesuffix("的")
        return lead if lead.endswith(_CONDITION_ENDS) else ""


def _modal_before(text: str) -> tuple[str, str] | None:
    return next(((w, m) for w, m in _WRITTEN if text.endswith(w)), None)


def has_modal(text: str) -> bool:
    return any(written in text for written, _ in _WRITTEN)


def rule_of(fact: Fact) -> Rule | None:
    """The rule as the source states it: the clause that ends with the fact's consequence. None when the
    source states it with an exception, as a noun phrase, or tangled with other rules."""
    consequence = fact.consequence.strip()
    at = fact.source.find(consequence)
    if fact.kind != "modal" or at < 0 or not 2 <= len(consequence) <= _CONSEQUENCE_MAX:
        return None
    rest = re.split(r"[。；]", fact.source[at + len(consequence) :])[0]
    if _RELATIVE.match(consequence) or has_modal(consequence) or _EXCEPTION.search(rest):
        return None
    before = fact.source[:at]
    found = _modal_before(before)
    if found is None or found[1] != fact.modal:
        return None
    written, modal = found
    start = max(before.rfind(mark) for mark in "。；！？：") + 1
    if before[start - 1 : start] == "：" and _SCOPED.search(re.split(r"[。！？]", before[: start - 1])[-1]):
        return None
    head = _AUTHORITY.sub("", before[start : len(before) - len(written)].strip())
    head = _CONNECTIVE.sub("", head)
    head = head[:-1] if head and head[-1] in _ADVERBS else head
    cut = head.rfind("，") + 1
    lead, subject = head[:cut], head[cut:]
    if has_modal(subject) or len(subject) > 16 or has_modal(lead.rpartition("的，")[2]):
        return None
    if not head and _NOUN_PHRASE.search(consequence):
        return None
    rule = Rule(lead, subject, written, modal, consequence)
    return rule if len(rule.sentence()) <= _CLAUSE_MAX else None


def contradiction(rule: Rule) -> str | None:
    """The opposite modal, unless the turn reads as nonsense (see `modal_turn`) or would stand before a
    negation ("无需不…")."""
    flipped = modal_turn(rule.modal, rule.consequence, rule.lead, rule.subject)
    if flipped is None or (flipped in ("无需", "不得") and rule.consequence.startswith(_NEGATIONS)):
        return None
    return flipped


@dataclass(frozen=True)
class Told:
    stem: str
    truth: bool
    analysis: str


def strict_judge(rule: Rule, truth: bool) -> Told | None:
    """The rule as written, or with the opposite modal."""
    stated = f"按照规定，{rule.sentence()}。"
    if truth:
        return Told(f"{rule.sentence()}。（　）", True, f"{stated}题干的说法与规定一致。")
    flipped = contradiction(rule)
    if flipped is None:
        return None
    claim = f"{rule.subject}{flipped}{rule.consequence}"
    return Told(f"{rule.sentence(flipped)}。（　）", False, f"{stated}题干却称{claim}，与规定相反。")


def named(text: str, parties: dict[str, scenes.Party], introduced: set[str]) -> str:
    """Every role word of `text` replaced by its party: introduced the first time, by name after."""

    def swap(match: re.Match[str]) -> str:
        party = parties[match.group()]
        if party.role in introduced:
            return party.name
        introduced.add(party.role)
        return party.intro

    pattern = "|".join(re.escape(role) for role in sorted(parties, key=len, reverse=True))
    return re.sub(pattern, swap, text) if pattern else text


def modal_judge(fact: Fact, *, truth: bool) -> Written | None:
    rule = rule_of(fact)
    whole = rule is not None and not fragment(rule.sentence()) and not leans_on_before(fact.source, rule)
    told = strict_judge(rule, truth) if rule is not None and whole else None
    if told is None:
        return None
    return O.judge([fact.id], told.stem, told.truth, told.analysis, [fact.source], difficulty=0.3)


class Scenario:
    name = "scenario"
    kinds: tuple[FactKind, ...] = ("modal",)
    qtypes: tuple[QuestionType, ...] = ("judge",)

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if brief.task.qtype != "judge":
            return None
        truth = brief.rng.random() < 0.5
        return modal_judge(fact, truth=truth) or modal_judge(fact, truth=not truth)
