"""The critic's verification power on the bundled bank: false rejections of known-good questions and seeded
defects caught (the same figures as `python -m bot critic-eval`)."""

from __future__ import annotations

from bench.__main__ import Row
from graph.evaluation import evaluate
from retrieval.sources import load_sources
from settings import load_settings


def run() -> list[Row]:
    settings = load_settings(environ={})
    result = evaluate(load_sources(settings.data.knowledge_base, settings.data.question_bank))
    rows: list[Row] = [
        (
            f"critic: false rejections on the bank ({result.bank_size} questions)",
            f"{len(result.false_rejections)} ({result.false_rejection_rate:.1%})",
            "≤ 2%",
            result.false_rejection_rate <= 0.02,
        ),
        (
            "critic: seeded defects caught, all kinds",
            f"{result.catch_rate:.1%}",
            "≥ 98%",
            result.catch_rate >= 0.98,
        ),
    ]
    rows += [
        (f"critic: caught {kind}", f"{caught}/{total}", "", None)
        for kind, (caught, total) in result.caught.items()
    ]
    return rows
