"""The critic's verification power on both bundled banks, each checked against its own knowledge base: false
rejections of known-good questions, keys the textbook cannot verify, and easy and hard seeded defects caught
per kind (the same figures as `python -m bot critic-eval`); and what grounding costs per question on a
knowledge base several times the bundled one."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from bench.__main__ import Row
from graph.context import KnowledgeIndex
from graph.evaluation import TARGETS, Evaluation, Library, as_question, evaluate, library_of
from graph.grounding import ground_question
from retrieval.facts import FactBase
from retrieval.sources import Sources, load_sources
from settings import load_settings

DATA = Path(__file__).resolve().parent.parent / "data"
# (name, knowledge base, bank): the bundled banks, each with the knowledge base it is aligned to.
BANKS: tuple[tuple[str, Path, Path], ...] = (
    ("structured", DATA / "knowledge_base.jsonl", DATA / "question_bank.xlsx"),
    ("prose", DATA / "prose" / "knowledge_base.jsonl", DATA / "prose" / "question_bank.xlsx"),
)


def _rows(name: str, result: Evaluation) -> list[Row]:
    meets = result.meets()
    rows: list[Row] = [
        (
            f"critic [{name}]: false rejections ({result.bank_size} questions)",
            f"{len(result.false_rejections)} ({result.false_rejection_rate:.1%})",
            f"≤ {TARGETS['false_rejections']:.0%}",
            meets["false_rejections"],
        ),
        (
            f"critic [{name}]: accepted keys the textbook cannot verify",
            f"{len(result.unknown)}/{result.accepted} ({result.unknown_rate:.1%})",
            f"≤ {TARGETS['unknown']:.0%}",
            meets["unknown"],
        ),
        (
            f"critic [{name}]: easy defects caught",
            f"{result.easy_rate:.1%}",
            f"≥ {TARGETS['easy']:.0%}",
            meets["easy"],
        ),
        (
            f"critic [{name}]: hard defects caught",
            f"{result.hard_rate:.1%}",
            f"≥ {TARGETS['hard']:.0%}",
            meets["hard"],
        ),
    ]
    rows += [
        (f"critic [{name}]: top rejection reason", f"{count} × {reason}", "", None)
        for reason, count in result.top_reasons(3)
    ]
    rows += [
        (f"critic [{name}]: caught {kind}", f"{t.caught}/{t.total} ({t.rate:.0%})", "", None)
        for kind, t in (*result.hard.items(), *result.easy.items())
    ]
    return rows


# Copies of the prose knowledge base (ids renamed) that grounding searches in the speed row, and its target.
COPIES = 4
GROUNDING_TARGET_MS = 15.0


def _grounding_speed(sources: Sources) -> Row:
    """Mean time to ground a bank question when the whole knowledge base has to be searched."""
    many = [replace(s, id=f"{s.id}~{n}") for n in range(COPIES) for s in sources.slices]
    library = Library(KnowledgeIndex(many), FactBase(()))
    questions = [as_question(q, sources.calc_checks.get(q.id)) for q in sources.questions]
    ground_question(questions[0], None, library)  # builds the lookup once
    start = time.perf_counter()
    for question in questions:
        ground_question(question, None, library)
    per_question = (time.perf_counter() - start) / len(questions) * 1000
    return (
        f"grounding per question, {len(many)} slices ({len(questions)} questions)",
        f"{per_question:.1f} ms",
        f"≤ {GROUNDING_TARGET_MS:.0f} ms",
        per_question <= GROUNDING_TARGET_MS,
    )


def run() -> list[Row]:
    settings = load_settings(environ={})
    rows: list[Row] = []
    for name, kb, bank in BANKS:
        sources = load_sources(kb, bank)
        rows += _rows(name, evaluate(sources, library_of(sources.slices, settings.data.facts_cache)))
    return [*rows, _grounding_speed(sources)]
