"""Choosing the past exam questions an author imitates when writing a question on a slice.

Examples should match the slice's subject and the requested type; a question from the slice's own chapter
is preferred because it shows how the exam asks about exactly that material.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from retrieval.models import MotherQuestion, Slice
from vocabulary.kinds import QUESTION_TYPES, QuestionType

if TYPE_CHECKING:
    from retrieval.index import QuestionIndex

# Added to the cosine of a question from the slice's own chapter. Large enough that a same-chapter question
# of ordinary similarity outranks a slightly closer one from elsewhere, small enough that a question from
# another chapter that is clearly about the same thing still wins.
CHAPTER_BONUS = 0.15


def slice_query_text(knowledge: Slice) -> str:
    return "\n".join((knowledge.title, knowledge.text, *knowledge.rules))


def select_examples(
    index: QuestionIndex, knowledge: Slice, qtype: QuestionType, k: int = 3
) -> list[MotherQuestion]:
    """The k questions of `qtype` closest to the slice, its own chapter's first when similar enough.

    A bank with fewer than k questions of that type is topped up with the closest questions of the other
    types: an example of another type still shows the author the subject's style, an empty list shows nothing.
    """
    if qtype not in QUESTION_TYPES:
        raise ValueError(f"unknown question type {qtype!r}; expected one of {', '.join(QUESTION_TYPES)}")
    text = slice_query_text(knowledge)
    chosen = index.rank(text, (qtype,), k, chapter=knowledge.chapter, chapter_bonus=CHAPTER_BONUS)
    if len(chosen) < k:
        others = tuple(t for t in QUESTION_TYPES if t != qtype)
        chosen += index.rank(
            text, others, k - len(chosen), chapter=knowledge.chapter, chapter_bonus=CHAPTER_BONUS
        )
    return [question for question, _ in chosen]
