"""The end of a private round and what follows it, end to end against the Bot API emulator: the results
card and its buttons, lettered options, and /review serving missed questions when they come due."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from handlers.context import state
from storage import Store
from testkit.botharness import bot_running, world
from testkit.roundharness import QUICK_POLLS, quick_pace, replies_to, start_group_round
from tests.test_bot_private import choose, wrong_choice

MINUTE = 60.0


class ShiftedClock:
    """Wall time plus an offset the test moves forward: the bot waits in real time, the schedule jumps."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.time() + self.offset

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


async def play(client, user, answers: list[bool], count: int):
    """Answer a round's polls right or wrong in turn; the polls and the last message (the results card)."""
    polls = []
    for number in range(count):
        quiz = await client.wait_for_poll(user, timeout=20)
        polls.append(quiz)
        chosen = list(quiz.poll.correct_option_ids) if answers[number] else wrong_choice(quiz.poll)
        await client.vote(user, quiz, chosen)
        if number < count - 1:
            await client.wait_for_text(user, "解析", timeout=20)
    card = await client.wait_for_text(user, "本轮结束", timeout=20)
    return polls, card


async def test_the_results_card_lists_every_question_and_another_round_needs_no_dialogue(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        async with bot_running(emulator, settings):
            hana = await client.create_user("Hana")
            await choose(client, hana, "single", count=3)
            polls, card = await play(client, hana, [True, False, True], 3)
            for quiz in polls:
                assert [o[:3] for o in quiz.poll.options] == [f"{chr(65 + i)}. " for i in range(4)]
            lines = card.text.splitlines()
            marks = [line for line in lines if line[:2] in ("1.", "2.", "3.")]
            assert [("✓" in m, "✗" in m, "秒" in m) for m in marks] == [
                (True, False, True),
                (False, True, True),
                (True, False, True),
            ]
            assert "本轮结束：答对 2/3 题" in card.text
            assert [b.text for b in card.buttons] == ["再来一轮", "错题重练", "换设置"]
            await client.press(hana, card, "再来一轮")
            again = await client.wait_for_poll(hana, timeout=20)
            assert again.poll.question.startswith("1/3 ")
            said = [m.body for m in await client.transcript(hana) if m.from_bot]
            assert not [body for body in said if "请选择" in body], "another round asks nothing again"
        store = await Store.open(settings.storage.database)
        try:
            first, second = await store.sessions.get(1), await store.sessions.get(2)
        finally:
            await store.close()
    assert second.settings == first.settings and second.status == "active"


async def test_options_carry_the_letters_of_the_answer(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings), bot_running(emulator, settings):
        iris = await client.create_user("Iris")
        await choose(client, iris, "judge", count=1)
        quiz = await client.wait_for_poll(iris, timeout=20)
        await client.vote(iris, quiz, wrong_choice(quiz.poll))
        feedback = await client.wait_for_text(iris, "解析", timeout=20)
    assert quiz.poll.options == ("A. 正确", "B. 错误")
    right = "AB"[quiz.poll.correct_option_ids[0]]
    assert quiz.poll.options[quiz.poll.correct_option_ids[0]].startswith(right)
    assert f"你的选择：{'AB'[wrong_choice(quiz.poll)[0]]}" in feedback.text


async def test_a_missed_question_comes_back_in_review_when_due_and_a_right_answer_pushes_it_out(
    tmp_path: Path,
):
    clock = ShiftedClock()
    async with world(tmp_path) as (emulator, client, settings), bot_running(emulator, settings, clock=clock):
        jin = await client.create_user("Jin")
        await choose(client, jin, "single", count=3)
        polls, _ = await play(client, jin, [False, True, True], 3)
        await client.send_text(jin, "/review")
        assert "暂无到期" in (await client.wait_for_text(jin, "下次复习", timeout=10)).text
        clock.offset += 11 * MINUTE
        await client.send_text(jin, "/review")
        await client.wait_for_text(jin, "1 道题到期", timeout=10)
        served = await client.wait_for_poll(jin, timeout=20)
        assert served.poll.question == "1/1 " + polls[0].poll.question.split(" ", 1)[1]
        await client.vote(jin, served, list(served.poll.correct_option_ids))
        card = await client.wait_for_text(jin, "本轮结束", timeout=20)
        assert "答对 1/1 题" in card.text
        clock.offset += 11 * MINUTE
        await client.press(jin, card, "错题重练")
        later = await client.wait_for_text(jin, "下次复习", timeout=10)
    assert "暂无到期" in later.text


async def test_a_revised_question_comes_back_as_its_revision(tmp_path: Path):
    clock = ShiftedClock()
    async with (
        world(tmp_path) as (emulator, client, settings),
        bot_running(emulator, settings, clock=clock) as app,
    ):
        kim = await client.create_user("Kim")
        await choose(client, kim, "judge", count=1)
        await play(client, kim, [False], 1)
        store = state(app).store
        (delivery,) = await store.deliveries.for_session(1)
        missed = await store.questions.version(delivery.version_id)
        revised = missed.question.model_copy(update={"stem": "修订后的题干：" + missed.question.stem})
        await store.questions.add_version(missed.question_id, revised)
        clock.offset += 11 * MINUTE
        await client.send_text(kim, "/review")
        notice = await client.wait_for_text(kim, "到期", timeout=10)
        served = await client.wait_for_poll(kim, timeout=20)
    assert "修订" in notice.text
    assert served.poll.question.startswith("1/1 修订后的题干：")


async def test_a_miss_in_a_group_round_comes_back_in_the_members_private_review(tmp_path: Path):
    """A group round's question a member got wrong is theirs to review in private, like a private miss;
    a member who got it right has nothing scheduled."""
    clock = ShiftedClock()
    async with (
        world(tmp_path, QUICK_POLLS) as (emulator, client, settings),
        bot_running(emulator, settings, quick_pace(0.05), clock=clock),
    ):
        ann, ben = await client.create_user("Ann"), await client.create_user("Ben")
        group = await client.create_group("备考群", [ben], admins=[ann])
        await start_group_round(client, group, ann, count="1", seconds="30", qtype="判断")
        quiz = await client.wait_for_poll(group, timeout=20)
        await client.vote(ann, quiz, list(quiz.poll.correct_option_ids))
        await client.vote(ben, quiz, wrong_choice(quiz.poll))
        await client.wait_for_message(group, replies_to(quiz), timeout=10)
        await client.wait_for_text(group, "排行榜", timeout=10)
        clock.offset += 11 * MINUTE
        await client.send_text(ben, "/review")
        notice = await client.wait_for_text(ben, "到期", timeout=10)
        served = await client.wait_for_poll(ben, timeout=20)
        await client.send_text(ann, "/review")
        nothing = await client.wait_for_text(ann, "错题", timeout=10)
    assert "1 道题到期" in notice.text
    assert served.poll.question == "1/1 " + quiz.poll.question.split(" ", 1)[1]
    assert "还没有需要复习的错题" in nothing.text
