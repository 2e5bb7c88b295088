"""真题练习 at a chosen difficulty: only past questions the paper rates at that level are served."""

from __future__ import annotations

import pytest

from progress.difficulty import estimate
from progress.pastpapers import NoPastQuestionsError, PastPapers
from retrieval.sources import Sources
from storage import Store

LEARNER = 41


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
