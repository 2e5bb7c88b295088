"""Channel rounds end to end: /post from an instructor's private chat, the channel checks, anonymous timed
quizzes in the channel with explanations on close, and the instructor's copies with 👍/👎."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from telegram import Update

from engines.i18n import text
from storage import Store
from testkit.botharness import bot_running, world
from testkit.roundharness import QUICK_POLLS, quick_pace, replies_to, walk_dialogue

SETTINGS = ["全部章节", "判断", "严谨（贴近教材）", "5"]


def _forwarded(user, channel, update_id: int) -> dict:
    """A private message forwarding one of the channel's posts (the emulator's users cannot forward)."""
    now = int(time.time())
    person = {"id": user.id, "is_bot": False, "first_name": user.first_name}
    return {
        "update_id": update_id,
        "message": {
            "message_id": 10**6,
            "date": now,
            "chat": {"id": user.id, "type": "private", "first_name": user.first_name},
            "from": person,
            "text": "今日一题",
            "forward_origin": {
                "type": "channel",
                "chat": {"id": channel.id, "type": "channel", "title": channel.title},
                "message_id": 1,
                "date": now,
            },
        },
    }


async def test_post_refuses_chats_it_cannot_or_may_not_post_in(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        tina, zed = await client.create_user("Tina"), await client.create_user("Zed")
        settings.telegram.instructors = [tina.id]
        muted = await client.create_channel("地产早知道", [tina], bot="member", username="dichan_news")
        await client.create_channel("交易小课堂", [tina], subscribers=[zed], username="jiaoyi_class")
        group = await client.create_group("备考群", [zed], admins=[tina])
        async with bot_running(emulator, settings) as app:
            await client.send_text(zed, "/post", group)
            assert "私聊中发送 /post" in (await client.next_message(group)).text
            await client.send_text(tina, "@dichan_news")
            assert "请先发送 /post" in (await client.next_message(tina)).text
            await client.send_text(tina, "/post")
            assert "哪个频道" in (await client.next_message(tina)).text
            await client.send_text(tina, "@dichan_news")
            refusal = (await client.next_message(tina)).text
            await app.process_update(Update.de_json(_forwarded(tina, muted, 10**9), app.bot))
            forwarded = (await client.next_message(tina)).text
            await client.send_text(tina, "@nosuchchannel")
            missing = (await client.next_message(tina)).text
            await client.send_text(tina, str(group.id))
            not_channel = (await client.next_message(tina)).text
            await client.send_text(zed, "/post")
            await client.next_message(zed)
            await client.send_text(zed, "@jiaoyi_class")
            stranger = (await client.next_message(zed)).text
            await client.send_text(tina, "@jiaoyi_class")
            menu = await client.next_message(tina)
    assert "不是频道「地产早知道」的管理员" in refusal
    assert forwarded == refusal
    assert "找不到 @nosuchchannel" in missing
    assert "「备考群」不是频道" in not_channel
    assert "只有教师或频道「交易小课堂」的管理员" in stranger
    assert "请选择章节" in menu.text and "全部章节" in [b.text for b in menu.buttons]


async def test_a_channel_round_posts_anonymous_quizzes_explains_them_and_copies_them_to_the_instructor(
    tmp_path: Path, monkeypatch
):
    pace = quick_pace(0.01)  # 30 s questions stay open for 0.3 s; the 1-minute pause lasts 0.6 s
    loop = asyncio.get_running_loop()
    async with world(tmp_path, QUICK_POLLS) as (emulator, client, settings):
        tina, sam = await client.create_user("Tina"), await client.create_user("Sam")
        settings.telegram.instructors = [tina.id]
        channel = await client.create_channel(
            "地产早知道", [tina], subscribers=[sam], username="dichan_daily"
        )
        async with bot_running(emulator, settings, pace):
            await client.send_text(tina, "/post")
            await client.next_message(tina)
            await client.send_text(tina, "@dichan_daily")
            menu = await client.next_message(tina)
            summary = await walk_dialogue(client, tina, menu, [*SETTINGS, "30", "1 分钟"])
            quizzes, copies, pauses, explained_at = [], [], [], None
            for number in range(1, 6):
                quiz = await client.wait_for_poll(channel, timeout=20)
                if explained_at is not None:
                    pauses.append(loop.time() - explained_at)
                await client.vote(sam, quiz, list(quiz.poll.correct_option_ids))
                explained = await client.wait_for_message(channel, replies_to(quiz), timeout=10)
                explained_at = loop.time()
                assert f"第 {number} 题正确答案" in explained.text and "解析" in explained.text
                quizzes.append(quiz)
                copies.append(await client.wait_for_poll(tina, timeout=10))
            done = await client.wait_for_text(tina, "发布完毕", timeout=10)
            vote = await client.press(tina, copies[0], "👎", wait=5)
            reason = await client.wait_for_text(tina, text("zh", "reason_prompt"), timeout=5)
        store = await Store.open(settings.storage.database)
        try:
            shown = [await store.deliveries.by_poll(q.poll.id) for q in quizzes]
            copied = [await store.deliveries.by_poll(c.poll.id) for c in copies]
            recorded = await store.votes.get(tina.id, shown[0].version_id)
            answers = [await store.attempts.for_delivery(d.id) for d in shown]
        finally:
            await store.close()
    assert "地产早知道" in summary.text and "1 分钟" in summary.text
    for number, (quiz, copy) in enumerate(zip(quizzes, copies, strict=True), start=1):
        assert quiz.poll.is_quiz and quiz.poll.is_anonymous
        assert quiz.poll.question.startswith(f"{number}/5 ")
        assert quiz.poll.raw["open_period"] == 0.3
        assert copy.poll.question.startswith(f"📢 地产早知道 {number}/5 ")
        assert [b.text for b in copy.buttons] == ["👍", "👎"]
    assert min(pauses) >= 0.5, "the next question waits for the chosen pause"
    assert [d.version_id for d in copied] == [d.version_id for d in shown]
    assert answers == [[]] * 5, "anonymous votes name nobody"
    assert "共 5 题" in done.text
    assert vote.text == "已记录 👎" and recorded.value == -1
    assert reason.reply_to_message_id == copies[0].message_id


async def test_a_channel_round_resumes_after_a_restart(tmp_path: Path, monkeypatch):
    pace = quick_pace(0.05)
    async with world(tmp_path, QUICK_POLLS) as (emulator, client, settings):
        tina = await client.create_user("Tina")
        settings.telegram.instructors = [tina.id]
        channel = await client.create_channel("地产早知道", [tina], username="dichan_daily")
        async with bot_running(emulator, settings, pace):
            await client.send_text(tina, "/post")
            await client.next_message(tina)
            await client.send_text(tina, "@dichan_daily")
            menu = await client.next_message(tina)
            await walk_dialogue(client, tina, menu, [*SETTINGS, "60", "立即"])
            quiz = await client.wait_for_poll(channel, timeout=20)
        async with bot_running(emulator, settings, pace):
            explained = await client.wait_for_message(channel, replies_to(quiz), timeout=10)
            second = await client.wait_for_poll(channel, timeout=20)
    assert "第 1 题正确答案" in explained.text
    assert second.poll.question.startswith("2/5 ") and second.poll.is_anonymous


async def test_a_channel_admin_who_runs_a_round_may_revise_its_questions(tmp_path: Path, monkeypatch):
    pace = quick_pace(0.05)
    async with world(tmp_path, QUICK_POLLS) as (emulator, client, settings):
        uma = await client.create_user("Uma")  # a channel administrator, not a configured instructor
        channel = await client.create_channel("房产课堂", [uma], username="fangchan_class")
        async with bot_running(emulator, settings, pace):
            await client.send_text(uma, "/post")
            await client.next_message(uma)
            await client.send_text(uma, "@fangchan_class")
            menu = await client.next_message(uma)
            await walk_dialogue(client, uma, menu, [*SETTINGS, "60", "立即"])
            await client.wait_for_poll(channel, timeout=20)
            copy = await client.wait_for_poll(uma, timeout=10)
            await client.press(uma, copy, "👎")
            prompt = await client.wait_for_message(uma, replies_to(copy), timeout=10)
    assert prompt.text == text("zh", "reason_prompt"), "the instructor flow, not a learner report"
