"""Near-duplicate scoring of a new question against the bank.

The stem alone misleads for choice questions whose stems are generic ("关于X，下列说法正确的是"): there the
options carry the content, so a choice question is a duplicate only when its options overlap too.
"""

from __future__ import annotations

from retrieval.index import QuestionIndex
from vocabulary.records import Question


def _bigrams(texts: list[str]) -> set[str]:
    grams: set[str] = set()
    for text in texts:
        compact = "".join(ch for ch in text if ch.isalnum())
        grams |= {compact[i : i + 2] for i in range(len(compact) - 1)}
    return grams


def option_overlap(a: list[str], b: list[str] | tuple[str, ...]) -> float:
    left, right = _bigrams(list(a)), _bigrams(list(b))
    return len(left & right) / len(left | right) if left and right else 0.0


def duplicate_scorer(index: QuestionIndex):
    def score(question: Question) -> float:
        match = index.nearest(question.stem, 1)
        if not match:
            return 0.0
        mother, stem_similarity = match[0]
        if question.qtype == "judge":
            return stem_similarity
        return min(stem_similarity, option_overlap(question.options, mother.options))

    return score
