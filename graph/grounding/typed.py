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

from graph.grounding.compare import Verdict
from graph.grounding.statements import Statement
from graph.grounding.text import GLUE, bare, coverage, grams
from retrieval.facts import Fact

# How fully the stem must name an enumeration's head or a definition's term.
NAMED = 0.9


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


def membership(statement: Statement, facts: Sequence[Fact]) -> FactCheck | None:
    """ "下列属于X的有" with enumerations X and its siblings: an item of X is supported, an item of a sibling
    enumeration is contradicted."""
    if statement.kind != "fill":
        return None
    enumerations = [f for f in facts if f.kind == "enumeration" and f.items and f.subject]
    holding = [f for f in enumerations if any(_same_item(statement.option, item) for item in f.items)]
    if not holding:
        return None
    stem = (statement.context + statement.text).replace(statement.option, "")
    named = [f for f in enumerations if _named(f.subject, stem) >= NAMED]
    if not named:
        return None
    # The most specific head the stem names ("套内建筑面积" over "建筑面积"); two unrelated ones: unsure.
    asked = max(named, key=lambda f: len(bare(f.subject)))
    if any(bare(f.subject) not in bare(asked.subject) for f in named):
        return None
    if asked in holding:
        return FactCheck("supported", f"属于教材所列“{asked.subject}”", asked)
    other = holding[0]
    return FactCheck(
        "contradicted", f"“{statement.option}”是教材“{other.subject}”中的一项，不属于“{asked.subject}”", other
    )


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


CHECKS = (membership, category)
