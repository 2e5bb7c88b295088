"""Measuring the critic's verification power on a bank: false rejections of known-good questions, keys the
textbook cannot verify, and seeded defects caught — easy ones a question shows on its face, hard ones only a
check against the textbook or a recomputation from the stem can see. `python -m bot critic-eval` and
`make bench` print it.

    library = library_of(sources.slices, cache_dir)      # the grounding source
    result = evaluate(sources, library)                  # Evaluation: per-kind tallies, rates, reasons
"""

from graph.evaluation.bank import as_question, read_calculation
from graph.evaluation.critic import Library, library_of, review
from graph.evaluation.easy import EASY
from graph.evaluation.hard import HARD, Material
from graph.evaluation.run import TARGETS, Evaluation, Tally, evaluate

__all__ = [
    "EASY",
    "HARD",
    "TARGETS",
    "Evaluation",
    "Library",
    "Material",
    "Tally",
    "as_question",
    "evaluate",
    "library_of",
    "read_calculation",
    "review",
]
