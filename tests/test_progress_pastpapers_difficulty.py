"""真题练习 at a chosen difficulty: only past questions at that level are served, rated by the paper until
enough learners, in any chats, have answered them."""

from __future__ import annotations

import itertools

import pytest

from progress.difficulty import MIN_ANSWERS, estimate
from progress.pastpapers import NoPastQuestionsError, PastPapers, PastQuestion, store_past
from retrieval.sources import Sources
from storage import Store
from tests.test_storage_support import deliver

LEARNER = 41
_polls = itertools.count(1)


@pytest.fixture
async def learner(store: Store) -> None:
    await store.users.upsert(LEARNER, "学员")
    await store.chats.upsert(LEARNER, "private")


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
async def test_a_round_at_a_difficulty_holds_only_that_level(
    sample_sources: Sources, store: Store, learner: None, level: str
) -> None:
    papers = PastPapers(sample_sources.questions, sample_sources.calc_checks)
    available = papers.count(None, "mixed", difficulty=level)
    assert 0 < available < papers.count(None, "mixed")
    items = await papers.pick(store, LEARNER, None, "mixed", 20, difficulty=level)
    served = [past.question for item in items for past in item.questions]
    assert len(served) == min(20, available)
    assert {estimate(q.difficulty).level for q in served} == {level}


async def test_no_question_at_that_level_is_said_with_the_level(
    sample_sources: Sources, store: Store, learner: None
) -> None:
    papers = PastPapers(sample_sources.questions, sample_sources.calc_checks)
    chapters = {c.key for c in sample_sources.tree.chapters}
    empty = next(
        (chapter, qtype)
        for chapter in sorted(chapters)
        for qtype in ("single", "multi", "judge")
        if papers.count({chapter}, qtype) and not papers.count({chapter}, qtype, difficulty="hard")
    )
    with pytest.raises(NoPastQuestionsError, match="no past hard questions"):
        await papers.pick(store, LEARNER, {empty[0]}, empty[1], 5, difficulty="hard")


async def answer_past(store: Store, past: PastQuestion, user_id: int, correct: bool) -> None:
    """The learner meets the bank question in their own private chat and answers it."""
    await store.users.upsert(user_id, f"学员{user_id}")
    await store.chats.upsert(user_id, "private")
    version = await store_past(store, user_id, past)
    delivery = await deliver(store, version.id, user_id, f"bank-poll{next(_polls)}", kind="private")
    right = version.question.correct_indexes
    chosen = right if correct else [next(i for i in range(len(version.question.options)) if i not in right)]
    await store.attempts.record(delivery.id, user_id, chosen)


async def test_a_hard_past_question_most_learners_get_right_is_served_as_easy(
    sample_sources: Sources, store: Store, learner: None
) -> None:
    papers = PastPapers(sample_sources.questions, sample_sources.calc_checks)
    items = await papers.pick(store, LEARNER, None, "single", 500, difficulty="hard")
    hard = next(q for item in items for q in item.questions if not item.case)

    async def keys_at(level: str) -> set[str]:
        items = await papers.pick(store, LEARNER, None, "single", 500, difficulty=level)
        return {q.key for item in items for q in item.questions}

    assert hard.key not in await keys_at("easy")
    # All but the first learner right on first meeting it; a learner's later answer does not count, and
    # until MIN_ANSWERS learners have answered, the paper's rating stands.
    for user_id in range(1000, 1000 + MIN_ANSWERS - 1):
        await answer_past(store, hard, user_id, correct=user_id != 1000)
    await answer_past(store, hard, 1001, correct=False)
    assert hard.key in await keys_at("hard")
    await answer_past(store, hard, 1000 + MIN_ANSWERS, correct=True)
    assert estimate(hard.question.difficulty, MIN_ANSWERS, MIN_ANSWERS - 1).level == "easy"
    assert hard.key in await keys_at("easy")
    assert hard.key not in await keys_at("hard")
