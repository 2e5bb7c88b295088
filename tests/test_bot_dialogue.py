"""The private /quiz dialogue's choices beyond one chapter, type, mode and count: several chapters at once,
a difficulty and a source, and what happens when a learner asks for a new round while one is running."""

from __future__ import annotations

from pathlib import Path

from handlers.context import state
from storage import Store
from testkit.botharness import bot_running, world
from tests.test_bot_private import choose


def chapter_buttons(menu) -> list[str]:
    return [b.text for b in menu.buttons if b.text.startswith(("第", "✓ 第"))]


async def stored_session(settings, session_id: int):
    store = await Store.open(settings.storage.database)
    try:
        return await store.sessions.get(session_id)
    finally:
        await store.close()


async def test_several_chapters_a_difficulty_and_past_papers_are_chosen_and_kept(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        async with bot_running(emulator, settings) as app:
            chapters = [c for c in state(app).sources.tree.chapters if c.slices]
            ann = await client.create_user("Ann")
            await client.send_text(ann, "/quiz")
            menu = await client.next_message(ann)
            assert "完成" not in [b.text for b in menu.buttons], "nothing ticked yet: nothing to finish"
            first, second, third = (c.name for c in chapters[:3])
            for name in (first, second, third):
                await client.press(ann, menu, name)
                menu = await client.wait_for_edit(menu)
            await client.press(ann, menu, third)  # a second tap drops a chapter again
            menu = await client.wait_for_edit(menu)
            ticked = [label for label in chapter_buttons(menu) if label.startswith("✓ ")]
            assert [label.removeprefix("✓ ").removesuffix(" 🧮") for label in ticked] == [first, second]
            await client.press(ann, menu, "完成")
            menu = await client.wait_for_edit(menu)
            assert "请选择题型" in menu.text
            steps = (("判断", "出题模式"), ("严谨（贴近教材）", "题量"), ("3", "难度"), ("易", "来源"))
            for label, step in steps:
                await client.press(ann, menu, label)
                menu = await client.wait_for_edit(menu)
                assert step in menu.text
            assert [b.text for b in menu.buttons] == ["生成题目", "真题练习"]
            await client.press(ann, menu, "真题练习")
            summary = await client.wait_for_edit(menu)
            assert f"设置：{first}、{second}｜判断｜严谨（贴近教材）｜易｜真题练习｜3 题" in summary.text
        session = await stored_session(settings, 1)
    assert session.settings.chapters == (chapters[0].key, chapters[1].key)
    assert (session.settings.difficulty, session.settings.source, session.settings.count) == (
        "easy",
        "past_papers",
        3,
    )


async def test_quiz_during_a_round_asks_before_ending_it(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings), bot_running(emulator, settings):
        ben = await client.create_user("Ben")
        await choose(client, ben, "judge", count=5)
        await client.wait_for_poll(ben, timeout=20)
        await client.send_text(ben, "/quiz")
        question = await client.wait_for_text(ben, "正在进行")
        assert "已出 1/5 题" in question.text
        await client.press(ben, question, "继续当前练习")
        kept = await client.wait_for_edit(question)
        assert "继续" in kept.text and not kept.buttons
        assert (await stored_session(settings, 1)).status == "active"

        await client.send_text(ben, "/quiz")
        question = await client.wait_for_text(ben, "正在进行")
        await client.press(ben, question, "结束并重新开始")
        menu = await client.wait_for_edit(question)
        assert "请选择章节" in menu.text and "全部章节" in [b.text for b in menu.buttons]
        assert (await stored_session(settings, 1)).status == "cancelled"
