"""A generated round at a difficulty: the learner who picks 易 or 难 in /quiz gets questions rated at that
level where the author can write one for the drawn knowledge point, and the nearest it can where not."""

from __future__ import annotations

from pathlib import Path

from progress.difficulty import MIN_ANSWERS, estimate, question_difficulties
from storage import Store
from testkit.botharness import bot_running, world
from tests.test_bot_private import choose
from vocabulary.kinds import HARD_ABOVE

# Its offline judge questions are estimated 易 (a stated rule) or 中 (a tax computed for a case): a
# two-option judge is rarely 难, so there 难 means the hardest the author can write.
CHAPTER = "第八章 卖方税费"
COUNT = 5


async def difficulties_served(tmp_path: Path, difficulty: str, qtype: str = "judge") -> list[float]:
    """The author's estimates of a fresh learner's round, in order: every world's first learner draws the
    same knowledge points, so rounds at different difficulties differ only in what was written for them."""
    async with world(tmp_path / f"{qtype}-{difficulty}") as (emulator, client, settings):
        async with bot_running(emulator, settings):
            learner = await client.create_user("Dora")
            await choose(client, learner, qtype, count=COUNT, chapter=CHAPTER, difficulty=difficulty)
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
    any_level = await difficulties_served(tmp_path, "不限", "multi")
    hard = await difficulties_served(tmp_path, "难", "multi")
    assert all(h >= a for h, a in zip(hard, any_level, strict=True))
    assert sum(hard) > sum(any_level), "some point had a harder question to offer"


async def test_a_hard_round_is_served_hard_questions_until_learners_answers_say_otherwise(tmp_path: Path):
    """难 in /quiz: every question delivered is stored with an estimate above HARD_ABOVE (multiple choice
    with several keys, measured on the finished question); once enough learners get one right on first
    meeting it, their answers pull it out of 难."""
    async with world(tmp_path) as (emulator, client, settings):
        async with bot_running(emulator, settings):
            learner = await client.create_user("Dora")
            await choose(client, learner, "multi", count=3, chapter=CHAPTER, difficulty="难")
            for _ in range(3):
                quiz = await client.wait_for_poll(learner, timeout=30)
                await client.vote(learner, quiz, list(quiz.poll.correct_option_ids))
            await client.wait_for_text(learner, "本轮结束")
        store = await Store.open(settings.storage.database)
        try:
            deliveries = await store.deliveries.for_session(1)
            versions = [await store.questions.version(d.version_id) for d in deliveries]
            first, question_id = deliveries[0], versions[0].question_id
            before = (await question_difficulties(store, [question_id]))[question_id]
            keys = list(versions[0].question.correct_indexes)
            for user_id in range(500, 500 + MIN_ANSWERS):
                await store.users.upsert(user_id, f"learner {user_id}")
                await store.attempts.record(first.id, user_id, keys)
            after = (await question_difficulties(store, [question_id]))[question_id]
        finally:
            await store.close()
    assert len(versions) == 3
    assert all(v.question.difficulty > HARD_ABOVE for v in versions), [
        v.question.difficulty for v in versions
    ]
    assert (before.level, before.observed) == ("hard", False)
    assert after.observed and after.level != "hard" and after.value < before.value
