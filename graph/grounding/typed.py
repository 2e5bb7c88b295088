"""Checks that need the compiled facts' structure, not just their sentences: whether an option is an item of
the enumeration the stem asks about or of a sibling one, and which class a definition puts a term in.
(Thresholds and modals are compared on their source sentences, where a number's or a modal's surroundings
tell which figure or act it is about.)

Each returns a decisive result or None; None leaves the statement to the sentence comparison.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from graph.grounding.compare import OPTION_SUPPORT, SUPPORT, Verdict, said_in
from graph.grounding.figures import number_check
from graph.grounding.lists import conjunct_of
from graph.grounding.markers import polarity_clash
from graph.grounding.statements import Statement
from graph.grounding.text import GLUE, bare, content_runs, coverage, grams, normalise, numbers
from retrieval.facts import Fact

# How fully the stem must name an enumeration's head or a definition's term; how fully in its own words,
# and by how much more than any other head.
NAMED = 0.9
LOOSELY = 0.55
MARGIN = 0.15


@dataclass(frozen=True)
class FactCheck:
    verdict: Verdict
    reason: str
    fact: Fact


@lru_cache(maxsize=1 << 16)
def _same_item(option: str, item: str) -> bool:
    """The same item, perhaps with a head noun added or dropped at the end ("依法收回土地使用权的" and
    "依法收回土地使用权的房地产"); "祖父母" is not "外祖父母"."""
    a, b = _words(bare(option)), _words(bare(item))
    short, long = sorted((a, b), key=len)
    return bool(short) and (
        a == b or (len(short) >= 4 and long.startswith(short) and len(long) - len(short) <= 3)
    )


def _words(text: str) -> str:
    return "".join(ch for ch in text if ch not in GLUE)


def _named(subject: str, text: str) -> float:
    return coverage(subject, grams(text)) if subject else 0.0


@lru_cache(maxsize=1 << 16)
def _part_of(option: str, item: str) -> bool:
    """The option names the item or part of it, in its words and order, with the same figures and no
    negation of its own ("房屋的实际户型" of "房屋的实际户型、朝向和楼层")."""
    if _same_item(option, item) or conjunct_of(option, item):
        return True
    said, written = normalise(option), normalise(item)
    conflict, attested = number_check(said, written)
    return (
        len(_words(bare(option))) >= 2
        and coverage(option, grams(item)) >= OPTION_SUPPORT
        and said_in(option, item) >= SUPPORT
        and not conflict
        and attested
        and polarity_clash(said, written) is None
    )


def _holds(fact: Fact, option: str, stated: str = "") -> bool:
    """The enumeration lists the option; with the figures `stated` beside it when there are any
    ("最高年限为40年的是〔旅游用地〕" takes the item "商业、旅游、娱乐用地40年", not "居住用地70年")."""
    return any(_part_of(option, item) and _figures_agree(stated, item) for item in fact.items)


def _figures_agree(stated: str, item: str) -> bool:
    if not stated or not numbers(normalise(stated)):
        return True
    conflict, attested = number_check(normalise(stated), normalise(item))
    return not conflict and attested


def membership(statement: Statement, facts: Sequence[Fact]) -> FactCheck | None:
    """ "下列属于X的有" with enumerations X and its siblings: an item of X is supported, an item of a sibling
    enumeration is contradicted. The stem may name X in its own words ("实地查看房屋时应当核实或记录的内容"
    for "实勘时需要核实或记录的内容") when no other enumeration is named nearly as well."""
    if statement.kind != "fill" or not content_runs(statement.option):
        return None  # a figure is a threshold, compared on its sentence
    enumerations = [f for f in facts if f.kind == "enumeration" and f.items and f.subject]
    stem = (statement.context + statement.text).replace(statement.option, "")
    holding = [f for f in enumerations if _holds(f, statement.option, statement.text)]
    if statement.single:  # every option an item of one list: the stem asks which, not whether
        holding = [f for f in holding if not all(_holds(f, other) for other in statement.others)]
    if not holding:
        return None
    named = [f for f in enumerations if _named(f.subject, stem) >= NAMED]
    if not named:
        return _loosely_named(statement, stem, enumerations, holding)
    # The most specific head the stem names ("套内建筑面积" over "建筑面积"); two unrelated ones: unsure.
    asked = max(named, key=lambda f: len(bare(f.subject)))
    if any(bare(f.subject) not in bare(asked.subject) for f in named):
        return None
    if asked in holding:
        return FactCheck("supported", f"属于教材所列“{asked.subject}”", asked)
    other = next((f for f in holding if any(_same_item(statement.option, item) for item in f.items)), None)
    if other is None:
        return None
    return FactCheck(
        "contradicted", f"“{statement.option}”是教材“{other.subject}”中的一项，不属于“{asked.subject}”", other
    )


def _loosely_named(
    statement: Statement, stem: str, enumerations: list[Fact], holding: list[Fact]
) -> FactCheck | None:
    """Support from the enumeration the stem names best, by a margin over every other head."""
    ranked = sorted(enumerations, key=lambda f: _named(f.subject, stem), reverse=True)
    best = ranked[0]
    named = _named(best.subject, stem)
    rivals = [f for f in ranked[1:] if bare(f.subject) != bare(best.subject)]
    if (
        named < LOOSELY
        or best not in holding
        or (rivals and _named(rivals[0].subject, stem) > named - MARGIN)
    ):
        return None
    return FactCheck("supported", f"属于教材所列“{best.subject}”", best)


def category(statement: Statement, facts: Sequence[Fact]) -> FactCheck | None:
    """ "X属于（　）" answered with a class: the class the textbook's definition puts X in is supported,
    the class another definition names for other terms is contradicted."""
    if statement.kind != "fill":
        return None
    stem = (statement.context + statement.text).replace(statement.option, "")
    definitions = [f for f in facts if f.kind == "definition" and f.category and f.subject]
    for fact in definitions:
        if _named(fact.subject, stem) < NAMED:
            continue
        if _same_item(statement.option, fact.category):
            return FactCheck("supported", f"教材将“{fact.subject}”归为“{fact.category}”", fact)
        other = next((f for f in definitions if _same_item(statement.option, f.category)), None)
        if other is not None and not any(
            _same_item(f.subject, fact.subject) and _same_item(f.category, other.category)
            for f in definitions
        ):
            return FactCheck(
                "contradicted", f"教材将“{fact.subject}”归为“{fact.category}”，而非“{other.category}”", fact
            )
    return None
