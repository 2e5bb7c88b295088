"""What nodes need besides the state: the knowledge, the index, the author and the limits.

Passed as LangGraph runtime context, so none of it is checkpointed and a restart rebuilds it from config.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from graph.authors.base import Author
from retrieval.facts import FactBase
from retrieval.models import MotherQuestion, Slice
from vocabulary.records import Question


class KnowledgeIndex:
    """Read-only views over the loaded slices the nodes need: by id, by chapter and by section."""

    def __init__(self, slices: list[Slice]) -> None:
        self.by_id = {s.id: s for s in slices}
        self.slices = slices
        self._by_section: dict[tuple[str, ...], list[Slice]] = {}
        self._by_chapter: dict[tuple[str, ...], list[Slice]] = {}
        for s in slices:
            self._by_section.setdefault(s.path[:3], []).append(s)
            self._by_chapter.setdefault(s.chapter, []).append(s)

    def get(self, slice_id: str) -> Slice:
        return self.by_id[slice_id]

    def neighbours(self, slice_: Slice, limit: int = 6) -> list[Slice]:
        """Slices of the same section first, then of the same chapter: material for distractors."""
        section = [s for s in self._by_section.get(slice_.path[:3], []) if s.id != slice_.id]
        chapter = [s for s in self._by_chapter.get(slice_.chapter, []) if s.path[:3] != slice_.path[:3]]
        return (section + chapter)[:limit]

    def alternative(self, slice_: Slice, tried: list[str], seed: int, calculation_only: bool) -> Slice | None:
        pool = [
            s
            for s in self.slices
            if s.chapter == slice_.chapter
            and s.id not in tried
            and (s.is_calculation or not calculation_only)
        ]
        return random.Random(f"{seed}|{slice_.id}|{len(tried)}").choice(pool) if pool else None


@dataclass
class GenerationContext:
    knowledge: KnowledgeIndex
    few_shot: Callable[[Slice, str, int], list[MotherQuestion]]
    duplicate_score: Callable[[Question], float]
    author: Author
    run_calculator: Callable[[str, dict[str, Any]], dict[str, Any]]
    calculators_for: Callable[[Slice], list[str]]
    few_shot_k: int = 3
    duplicate_threshold: float = 0.9
    questions_by_id: dict[str, MotherQuestion] = field(default_factory=dict)
    facts: FactBase = field(default_factory=lambda: FactBase(()))
