"""Group rounds end to end: the real PTB Application against the Bot API emulator's groups, administrators
and timed quiz polls, with round time shrunk (see testkit/roundharness.py)."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from dataclasses import replace
from pathlib import Path

from telegram import Update

import graph.service
from engines.clock import WallClock
from engines.i18n import text
from handlers import pacing
from handlers.context import state
from storage import Store
from testkit.botharness import bot_running, world
from testkit.roundharness import QUICK_POLLS, quick_pace, replies_to, start_group_round, wrong_choice
from tests.test_bot_private import SlowAuthor
from vocabulary.records import GenerationRequest, Question

SECOND = 0.05


async def test_a_round_scores_members_ranks_ties_by_time_and_ends_with_a_leaderboard(
    tmp_path: Path, monkeypatch
):
    pace = quick_pace(SECOND)
    async with (
        world(tmp_path, QUICK_POLLS) as (emulator, client, settings),
        bot_running(emulator, settings, pace),
    ):
        ann, ben, cai, dee, eve = [
            await client.create_user(name) for name in ("Ann", "Ben", "Cai", "Dee", "Eve")
        ]
        group = await client.create_group("备考群", [ben, cai, dee, eve], admins=[ann])
        await start_group_round(client, group, ann, count="5", seconds="30")
        polls = []
        for number in range(1, 6):
            quiz = await client.wait_for_poll(group, timeout=20)
            poll = quiz.poll
            polls.append(quiz)
            assert poll.question.startswith(f"{number}/5 ")
            assert poll.is_quiz and not poll.is_anonymous
            assert poll.raw["open_period"] == 30 * SECOND
            right, wrong = list(poll.correct_option_ids), wrong_choice(poll)
            await client.vote(ann, quiz, right)
            await asyncio.sleep(0.2)  # Ben answers as well as Ann, but later
            await client.vote(ben, quiz, right)
            await client.vote(cai, quiz, right if number <= 3 else wrong)
            await client.vote(dee, quiz, wrong)
            explained = await client.wait_for_message(group, replies_to(quiz), timeout=10)
            assert f"第 {number} 题正确答案" in explained.text and "解析" in explained.text
            assert f"答对 {3 if number <= 3 else 2}/4 人" in explained.text
        board = await client.wait_for_text(group, "排行榜", timeout=10)
        await asyncio.sleep(pace.close_grace)  # the last close timer would have fired by now
        transcript = await client.transcript(group)
    lines = board.text.splitlines()[1:]
    assert [line.split(" — ")[0] for line in lines] == ["🥇 Ann", "🥈 Ben", "🥉 Cai", "4. Dee"]
    assert [re.search(r"(\d+) 分", line)[1] for line in lines] == ["5", "5", "3", "0"]
    times = [float(re.search(r"用时 ([\d.]+) 秒", line)[1]) for line in lines]
    assert times[0] < times[1], "the tie between Ann and Ben goes to the faster"
    for quiz in polls:
        assert len([m for m in transcript if m.reply_to_message_id == quiz.message_id]) == 1


async def _backdate(settings, group, user, days: float, correct: int) -> None:
    """Answers `user` gave in the group `days` ago, stored before the bot starts."""
    past = time.time() - days * 86400
    store = await Store.open(settings.storage.database, clock=lambda: past)
    try:
        await store.users.upsert(user.id, user.first_name)
        await store.chats.upsert(group.id, "supergroup", group.title)
        question = Question(
            qtype="judge",
            stem="定金不得超过主合同标的额的20%。（　）",
            options=["正确", "错误"],
            answer=["A"],
            explanation="教材依据：定金上限。结论：正确。",
        )
        for number in range(correct):
            request = GenerationRequest(chat_id=group.id, question_id=f"past{number}", qtype="judge")
            version = await store.questions.record(request, question)
            delivery = await store.deliveries.record(
                poll_id=f"past-poll-{number}",
                version_id=version.id,
                chat_id=group.id,
                message_id=900_000 + number,
                kind="group",
            )
            await store.attempts.record(delivery.id, user.id, [0])
    finally:
        await store.close()


def _section(board: str, title: str) -> list[str]:
    lines = board.splitlines()
    start = lines.index(title) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("【")), len(lines))
    return lines[start:end]


async def test_leaderboard_shows_this_week_and_all_time_over_rounds(tmp_path: Path, monkeypatch):
    pace = quick_pace(SECOND)
    async with world(tmp_path, QUICK_POLLS) as (emulator, client, settings):
        ann, ben = await client.create_user("Ann"), await client.create_user("Ben")
        group = await client.create_group("备考群", [ben], admins=[ann])
        await _backdate(settings, group, ben, days=35, correct=2)
        async with bot_running(emulator, settings, pace):
            for ben_right in (False, True):
                await start_group_round(client, group, ann, count="1", seconds="30", qtype="判断")
                quiz = await client.wait_for_poll(group, timeout=20)
                right = list(quiz.poll.correct_option_ids)
                await client.vote(ann, quiz, right)
                await client.vote(ben, quiz, right if ben_right else wrong_choice(quiz.poll))
                await client.wait_for_text(group, "排行榜", timeout=10)
            await client.send_text(ben, "/leaderboard", group)
            board = (await client.wait_for_text(group, "本群排行榜")).text
    week, ever = _section(board, "【本周】"), _section(board, "【总榜】")
    assert [(line.split(" — ")[0], re.search(r"(\d+) 分", line)[1]) for line in week] == [
        ("🥇 Ann", "2"),
        ("🥈 Ben", "1"),
    ]
    assert [(line.split(" — ")[0], re.search(r"(\d+) 分", line)[1]) for line in ever] == [
        ("🥇 Ben", "3"),
        ("🥈 Ann", "2"),
    ]


async def test_the_timer_and_the_poll_update_never_both_close_a_poll(tmp_path: Path, monkeypatch):
    """The poll update is held back here until after the timer has closed the poll and posted the next."""
    pace = quick_pace(SECOND)
    pace = replace(pace, close_settle=pace.close_grace + 0.5)
    async with (
        world(tmp_path, QUICK_POLLS) as (emulator, client, settings),
        bot_running(emulator, settings, pace),
    ):
        ann = await client.create_user("Ann")
        group = await client.create_group("备考群", [], admins=[ann])
        await start_group_round(client, group, ann, count="5", seconds="30", qtype="判断")
        first = await client.wait_for_poll(group, timeout=20)
        second = await client.wait_for_poll(group, timeout=10)
        await asyncio.sleep(1.0)  # the held-back update for the first poll is handled meanwhile
        transcript = await client.transcript(group)
        await client.send_text(ann, "/stopquiz", group)
        await client.wait_for_text(group, "排行榜", timeout=5)
    assert second.poll.question.startswith("2/5 ")
    assert len([m for m in transcript if m.reply_to_message_id == first.message_id]) == 1
    assert [m.message_id for m in transcript if m.poll is not None] == [first.message_id, second.message_id]


async def test_only_admins_start_a_round_and_only_the_initiator_sets_it_up(tmp_path: Path, monkeypatch):
    pace = quick_pace(SECOND)
    async with (
        world(tmp_path, QUICK_POLLS) as (emulator, client, settings),
        bot_running(emulator, settings, pace),
    ):
        ann, ben = await client.create_user("Ann"), await client.create_user("Ben")
        group = await client.create_group("备考群", [ben], admins=[ann])
        await client.send_text(ben, "/groupquiz", group)
        refusal = await client.next_message(group)
        assert "只有群管理员或教师" in refusal.text and not refusal.buttons
        await client.send_text(ben, "/groupquiz")
        assert "请在群组中使用" in (await client.next_message(ben)).text
        await client.send_text(ann, "/groupquiz", group)
        menu = await client.next_message(group)
        notice = await client.press(ben, menu, "全部章节", wait=5)
        assert notice.answered and "只有发起人" in notice.text
        await client.press(ann, menu, "全部章节")
        menu = await client.wait_for_edit(menu)
        assert "请选择题型" in menu.text
        await client.send_text(ann, "/stopquiz", group)
        assert "已取消" in (await client.next_message(group)).text
        assert (
            await client.press(ann, menu, "单选", wait=5)
        ).text == "这个按钮已失效，请发送 /quiz 重新开始。"


async def test_votes_work_in_a_group_and_stopquiz_ends_the_round_early_with_the_leaderboard(
    tmp_path: Path, monkeypatch
):
    pace = quick_pace(SECOND)
    async with world(tmp_path, QUICK_POLLS) as (emulator, client, settings):
        ann, ben = await client.create_user("Ann"), await client.create_user("Ben")
        group = await client.create_group("备考群", [ben], admins=[ann])
        async with bot_running(emulator, settings, pace):
            await start_group_round(client, group, ann, count="5", seconds="120")
            quiz = await client.wait_for_poll(group, timeout=20)
            await client.vote(ann, quiz, list(quiz.poll.correct_option_ids))
            await client.vote(ben, quiz, wrong_choice(quiz.poll))
            thumbs_up = await client.press(ben, quiz, "👍", wait=5)
            await client.press(ann, quiz, "👎")
            reasons = await client.wait_for_message(group, replies_to(quiz), timeout=5)
            await client.send_text(ben, "/stopquiz", group)
            assert "只有发起人" in (await client.next_message(group)).text
            await client.send_text(ann, "/stopquiz", group)
            explained = await client.wait_for_message(group, replies_to(quiz), timeout=5)
            board = await client.wait_for_text(group, "排行榜", timeout=5)
            await asyncio.sleep(0.5)
            after = await client.messages_since(group, board.message_id)
            closed = next(m for m in await client.transcript(group) if m.message_id == quiz.message_id)
        store = await Store.open(settings.storage.database)
        try:
            stored = await store.rounds.get(1)
        finally:
            await store.close()
    assert thumbs_up.text == "感谢反馈 👍"
    assert reasons.text == text("zh", "reason_prompt"), (
        "a group administrator's 👎 asks for a revision reason"
    )
    assert "答对 1/2 人" in explained.text
    assert board.text.splitlines()[1].startswith("🥇 Ann — 1 分")
    assert board.text.splitlines()[2].startswith("🥈 Ben — 0 分")
    assert closed.poll.is_closed, "the open poll is stopped, well before its 120 s"
    assert [m.poll for m in after if m.poll is not None] == []
    assert stored.status == "finished" and stored.position == 1


async def test_a_restart_mid_round_loses_no_answer_and_goes_on_with_the_next_question(
    tmp_path: Path, monkeypatch
):
    pace = quick_pace(SECOND)
    async with world(tmp_path, QUICK_POLLS) as (emulator, client, settings):
        ann, ben = await client.create_user("Ann"), await client.create_user("Ben")
        group = await client.create_group("备考群", [ben], admins=[ann])
        async with bot_running(emulator, settings, pace):
            await start_group_round(client, group, ann, count="5", seconds="120")
            quiz = await client.wait_for_poll(group, timeout=20)
            await client.vote(ann, quiz, list(quiz.poll.correct_option_ids))
        await client.vote(ben, quiz, list(quiz.poll.correct_option_ids))  # while the bot is down
        async with bot_running(emulator, settings, pace):
            explained = await client.wait_for_message(group, replies_to(quiz), timeout=15)
            second = await client.wait_for_poll(group, timeout=10)
            await client.send_text(ann, "/stopquiz", group)
            board = await client.wait_for_text(group, "排行榜", timeout=10)
    assert "答对 2/2 人" in explained.text
    assert second.poll.question.startswith("2/5 ")
    assert board.text.splitlines()[1].startswith("🥇 Ann — 1 分")
    assert board.text.splitlines()[2].startswith("🥈 Ben — 1 分")


async def test_an_answer_that_arrives_after_the_poll_closed_is_not_counted(tmp_path: Path, monkeypatch):
    pace = quick_pace(SECOND)
    async with world(tmp_path, QUICK_POLLS) as (emulator, client, settings):
        ann, ben = await client.create_user("Ann"), await client.create_user("Ben")
        group = await client.create_group("备考群", [ben], admins=[ann])
        async with bot_running(emulator, settings, pace) as app:
            await start_group_round(client, group, ann, count="1", seconds="30", qtype="判断")
            quiz = await client.wait_for_poll(group, timeout=20)
            right = list(quiz.poll.correct_option_ids)
            await client.vote(ann, quiz, right)
            await client.wait_for_text(group, "排行榜", timeout=10)
            # Telegram delivers Ben's answer only now, after the explanation and the leaderboard.
            options = quiz.poll.raw["options"]
            late = {
                "update_id": 10**9,
                "poll_answer": {
                    "poll_id": quiz.poll.id,
                    "user": {"id": ben.id, "is_bot": False, "first_name": "Ben"},
                    "option_ids": right,
                    "option_persistent_ids": [options[i]["persistent_id"] for i in right],
                },
            }
            await app.process_update(Update.de_json(late, app.bot))
            await client.send_text(ben, "/leaderboard", group)
            board = (await client.wait_for_text(group, "本群排行榜")).text
        store = await Store.open(settings.storage.database)
        try:
            delivery = await store.deliveries.by_poll(quiz.poll.id)
            answers = await store.attempts.for_delivery(delivery.id)
        finally:
            await store.close()
    assert [a.user_id for a in answers] == [ann.id]
    assert "Ben" not in board


async def test_a_twenty_question_round_posts_at_most_twenty_messages_a_minute(tmp_path: Path, monkeypatch):
    # Questions open for 0.15 s, far shorter than the pacing interval: unpaced, the posts would bunch up.
    # The pacing rule is scaled by 0.05 (3 s → 0.15 s, 60 s → 3 s), and AIORateLimiter's own group limit is
    # off, so what is measured is the bot's pacing alone.
    scale = 0.05
    pace = quick_pace(second=0.01, pace=scale, rate_limiter=False)
    pace = replace(pace, close_settle=0.05)
    async with (
        world(tmp_path, QUICK_POLLS) as (emulator, client, settings),
        bot_running(emulator, settings, pace),
    ):
        ann = await client.create_user("Ann")
        group = await client.create_group("备考群", [], admins=[ann])
        await start_group_round(client, group, ann, count="20", seconds="15", qtype="判断")
        await client.wait_for_text(group, "排行榜", timeout=60)
        sent = await client.bot_send_times(group)
        polls = [m for m in await client.transcript(group) if m.poll is not None]
    assert len(polls) == 20
    assert len(sent) >= 43, "menu, progress, 20 polls, 20 explanations and the leaderboard"
    window, gap = 60 * scale, 3 * scale
    assert min(b - a for a, b in itertools.pairwise(sent)) >= gap
    assert max(sum(1 for t in sent if start <= t < start + window) for start in sent) <= 20


async def test_the_pacer_waits_for_room_in_the_window():
    pacer, sent = pacing.Pacer(WallClock(), interval=0.0, window=0.5, limit=3), []
    for messages in (1, 2, 2):
        async with pacer.turn(messages):
            sent.append(time.monotonic())
    assert sent[1] - sent[0] < 0.1, "three messages fit in the window"
    assert sent[2] - sent[0] >= 0.5, "two more wait until the first two have left it"


THIN_SLICE = {
    "完整路径": "第一篇  基础 > 第一章  概念 > 第一节  定义 > 一、术语",
    "掌握程度": "掌握",
    "结构化内容": {"context_before": "术语说明。", "key_params": [], "rules": ["术语应当统一使用。"]},
}


async def test_fewer_questions_than_asked_are_offered_to_the_initiator(tmp_path: Path, monkeypatch):
    pace = quick_pace(SECOND)
    kb = tmp_path / "thin.jsonl"
    kb.write_text(json.dumps(THIN_SLICE, ensure_ascii=False) + "\n", encoding="utf-8")
    async with world(tmp_path, QUICK_POLLS) as (emulator, client, settings):
        settings.data.knowledge_base = kb
        async with bot_running(emulator, settings, pace):
            ann, ben = await client.create_user("Ann"), await client.create_user("Ben")
            group = await client.create_group("备考群", [ben], admins=[ann])
            await start_group_round(client, group, ann, count="5", seconds="30", qtype="混合")
            offer = await client.wait_for_text(group, "通过了校验", timeout=20)
            ready = int(re.search(r"只有 (\d)/5", offer.text)[1])
            notice = await client.press(ben, offer, f"开始（{ready} 题）", wait=5)
            await client.press(ann, offer, f"开始（{ready} 题）")
            started = await client.wait_for_edit(offer)
            numbers = [
                (await client.wait_for_poll(group, timeout=10)).poll.question[:4] for _ in range(ready)
            ]
            await client.wait_for_text(group, "排行榜", timeout=10)
    assert 0 < ready < 5
    assert [b.text for b in offer.buttons] == [f"开始（{ready} 题）", "取消"]
    assert "只有发起人" in notice.text
    assert f"共 {ready} 题" in started.text and not started.buttons
    assert numbers == [f"{n}/{ready} " for n in range(1, ready + 1)]


async def test_a_restart_while_questions_are_written_ends_that_round_and_frees_the_group(
    tmp_path: Path, monkeypatch
):
    pace = quick_pace(SECOND)
    original = graph.service.make_author
    async with world(tmp_path, QUICK_POLLS) as (emulator, client, settings):
        ann = await client.create_user("Ann")
        group = await client.create_group("备考群", [], admins=[ann])
        monkeypatch.setattr(graph.service, "make_author", lambda llm: SlowAuthor(original(llm)))
        async with bot_running(emulator, settings, pace) as app:
            await start_group_round(client, group, ann, count="5", seconds="30")
            await client.wait_for_text(group, "正在出题", timeout=10)
            for running in state(app).rounds.live.values():
                running.task.cancel()  # the process dies while the questions are being written
        monkeypatch.setattr(graph.service, "make_author", original)
        async with bot_running(emulator, settings, pace):
            notice = await client.wait_for_text(group, "重启而中断", timeout=10)
            await start_group_round(client, group, ann, count="1", seconds="30")
            quiz = await client.wait_for_poll(group, timeout=20)
    assert notice and quiz.poll.question.startswith("1/1 ")
