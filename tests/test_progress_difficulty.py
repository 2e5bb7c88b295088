"""易 / 中 / 难: the author's estimate until enough learners have met the question, then their answers."""

from __future__ import annotations

import pytest

from progress.difficulty import MIN_ANSWERS, estimate, question_difficulties
from storage import Store
from tests.test_progress_support import TAXES, answer, learner, new_question
from tests.test_storage_support import Clock, deed_tax_question


def test_the_authors_estimate_stands_until_the_threshold() -> None:
    assert [estimate(a).level for a in (0.2, 0.3, 0.31, 0.6, 0.61)] == [
        "easy",
        "easy",
        "medium",
        "medium",
        "hard",
    ]
    few = estimate(0.2, answered=MIN_ANSWERS - 1, correct=0)
    assert (few.level, few.observed) == ("easy", False)


def test_answers_correct_the_estimate_from_the_threshold_on() -> None:
    missed = estimate(0.2, answered=20, correct=2)  # (10 × 0.2 + 18 wrong) / 30
    assert (missed.value, missed.level, missed.observed) == (0.667, "hard", True)
    easy = estimate(0.5, answered=40, correct=38)  # (10 × 0.5 + 2 wrong) / 50
    assert (easy.value, easy.level) == (0.14, "easy")


def test_impossible_inputs_are_named() -> None:
    with pytest.raises(ValueError, match=r"author: difficulty 1\.5 is not between 0 and 1"):
        estimate(1.5)
    with pytest.raises(ValueError, match=r"correct: 5 right of 3 answers is impossible"):
        estimate(0.5, answered=3, correct=5)


async def test_stored_questions_count_each_learners_first_answer_only(store: Store, clock: Clock) -> None:
    await learner(store)  # the chat the questions were written in
    hard_one = await new_question(store, TAXES, difficulty=0.5)
    untouched = await new_question(store, TAXES, difficulty=0.25)
    for user_id in range(100, 100 + MIN_ANSWERS - 1):
        await learner(store, user_id)
        await answer(store, clock, hard_one, False, user_id=user_id)
    # Drilled in review until right: still one wrong first answer.
    revised = await store.questions.add_version(hard_one.question_id, deed_tax_question("（修订）"))
    for _ in range(3):
        await answer(store, clock, revised, True, user_id=100)

    before = await question_difficulties(store, [hard_one.question_id, untouched.question_id])
    assert (before[hard_one.question_id].level, before[hard_one.question_id].answered) == ("medium", 19)
    assert before[untouched.question_id].level == "easy"

    await learner(store, 200)
    await answer(store, clock, revised, False, user_id=200)
    after = (await question_difficulties(store, [hard_one.question_id]))[hard_one.question_id]
    assert (after.answered, after.correct, after.observed, after.level) == (20, 0, True, "hard")
    assert await question_difficulties(store, [999]) == {}
