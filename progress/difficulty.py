"""How hard a question is (易 / 中 / 难): the author's estimate until learners' answers say otherwise.

Difficulty is on the scale the authors use, 0 (easy) to 1 (hard); observed, it is the share of learners
who got the question wrong on first meeting it. Bands follow the usual item-analysis cut-offs for the share
correct p: p ≥ 0.7 is easy, p < 0.4 is hard, so difficulty ≤ 0.3 is 易 and > 0.6 is 难.

Answers start to count at MIN_ANSWERS = 20 first answers. With fewer, one lucky or unlucky learner moves
the share by 5 points or more, and the standard error of a share near one half (√(p(1−p)/n) ≈ 0.11 at 20)
is already a third of the middle band's width; at 20 answers a question can still be misplaced by a band
now and then, but not across two. From there the estimate is a weighted mean in which the author's
estimate counts as PRIOR_WEIGHT answers, so crossing the threshold moves a question gradually instead of
flipping it, and a question answered hundreds of times is judged almost only by its answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage import Store
from storage.history import QuestionCount
from vocabulary.kinds import Difficulty, level_of

MIN_ANSWERS = 20
PRIOR_WEIGHT = 10


@dataclass(frozen=True)
class Estimate:
    """`value`: 0–1, higher is harder; `answered`/`correct`: the first answers it rests on; `observed`
    says whether they were counted (enough of them)."""

    value: float
    level: Difficulty
    answered: int
    correct: int
    observed: bool


def estimate(author: float, answered: int = 0, correct: int = 0) -> Estimate:
    """The author's 0–1 estimate, corrected by `correct` of `answered` first answers once there are
    MIN_ANSWERS of them."""
    if not 0 <= author <= 1:
        raise ValueError(f"author: difficulty {author!r} is not between 0 and 1")
    if not 0 <= correct <= answered:
        raise ValueError(f"correct: {correct} right of {answered} answers is impossible")
    observed = answered >= MIN_ANSWERS
    value = (PRIOR_WEIGHT * author + (answered - correct)) / (PRIOR_WEIGHT + answered) if observed else author
    return Estimate(round(value, 3), level_of(value), answered, correct, observed)


async def question_difficulties(store: Store, question_ids: Sequence[int]) -> dict[int, Estimate]:
    """The estimate of each stored question: its latest version's author estimate (a revision may have
    re-rated it) corrected by first answers to any of its versions. Unknown ids are left out."""
    tallies = await store.history.first_answer_tallies(question_ids)
    estimates = {}
    for question_id in question_ids:
        latest = await store.questions.latest(question_id)
        if latest is not None:
            tally = tallies.get(question_id, QuestionCount(0, 0))
            estimates[question_id] = estimate(latest.question.difficulty, tally.answered, tally.correct)
    return estimates
