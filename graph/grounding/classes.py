"""A case put in a class: "一套住宅占有上下两个完整楼层……这种套型属于复式住宅", "共有8层……该住宅属于（　）".
The field's papers describe a case by the traits the textbook defines a class by and ask for the class;
the textbook's definitions of the class and of its siblings decide it. The class whose definition the case
fits — its range holds the case's figure, or its distinguishing words are the case's — is supported; a
sibling class claimed instead is contradicted. Only a clear fit decides: a case two definitions fit about
as well is left to the sentence comparison.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graph.grounding.figures import inside
from graph.grounding.statements import Statement
from graph.grounding.text import bare, grams, normalise, numbers
from graph.grounding.typed import FactCheck
from retrieval.facts import Fact

# A definition that only names the division a class belongs to ("按层数分类划分的住宅") distinguishes nothing.
_GENUS = re.compile(r"划分|分类|之一|类型|^按")
# The words that put a case in a class, just before the class the statement names.
_PUTS = re.compile(r"(?:属于|称为|叫做|称作|是|为)$")
# A judge statement's closing claim: "这种套型属于复式住宅".
_CLAIM = re.compile(r"(?:属于|称为|叫做|称作|是)([^，,。；;]{2,10})$")
# How many characters a class's name may add to the defined term ("复式住宅" for "复式", "错层式" for "错层").
_HEAD_NOUN = 3
# How much of a class's distinguishing words the case must say, and by how much more than any sibling's.
_FITS = 0.4
_MARGIN = 0.25


def _same_class(name: str, term: str) -> bool:
    a, b = bare(name), bare(term)
    short, long = sorted((a, b), key=len)
    return len(short) >= 2 and long.startswith(short) and len(long) - len(short) <= _HEAD_NOUN


def _claimed(statement: Statement) -> tuple[str, str]:
    """(the class the statement puts its case in, the case's description), ("", "") when it puts none."""
    if statement.kind == "fill":
        at = statement.text.find(statement.option)
        if at < 0 or not statement.option or not _PUTS.search(statement.text[:at]):
            return "", ""
        return statement.option, statement.context + statement.text[:at]
    scene = "，".join((statement.context, *statement.asserted[:-1])).strip("，")
    if statement.kind != "judge" or not statement.asserted or not scene:
        return "", ""
    claim = _CLAIM.search(statement.asserted[-1])
    return (claim.group(1), scene) if claim else ("", "")


def _family(claimed: str, facts: Sequence[Fact]) -> set[str]:
    """The claimed class and its siblings, as a division of definitions or an enumeration lists them."""
    family: set[str] = set()
    for fact in facts:
        if fact.kind == "definition" and fact.siblings and _same_class(claimed, fact.subject):
            family |= {fact.subject, *fact.siblings}
        if fact.kind == "enumeration" and any(_same_class(claimed, item) for item in fact.items):
            family |= set(fact.items)
    return family


def _fitting_range(case: str, meanings: dict[str, list[Fact]]) -> str | None:
    """The one class whose defined range holds the case's figure ("8层" in "七层至九层的住宅")."""
    figures = [n for n in numbers(normalise(case)) if n.unit != "date"]
    ranged = {
        name: [n for fact in defined for n in numbers(normalise(fact.category)) if n.bound]
        for name, defined in meanings.items()
    }
    for figure in figures:
        bounds = {name: [b for b in found if b.unit == figure.unit] for name, found in ranged.items()}
        if sum(bool(b) for b in bounds.values()) < 2:
            continue
        holding = [
            name for name, found in bounds.items() if found and all(inside(figure.value, b) for b in found)
        ]
        return holding[0] if len(holding) == 1 else None
    return None


def _fitting_words(case: str, meanings: dict[str, list[Fact]]) -> str | None:
    """The class whose distinguishing words — those no sibling's definition uses — the case says, clearly
    more than it says any sibling's."""
    words = {
        name: frozenset().union(*(grams(f.category) for f in defined)) for name, defined in meanings.items()
    }
    said = grams(case)
    scores = {}
    for name, own in words.items():
        distinct = own - frozenset().union(*(w for other, w in words.items() if other != name))
        scores[name] = len(distinct & said) / len(distinct) if distinct else 0.0
    ranked = sorted(scores, key=scores.__getitem__, reverse=True)
    best, second = ranked[0], ranked[1]
    return best if scores[best] >= _FITS and scores[second] <= scores[best] - _MARGIN else None


def classification(statement: Statement, facts: Sequence[Fact]) -> FactCheck | None:
    """The class the textbook's definitions put the statement's case in, against the class it claims."""
    claimed, case = _claimed(statement)
    if not claimed or not case:
        return None
    family = _family(claimed, facts)
    meanings = {
        name: defined
        for name in family
        if (
            defined := [
                f
                for f in facts
                if f.kind == "definition"
                and f.category
                and not _GENUS.search(f.category)
                and _same_class(name, f.subject)
            ]
        )
    }
    if len(meanings) < 2 or not any(_same_class(claimed, name) for name in meanings):
        return None
    fitting = _fitting_range(case, meanings) or _fitting_words(case, meanings)
    if fitting is None:
        return None
    basis = meanings[fitting][0]
    if _same_class(claimed, fitting):
        return FactCheck("supported", f"题述情形符合教材对“{fitting}”的界定", basis)
    return FactCheck("contradicted", f"题述情形符合教材对“{fitting}”的界定，而非“{claimed}”", basis)
