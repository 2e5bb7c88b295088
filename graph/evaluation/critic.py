"""The critic as critic-eval runs it: the deterministic checks, grounding of every statement against the
knowledge base, and recomputation from the figures the stem states. Past-paper questions were written from
no slice of ours, so grounding is lenient: a key the textbook neither supports nor contradicts is counted
(`unknown`), not rejected."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import calc
from graph.checks import run_checks
from graph.context import KnowledgeIndex
from graph.grounding import ground_question
from graph.grounding.verdict import Grounding
from graph.schemas import Issue
from graph.stemcalc import check_stem_calculation
from retrieval.compiler import compile_kb
from retrieval.facts import FactBase
from retrieval.models import Slice
from vocabulary.records import Calculation, Question


@dataclass
class Library:
    """What grounding reads: the knowledge base's slices and its compiled facts."""

    knowledge: KnowledgeIndex
    facts: FactBase


def library_of(slices: Sequence[Slice], cache_dir: Path | None = None) -> Library:
    """The knowledge base as grounding reads it; `cache_dir` keeps its compiled facts between runs."""
    return Library(KnowledgeIndex(list(slices)), compile_kb(slices, cache_dir=cache_dir))


@dataclass
class Review:
    issues: list[Issue] = field(default_factory=list)
    grounding: Grounding = field(default_factory=Grounding)

    @property
    def rejected(self) -> bool:
        return bool(self.issues)

    @property
    def unknown(self) -> bool:
        """The keyed answer could be neither supported nor contradicted by the textbook."""
        return bool(self.grounding.unknown_keys)


def _recompute(calculation: Calculation) -> float:
    return float(calc.run(calculation.calculator, calculation.args)[calculation.field])


def review(question: Question, requested: str, library: Library, chapter: tuple[str, ...] | None) -> Review:
    """Every issue the evaluated critic finds; `chapter` is the knowledge-base chapter the question is
    aligned to, searched before the rest of the knowledge base."""
    issues = run_checks(question, requested, recompute=_recompute)
    grounding = ground_question(question, None, library, chapter=chapter)
    issues += grounding.issues(strict=False)
    if question.calculation is not None:
        issues += check_stem_calculation(question, calc.run).issues
    return Review(issues, grounding)
