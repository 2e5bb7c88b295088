"""What a private round costs of Telegram's sending budget (about 30 messages a second for the whole bot),
and presses the bot answers too late for Telegram still taking effect: end to end through the emulator."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from emulator import EmulatorOptions
from handlers.context import state
from testkit.botharness import bot_running, world
from tests.test_bot_private import choose

# Messages a 3-question round may send or edit, from the settings line to its result.
ROUND_BUDGET = 8


async def next_question_written(app, timeout: float = 20.0) -> None:
    """Wait, as a learner thinking it over would, until the next question is written."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    pending = state(app).sessions.pending
    while not pending or any(not p.task.done() for p in pending.values()):
        assert loop.time() < deadline, "the next question was not written in time"
        await asyncio.sleep(0.05)


async def test_a_three_question_round_costs_at_most_eight_messages_and_shows_everything(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings), bot_running(emulator, settings) as app:
        lena = await client.create_user("Lena")
        menu = await choose(client, lena, "single", count=3)
        start = int((await client.bot_info())["last_seq"])
        feedback = []
        for number in range(3):
            quiz = await client.wait_for_poll(lena, timeout=20)
            assert quiz.poll.question.startswith(f"{number + 1}/3 ")
            if number < 2:
                await next_question_written(app)
            await client.vote(lena, quiz, list(quiz.poll.correct_option_ids))
            feedback.append(await client.wait_for_text(lena, "解析", timeout=20))
        await client.settle(lena, quiet=1.0, timeout=10)
        events = await client.events(lena, after=start)
        summary = next(m for m in await client.transcript(lena) if m.message_id == menu.message_id)
    sent = [e for e in events if e.kind in ("message", "edited") and e.message and e.message.from_bot]
    assert len(sent) <= ROUND_BUDGET, [e.summary() for e in sent]
    # The first question's live status is written under the settings line, and ends verified.
    assert "设置：" in summary.text and "✅ 第 1/3 题已校验通过" in summary.text
    # Every answer is explained in a reply to its quiz; the last explanation also carries the result.
    assert all("回答正确" in f.text and "教材原文" in f.text for f in feedback)
    assert "本轮结束：答对 3/3 题" in feedback[-1].text
    assert [b.text for b in feedback[-1].buttons] == ["再来一轮", "错题重练", "换设置"]
    assert not any("本轮结束" in f.text for f in feedback[:-1])


async def test_presses_answered_after_telegram_gave_up_on_them_still_work(tmp_path: Path, caplog):
    """A bot behind on its updates answers a press after Telegram stopped waiting for the answer (the burst
    of the load bench): the dialogue goes on, and no error reaches the log or the learner."""
    caplog.set_level(logging.INFO)
    late = EmulatorOptions(callback_answer_window=0.0)
    async with world(tmp_path, late) as (emulator, client, settings), bot_running(emulator, settings):
        mia = await client.create_user("Mia")
        await choose(client, mia, "single", count=1)
        quiz = await client.wait_for_poll(mia, timeout=20)
        said = [m.body for m in await client.transcript(mia) if m.from_bot]
    assert quiz.poll.question.startswith("1/1 ")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not [body for body in said if "处理时出现了问题" in body]


async def test_late_presses_in_a_report_and_its_revision_still_take_effect(tmp_path: Path, caplog):
    """The same lateness on every other button: a learner's 👎 and reason, the instructor's 修复 and 发布 —
    each press still does its work and nothing is logged as an error."""
    caplog.set_level(logging.INFO)
    late = EmulatorOptions(callback_answer_window=0.0)
    async with world(tmp_path, late) as (emulator, client, settings):
        teacher = await client.create_user("Teacher")
        lena = await client.create_user("Lena")
        settings.telegram.instructors = [teacher.id]
        async with bot_running(emulator, settings):
            await client.send_text(teacher, "/start")
            await client.next_message(teacher)
            await choose(client, lena, "single", count=1)
            quiz = await client.wait_for_poll(lena, timeout=20)
            await client.press(lena, quiz, "👎")
            prompt = await client.wait_for_text(lena, "感谢反馈")
            await client.press(lena, prompt, "解析有误")
            assert "已提交" in (await client.wait_for_edit(prompt)).text
            dm = await client.wait_for_text(teacher, "学员反馈：解析有误")
            await client.press(teacher, dm, "修复")
            shown = await client.wait_for_text(teacher, "修订预览", timeout=30)
            await client.press(teacher, shown, "发布")
            revised = await client.wait_for_text(lena, "修订", timeout=30)
    assert revised is not None
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
