"""A generated round at a difficulty: the learner who picks 易 or 难 in /quiz gets questions rated at that
level where the author can write one for the drawn knowledge point, and the nearest it can where not."""

from __future__ import annotations

from pathlib import Path

from progress.difficulty import estimate
from storage import Store
from testkit.botharness import bot_running, world
from tests.test_bot_private import choose

# Its offline judge questions are rated 易 (a stated rule) or 中 (a tax computed for a case). No offline
# recipe rates a question 难, so there 难 can only mean the hardest the author can write.
CHAPTER = "第八章 卖方税费"
COUNT = 5


async def difficulties_served(tmp_path: Path, difficulty: str) -> list[float]:
    """The author's estimates of a fresh learner's round, in order: every world's first learner draws the
    same knowledge points, so rounds at different difficulties differ only in what was written for them."""
    async with world(tmp_path / difficulty) as (emulator, client, settings):
        async with bot_running(emulator, settings):
            learner = await client.create_user("Dora")
            await choose(client, learner, "judge", count=COUNT, chapter=CHAPTER, difficulty=difficulty)
            for _ in range(COUNT):
                quiz = await client.wait_for_poll(learner, timeout=30)
                await client.vote(learner, quiz, list(quiz.poll.correct_option_ids))
            await client.wait_for_text(learner, "本轮结束")
        store = await Store.open(settings.storage.database)
        try:
            attempts = await store.attempts.for_session(1)
            versions = [await store.questions.version(a.version_id) for a in attempts]
        finally:
            await store.close()
    served = [v.question.difficulty for v in versions if v is not None]
    assert len(served) == COUNT
    return served


def levels(difficulties: list[float]) -> set[str]:
    return {estimate(d).level for d in difficulties}


async def test_easy_gets_only_easy_questions_from_a_chapter_that_offers_both(tmp_path: Path):
    assert levels(await difficulties_served(tmp_path, "不限")) == {"easy", "medium"}
    assert levels(await difficulties_served(tmp_path, "易")) == {"easy"}


async def test_hard_is_never_easier_and_somewhere_harder_than_any_level(tmp_path: Path):
    any_level = await difficulties_served(tmp_path, "不限")
    hard = await difficulties_served(tmp_path, "难")
    assert all(h >= a for h, a in zip(hard, any_level, strict=True))
    assert sum(hard) > sum(any_level), "some point had a harder question to offer"
