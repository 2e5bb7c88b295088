"""What `python -m bot data check` reports about the compiled facts: how many of each kind, and which
slices yielded none (or only plain statements), so an author sees which knowledge points no question can
be written from."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from retrieval.facts import FACT_KINDS, FactBase, FactKind
from retrieval.models import Slice


@dataclass(frozen=True)
class CompileSummary:
    """`without_facts` and `statements_only` list (slice id, path) pairs in knowledge-base order."""

    slices: int
    facts: int
    per_kind: dict[FactKind, int]
    without_facts: tuple[tuple[str, str], ...]
    statements_only: tuple[tuple[str, str], ...]

    @property
    def typed_share(self) -> float:
        """Share of slices with at least one fact other than a plain statement."""
        if not self.slices:
            return 0.0
        return (self.slices - len(self.without_facts) - len(self.statements_only)) / self.slices


def summarise(base: FactBase, slices: Sequence[Slice]) -> CompileSummary:
    counts = Counter(fact.kind for fact in base)
    without, plain = [], []
    for s in slices:
        kinds = {fact.kind for fact in base.of_slice(s.id)}
        if not kinds:
            without.append((s.id, s.path_text))
        elif kinds == {"statement"}:
            plain.append((s.id, s.path_text))
    return CompileSummary(
        slices=len(slices),
        facts=len(base),
        per_kind={kind: counts.get(kind, 0) for kind in FACT_KINDS},
        without_facts=tuple(without),
        statements_only=tuple(plain),
    )
