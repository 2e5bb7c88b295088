"""/settings end to end: the learner's defaults are stored and /quiz starts from them, the language follows
the Telegram app until chosen, and an old menu's buttons no longer act."""

from __future__ import annotations

from pathlib import Path

from handlers.context import state
from storage import Store
from testkit.botharness import bot_running, world


async def pick(client, user, menu, *labels: str):
    """Press each label on the menu, which is edited in place after every press; the menu at the end."""
    for label in labels:
        await client.press(user, menu, label)
        menu = await client.wait_for_edit(menu)
    return menu


async def test_defaults_are_stored_and_quiz_starts_from_them(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        async with bot_running(emulator, settings) as app:
            chapters = [c for c in state(app).sources.tree.chapters if c.slices]
            cara = await client.create_user("Cara")
            await client.send_text(cara, "/settings")
            menu = await client.next_message(cara)
            assert "练习：全部章节｜混合｜严谨（贴近教材）｜不限｜生成题目｜5 题" in menu.text
            assert "每日复习提醒：关闭" in menu.text and "时区：Asia/Shanghai" in menu.text
            menu = await pick(client, cara, menu, "章节", chapters[1].name, chapters[3].name, "完成")
            changes = ("题型", "单选", "题量", "3", "难度", "易", "来源", "真题练习")
            menu = await pick(client, cara, menu, *changes)
            line = f"练习：{chapters[1].name}、{chapters[3].name}｜单选｜严谨（贴近教材）｜易｜真题练习｜3 题"
            assert line in menu.text

            await client.send_text(cara, "/quiz")
            dialogue = await client.next_message(cara)
            assert f"我的默认设置：{line.removeprefix('练习：')}" in dialogue.text
            ticked = [b.text for b in dialogue.buttons if b.text.startswith("✓ ")]
            assert len(ticked) == 2 and "完成" in [b.text for b in dialogue.buttons]
            await client.press(cara, dialogue, "按我的默认设置开始")
            summary = await client.wait_for_edit(dialogue)
            assert f"设置：{line.removeprefix('练习：')}" in summary.text
        store = await Store.open(settings.storage.database)
        try:
            session = await store.sessions.get(1)
        finally:
            await store.close()
    chosen = session.settings
    assert chosen.chapters == (chapters[1].key, chapters[3].key)
    assert (chosen.qtype, chosen.count) == ("single", 3)
    assert (chosen.difficulty, chosen.source) == ("easy", "past_papers")


async def test_language_follows_telegram_until_chosen_and_old_menus_expire(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        dan = await client.create_user("Dan", language_code="en-GB")
        async with bot_running(emulator, settings):
            await client.send_text(dan, "/settings")
            menu = await client.next_message(dan)
            assert "My settings" in menu.text and "Language: English" in menu.text
            menu = await pick(client, dan, menu, "Language", "中文")
            assert "我的设置" in menu.text and "语言：中文" in menu.text

            await client.send_text(dan, "/settings")
            await client.next_message(dan)
            replaced = await client.wait_for_edit(menu)
            assert "新的菜单取代" in replaced.text and not replaced.buttons
            await client.send_text(dan, "/settings")
            menu = await client.next_message(dan)
        async with bot_running(emulator, settings):
            # A menu from before a restart belongs to no dialogue any more.
            answer = await client.press(dan, menu, "题型", wait=5)
            assert answer.answered and "失效" in answer.text
