"""案例题 chosen in the /quiz dialogue, end to end against the Bot API emulator: the situation once, then
one quiz poll per sub-question, each graded, counted in /stats, due again in /review when missed, and a
learner's 👎 on one reaching the instructor; a chapter that cannot carry a case is not offered one."""

from __future__ import annotations

from pathlib import Path

from handlers.context import state
from storage import Store
from testkit.botharness import bot_running, world
from tests.test_bot_private import wrong_choice
from tests.test_bot_review import MINUTE, ShiftedClock

_TAXES = ("第四篇 交易税费", "第八章 卖方税费")
_NO_CASE = ("第三篇 交易合同与资金", "第五章 存量房买卖合同")


def _name(app, key: tuple[str, ...]) -> str:
    return next(c.name for c in state(app).sources.tree.chapters if c.key == key)


async def _choose_chapter(client, user, name: str):
    await client.send_text(user, "/quiz")
    menu = await client.next_message(user)
    await client.press(user, menu, name)
    menu = await client.wait_for_edit(menu)
    await client.press(user, menu, "完成")
    return await client.wait_for_edit(menu)


async def test_a_case_is_asked_as_its_situation_then_a_graded_poll_per_sub_question(tmp_path: Path):
    clock = ShiftedClock()
    async with world(tmp_path) as (emulator, client, settings):
        teacher = await client.create_user("Teacher")
        learner = await client.create_user("Lily")
        settings.telegram.instructors = [teacher.id]
        async with bot_running(emulator, settings, clock=clock) as app:
            await client.send_text(teacher, "/start")
            await client.next_message(teacher)
            menu = await _choose_chapter(client, learner, _name(app, _TAXES))
            types = [b.text for b in menu.buttons]
            assert "案例题" in types, types
            await client.press(learner, menu, "案例题")
            menu = await client.wait_for_edit(menu)
            await client.press(learner, menu, "灵活（业务场景）")
            # writing the case takes seconds on an idle machine, far longer on a loaded one
            situation = await client.wait_for_text(learner, "案例背景", timeout=300)
            first = await client.wait_for_poll(learner, timeout=20)
            count = int(first.poll.question.split(" ", 1)[0].split("/")[1])
            assert count >= 3
            poll = first
            for number in range(1, count + 1):
                assert poll.poll.question.startswith(f"{number}/{count} 本案中"), poll.poll.question
                answer = wrong_choice(poll.poll) if number == 1 else list(poll.poll.correct_option_ids)
                await client.vote(learner, poll, answer)
                card = await client.wait_for_text(learner, "解析", timeout=20)
                if number < count:
                    poll = await client.wait_for_poll(learner, timeout=20)
            said = [m for m in await client.transcript(learner) if m.from_bot]
            await client.send_text(learner, "/stats")
            stats = await client.wait_for_text(learner, "学习统计", timeout=10)
            await client.press(learner, first, "👎")
            prompt = await client.wait_for_text(learner, "感谢反馈", timeout=10)
            await client.press(learner, prompt, "解析有误")
            report = await client.wait_for_text(teacher, "学员反馈：解析有误", timeout=10)
            await client.press(teacher, report, "修复")
            refused = await client.wait_for_text(teacher, "无法单独送回修订流程", timeout=10)
            clock.offset += 11 * MINUTE
            await client.send_text(learner, "/review")
            due = await client.wait_for_text(learner, "道题到期", timeout=10)
        store = await Store.open(settings.storage.database)
        try:
            attempts = await store.attempts.for_session(1)
            session = await store.sessions.get(1)
        finally:
            await store.close()
    assert sum("案例背景" in m.body for m in said) == 1, "the situation comes once, before its questions"
    assert situation.message_id < first.message_id
    assert session.settings.qtype == "case" and len(session.settings.versions) == count
    assert len(attempts) == count and [a.correct for a in attempts] == [False] + [True] * (count - 1)
    assert f"答对 {count - 1}/{count} 题" in card.text
    assert f"已答 {count} 题，答对 {count - 1} 题" in stats.text
    assert "1 道题到期" in due.text
    assert "本案中" in report.text
    assert "案例题" in refused.text


async def test_a_chapter_without_worked_calculations_is_not_offered_a_case(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        learner = await client.create_user("Max")
        async with bot_running(emulator, settings) as app:
            menu = await _choose_chapter(client, learner, _name(app, _NO_CASE))
    types = [b.text for b in menu.buttons]
    assert "案例题" not in types and "单选" in types
    assert "无法出案例题" in menu.text
