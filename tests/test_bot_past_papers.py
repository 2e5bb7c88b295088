"""真题练习 in a private session, end to end against the Bot API emulator: the bank's questions served as
quiz polls (a case's situation first, then a poll per sub-question), graded, stored and reviewed like any
generated question, and a 👎 on one that tells the instructor it is a bank question."""

from __future__ import annotations

from pathlib import Path

import pytest

from handlers.context import state
from handlers.sessions import start_past_papers
from progress import pastpapers
from progress.pastpapers import PastPapers
from storage import Store
from storage.quiz_settings import QuizSettings
from testkit.botharness import bot_running, world
from tests.test_bot_private import wrong_choice
from tests.test_bot_review import MINUTE, ShiftedClock


async def test_a_past_paper_round_with_a_case_is_graded_and_its_misses_come_back_in_review(tmp_path: Path):
    clock = ShiftedClock()
    async with world(tmp_path) as (emulator, client, settings):
        lily = await client.create_user("Lily")
        settings.telegram.instructors = [lily.id]
        async with bot_running(emulator, settings, clock=clock) as app:
            await client.send_text(lily, "/start")
            await client.next_message(lily)
            found = state(app)
            case = next(q for q in found.sources.questions if q.case_text)
            chapter = case.kb_chapter
            count = PastPapers(found.sources.questions).count({chapter}, "mixed")
            chosen = QuizSettings(chapters=(chapter,), qtype="mixed", count=count, source="past_papers")
            # As the /quiz dialogue does once 真题练习 is chosen.
            await start_past_papers(found, lily.id, lily.id, chosen)
            in_case = 0
            for number in range(count):
                message = await client.wait_for_message(
                    lily, lambda m: m.poll is not None or "案例背景" in m.body, timeout=20
                )
                if message.poll is None:
                    assert case.case_text in message.body
                    in_case = 5
                    message = await client.wait_for_poll(lily, timeout=20)
                assert message.poll.question.startswith(f"{number + 1}/{count} ")
                if number == 0:
                    first = message
                answer = wrong_choice(message.poll) if in_case else list(message.poll.correct_option_ids)
                in_case = max(in_case - 1, 0)
                await client.vote(lily, message, answer)
                card = await client.wait_for_text(lily, "解析", timeout=20)
            # The last explanation carries the results card.
            said = [m for m in await client.transcript(lily) if m.from_bot]
            await client.press(lily, first, "👎")
            refused = await client.wait_for_text(lily, "题库中的真题", timeout=10)
            clock.offset += 11 * MINUTE
            await client.send_text(lily, "/review")
            due = await client.wait_for_text(lily, "道题到期", timeout=10)
        store = await Store.open(settings.storage.database)
        try:
            attempts = await store.attempts.for_session(1)
        finally:
            await store.close()
    assert sum("案例背景" in m.body for m in said) == 1, "the situation comes once, before its questions"
    assert f"答对 {count - 5}/{count} 题" in card.text
    assert len(attempts) == count and sum(not a.correct for a in attempts) == 5
    assert "5 道题到期" in due.text
    assert refused.reply_to_message_id == first.message_id


async def test_past_paper_sessions_share_one_build_of_the_bank(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Grouping and checking the whole bank is done for the first 真题练习 session of the process, not for
    every learner's session again."""
    built: list[PastPapers] = []

    class Counted(PastPapers):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            built.append(self)

    monkeypatch.setattr(pastpapers, "PastPapers", Counted)
    monkeypatch.setattr(pastpapers, "_BUILT", {})
    async with world(tmp_path) as (emulator, client, settings):
        learners = [await client.create_user(name) for name in ("Mia", "Noah")]
        async with bot_running(emulator, settings) as app:
            for learner in learners:
                await client.send_text(learner, "/start")
                await client.next_message(learner)
            found = state(app)
            for learner in (*learners, learners[0]):
                chosen = QuizSettings(qtype="judge", count=1, source="past_papers")
                await start_past_papers(found, learner.id, learner.id, chosen)
                poll = await client.wait_for_poll(learner, timeout=20)
                await client.vote(learner, poll, list(poll.poll.correct_option_ids))
                await client.wait_for_text(learner, "答对 1/1 题", timeout=20)
    assert len(built) == 1
