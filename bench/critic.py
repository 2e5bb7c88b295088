"""The critic's verification power on both bundled banks, each checked against its own knowledge base: false
rejections of known-good questions, keys the textbook cannot verify, and easy and hard seeded defects caught
per kind (the same figures as `python -m bot critic-eval`)."""

from __future__ import annotations

from pathlib import Path

from bench.__main__ import Row
from graph.evaluation import TARGETS, Evaluation, evaluate, library_of
from retrieval.sources import load_sources
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


def run() -> list[Row]:
    settings = load_settings(environ={})
    rows: list[Row] = []
    for name, kb, bank in BANKS:
        sources = load_sources(kb, bank)
        rows += _rows(name, evaluate(sources, library_of(sources.slices, settings.data.facts_cache)))
    return rows
