"""A learner's private rounds, end to end: the real PTB Application against the Bot API emulator."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import pytest

import graph.service
from bot.console import run_console
from handlers.context import state
from storage import Store
from testkit.botharness import bot_running, world
from testkit.senders import QuizGate

TYPE_BUTTONS = {"single": "单选", "multi": "多选", "judge": "判断", "mixed": "混合"}


async def choose(
    client, user, qtype: str = "single", count: int = 5, chapter: str = "全部章节", difficulty: str = "不限"
):
    await client.send_text(user, "/quiz")
    menu = await client.next_message(user)
    if "正在进行" in menu.text:  # a round under way is ended first, when asked
        await client.press(user, menu, "结束并重新开始")
        menu = await client.wait_for_edit(menu)
    await client.press(user, menu, chapter)
    menu = await client.wait_for_edit(menu)
    if chapter not in ("全部章节", "仅计算类"):  # one chapter is ticked, then the choice is closed
        await client.press(user, menu, "完成")
        menu = await client.wait_for_edit(menu)
    for label in (TYPE_BUTTONS[qtype], "严谨（贴近教材）", str(count), difficulty):
        await client.press(user, menu, label)
        menu = await client.wait_for_edit(menu)
    await client.press(user, menu, "生成题目")
    return menu


async def writing_shown(client, user, timeout: float = 10):
    """The settings line saying the first question is being written (its live status goes under it)."""
    return await client.wait_for(
        user,
        lambda e: e.message is not None and "正在出第 1 题" in e.message.body,
        kind="edited",
        timeout=timeout,
    )


def wrong_choice(poll) -> list[int]:
    """A wrong answer; for multiple choice, only part of the correct set (graded wrong as a whole)."""
    correct = list(poll.correct_option_ids)
    if len(correct) > 1:
        return correct[:1]
    return [next(i for i in range(len(poll.options)) if i not in correct)]


@pytest.mark.parametrize("qtype", ["single", "multi", "judge"])
async def test_a_round_is_graded_explained_and_scored(tmp_path: Path, qtype: str):
    async with world(tmp_path) as (emulator, client, settings):
        async with bot_running(emulator, settings):
            alice = await client.create_user("Alice")
            await choose(client, alice, qtype, count=5)
            chosen = []
            for number in range(5):
                quiz = await client.wait_for_poll(alice, timeout=20)
                poll = quiz.poll
                assert poll.is_quiz and not poll.is_anonymous
                assert poll.allows_multiple_answers == (qtype == "multi")
                assert quiz.poll.question.startswith(f"{number + 1}/5 ")
                assert len(poll.explanation) <= 200
                if qtype == "judge":
                    assert poll.options == ("A. 正确", "B. 错误")
                if qtype == "multi":
                    assert len(poll.correct_option_ids) >= 2
                answer = list(poll.correct_option_ids) if number % 2 == 0 else wrong_choice(poll)
                chosen.append(answer)
                await client.vote(alice, quiz, answer)
                feedback = await client.wait_for_text(alice, "解析")
                assert ("回答正确" in feedback.text) == (number % 2 == 0)
                assert "教材原文" in feedback.text and "结论" in feedback.text
            # The last explanation ends the round with its score.
            assert "本轮结束：答对 3/5 题" in feedback.text
        store = await Store.open(settings.storage.database)
        try:
            session = await store.sessions.get(1)
            attempts = await store.attempts.for_session(session.id)
        finally:
            await store.close()
    assert session.status == "finished" and session.score == 3
    assert [list(a.option_ids) for a in attempts] == [sorted(c) for c in chosen]
    assert [a.correct for a in attempts] == [True, False, True, False, True]


async def test_mixed_round_cycles_types_and_the_next_question_is_ready(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings), bot_running(emulator, settings) as app:
        bob = await client.create_user("Bob")
        await choose(client, bob, "mixed", count=5)
        first = await client.wait_for_poll(bob, timeout=20)
        await asyncio.sleep(0.5)
        assert state(app).sessions.pending, "question 2 is written while question 1 is answered"
        await client.vote(bob, first, list(first.poll.correct_option_ids))
        second = await client.wait_for_poll(bob, timeout=20)
    assert len(first.poll.correct_option_ids) == 1 and not first.poll.allows_multiple_answers
    assert second.poll.options == ("A. 正确", "B. 错误")


async def test_an_answer_after_a_restart_still_counts(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        carol = await client.create_user("Carol")
        async with bot_running(emulator, settings):
            await choose(client, carol, "single", count=5)
            quiz = await client.wait_for_poll(carol, timeout=20)
        async with bot_running(emulator, settings):
            await client.vote(carol, quiz, list(quiz.poll.correct_option_ids))
            feedback = await client.wait_for_text(carol, "回答正确", timeout=20)
            second = await client.wait_for_poll(carol, timeout=20)
            assert feedback.reply_to_message_id == quiz.message_id
            assert second.poll.question.startswith("2/5 ")


async def test_stale_buttons_stray_text_and_unknown_commands_get_a_helpful_answer(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings), bot_running(emulator, settings):
        dave = await client.create_user("Dave")
        await client.send_text(dave, "/quiz")
        menu = await client.next_message(dave)
        await client.send_text(dave, "第四章")
        hint = await client.next_message(dave)
        assert "按钮" in hint.text
        await client.send_text(dave, "/cancel")
        assert "已取消" in (await client.next_message(dave)).text
        answer = await client.press(dave, menu, "全部章节", wait=5)
        assert answer.answered and "失效" in answer.text
        await client.send_text(dave, "/frobnicate")
        assert "/frobnicate" in (await client.next_message(dave)).text
        await client.send_text(dave, "/stop")
        assert "没有进行中的练习" in (await client.next_message(dave)).text


async def test_a_failed_generation_says_so_and_offers_a_retry(tmp_path: Path):
    kb = tmp_path / "thin.jsonl"
    kb.write_text(
        json.dumps(
            {
                "完整路径": "第一篇  基础 > 第一章  概念 > 第一节  定义 > 一、术语",
                "掌握程度": "掌握",
                "结构化内容": {
                    "context_before": "术语说明。",
                    "key_params": [],
                    "rules": ["术语应当统一使用。"],
                },
            },
            ensure_ascii=False,
        )
        + "\n",
        encoding="utf-8",
    )
    async with world(tmp_path) as (emulator, client, settings):
        settings.data.knowledge_base = kb
        async with bot_running(emulator, settings):
            erin = await client.create_user("Erin")
            await choose(client, erin, "multi", count=1)
            failed = await client.wait_for_text(erin, "没能生成", timeout=20)
            assert [b.text for b in failed.buttons] == ["重试"]
            await client.press(erin, failed, "重试")
            again = await client.wait_for_text(erin, "没能生成", timeout=20)
            assert again.message_id > failed.message_id


class SlowAuthor:
    """The offline author, a second (or `seconds`) slower per draft: long enough to /cancel in the middle."""

    def __init__(self, inner, seconds: float = 1.0) -> None:
        self.inner, self.seconds = inner, seconds
        self.name = "slow"

    def __getattr__(self, name):
        return getattr(self.inner, name)

    async def draft(self, task):
        await asyncio.sleep(self.seconds)
        return await self.inner.draft(task)


async def test_cancel_in_the_middle_of_a_generation(tmp_path: Path, monkeypatch):
    original = graph.service.make_author
    monkeypatch.setattr(graph.service, "make_author", lambda llm: SlowAuthor(original(llm)))
    async with world(tmp_path) as (emulator, client, settings), bot_running(emulator, settings):
        frank = await client.create_user("Frank")
        await choose(client, frank, "judge", count=5)
        await writing_shown(client, frank)
        await client.send_text(frank, "/cancel")
        await client.wait_for_text(frank, "已取消", timeout=10)
        await asyncio.sleep(2.0)
        assert not [m for m in await client.transcript(frank) if m.poll is not None]


async def test_stop_while_the_next_quiz_is_being_posted_ends_the_round_after_it(tmp_path: Path):
    """/stop arriving while the next quiz is on its way: the quiz lands first and the end of the round last,
    never a quiz after 本轮结束."""
    gate = QuizGate("2/5 ")
    async with (
        world(tmp_path) as (emulator, client, settings),
        bot_running(emulator, settings, wrap_sender=gate),
    ):
        gina = await client.create_user("Gina")
        await choose(client, gina, "judge", count=5)
        quiz = await client.wait_for_poll(gina)
        await client.vote(gina, quiz, list(quiz.poll.correct_option_ids))
        await asyncio.wait_for(gate.entered.wait(), 20)
        await client.send_text(gina, "/stop")
        try:
            with pytest.raises(TimeoutError):
                await client.wait_for_text(gina, "本轮结束", timeout=1.0)
        finally:
            gate.release.set()
        await client.wait_for_text(gina, "本轮结束", timeout=10)
        await client.settle(gina, quiet=0.5, timeout=5)
        said = [m for m in await client.transcript(gina) if m.from_bot]
    end = next(i for i, m in enumerate(said) if "本轮结束" in m.body)
    assert sum(m.poll is not None for m in said[:end]) == 2
    assert not [m for m in said[end + 1 :] if m.poll is not None]


async def test_the_console_client_plays_a_round_from_standard_input(tmp_path: Path):
    async with world(tmp_path) as (emulator, _client, settings), bot_running(emulator, settings):
        script = io.StringIO("/quiz\n1\n1\n1\n1\n4\n1\n1\n")  # …, count 1, 不限, 生成题目, vote
        output = io.StringIO()
        code = await run_console(emulator.root_url, "grace", script, output, interactive=False, quiet=1.0)
    shown = output.getvalue()
    assert code == 0
    assert "请选择章节" in shown and "请选择题型" in shown and "每轮题量" in shown
    assert "本轮结束：答对" in shown


async def test_piped_console_input_waits_for_a_question_slower_than_its_quiet_time(
    tmp_path: Path, monkeypatch
):
    """The bot goes quiet while it writes: the script's answer line waits for the poll instead of pressing
    a button of the message before it."""
    original = graph.service.make_author
    monkeypatch.setattr(graph.service, "make_author", lambda llm: SlowAuthor(original(llm), seconds=3.0))
    async with world(tmp_path) as (emulator, _client, settings), bot_running(emulator, settings):
        # …, 3 questions, 不限, 生成题目, then three answers: each next question is written after the last
        # answer, seconds of silence in which the script must not press the answered quiz's 👍.
        script = io.StringIO("/quiz\n1\n1\n1\n2\n4\n1\n1\n1\n1\n")
        output = io.StringIO()
        code = await run_console(emulator.root_url, "hugo", script, output, interactive=False, quiet=0.2)
    shown = output.getvalue()
    assert code == 0
    assert shown.count("your answer: 1") == 3 and "本轮结束：答对" in shown
    assert "(no message with buttons here)" not in shown


async def test_a_round_interrupted_while_writing_resumes_after_a_restart(tmp_path: Path, monkeypatch):
    original = graph.service.make_author
    async with world(tmp_path) as (emulator, client, settings):
        ivy = await client.create_user("Ivy")
        monkeypatch.setattr(graph.service, "make_author", lambda llm: SlowAuthor(original(llm)))
        async with bot_running(emulator, settings):
            await choose(client, ivy, "single", count=5)
            await writing_shown(client, ivy)
        monkeypatch.setattr(graph.service, "make_author", original)
        async with bot_running(emulator, settings):
            quiz = await client.wait_for_poll(ivy, timeout=20)
            assert quiz.poll.question.startswith("1/5 ")


async def test_lang_switches_the_interface_to_english(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings), bot_running(emulator, settings):
        jack = await client.create_user("Jack")
        await client.send_text(jack, "/lang")
        menu = await client.next_message(jack)
        await client.press(jack, menu, "English")
        assert "now in English" in (await client.wait_for_edit(menu)).text
        await client.send_text(jack, "/quiz")
        assert "Choose a chapter" in (await client.next_message(jack)).text


async def test_a_failing_handler_is_logged_and_the_user_told_politely(tmp_path: Path, monkeypatch, caplog):
    async def broken(update, context):
        raise RuntimeError("boom")

    monkeypatch.setattr("handlers.basic.help_command", broken)
    async with world(tmp_path) as (emulator, client, settings), bot_running(emulator, settings) as app:
        kate = await client.create_user("Kate")
        await client.send_text(kate, "/help")
        apology = await client.next_message(kate)
        errors = state(app).metrics.registry.get_sample_value("examforge_errors_total")
    assert "抱歉" in apology.text and "boom" not in apology.text
    assert errors == 1
    assert any("error while handling update" in r.getMessage() for r in caplog.records)
