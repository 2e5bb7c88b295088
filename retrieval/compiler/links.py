"""Links between sibling enumerations of a chapter: the pool a multiple-choice question draws its wrong
options from (the second-order heirs beside the first-order ones).

The closest siblings come first: same section, then heads that share the most characters ("第一顺序继承人"
and "第二顺序继承人"), then the nearest in the book. Links are capped, and candidates are drawn from the
same section and the nearest neighbours only, so a chapter of thousands of lists stays linear to link.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from retrieval.facts import Fact
from retrieval.models import Slice

RELATED_MAX = 12
_NEIGHBOURS = 24  # candidates taken on each side in book order, besides the whole section


def _closeness(a: Fact, b: Fact) -> float:
    shared = set(a.subject) & set(b.subject)
    return len(shared) / max(len(set(a.subject) | set(b.subject)), 1)


def link_enumerations(facts: Sequence[Fact], slices: Sequence[Slice]) -> list[Fact]:
    section = {s.id: s.path[:3] for s in slices}
    chapter = {s.id: s.chapter for s in slices}
    by_chapter: dict[tuple[str, ...], list[int]] = {}
    by_section: dict[tuple[str, ...], list[int]] = {}
    for index, fact in enumerate(facts):
        if fact.kind == "enumeration" and fact.slice_id in chapter:
            by_chapter.setdefault(chapter[fact.slice_id], []).append(index)
            by_section.setdefault(section[fact.slice_id], []).append(index)
    linked = list(facts)
    for members in by_chapter.values():
        for position, index in enumerate(members):
            fact = facts[index]
            own_section = section[fact.slice_id]
            nearby = members[max(position - _NEIGHBOURS, 0) : position + _NEIGHBOURS + 1]
            candidates = {i for i in (*by_section[own_section], *nearby) if i != index}
            ranked = sorted(
                candidates,
                key=lambda i: (
                    section[facts[i].slice_id] != own_section,
                    -_closeness(fact, facts[i]),
                    abs(i - index),
                ),
            )
            linked[index] = dataclasses.replace(
                fact, related=tuple(facts[i].id for i in ranked[:RELATED_MAX])
            )
    return linked
