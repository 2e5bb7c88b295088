"""Who may do what, and what a hostile or clumsy client cannot break: end to end against the Bot API
emulator. Where a real client can send what the emulator's user API refuses (a vote on a forwarded poll,
forged callback data, option ids a poll does not have), the update is put on the bot's queue as Telegram
would deliver it."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

import storage.sessions
from emulator import EmulatorServer
from emulator.views import Button, ChatMessage, EmuUser
from engines import limits
from engines.i18n import text
from engines.limits import DialogueLimit
from handlers.context import state
from storage import Store
from testkit.botharness import bot_running, world
from testkit.roundharness import QUICK_POLLS, quick_pace, start_group_round, wrong_choice
from testkit.senders import QuizGate
from tests.test_bot_private import choose

STALE = text("zh", "stale_button")


def deliver_poll_answer(emulator: EmulatorServer, user: EmuUser, quiz: ChatMessage, option_ids: list[int]):
    """A poll answer as Telegram sends it, for votes the emulator's own checks would refuse."""
    poll = emulator.world.polls[quiz.poll.id]
    emulator.world.updates.push(
        "poll_answer",
        {
            "poll_id": poll.id,
            "user": emulator.world.users[user.id].to_api(),
            "option_ids": option_ids,
            "option_persistent_ids": [f"{poll.id}-{i + 1}" for i in option_ids],
        },
    )


def forge_button(emulator: EmulatorServer, message: ChatMessage, data: str) -> Button:
    """A button with arbitrary callback data on a real message, as a modified client could send."""
    stored = emulator.world.chats[message.chat_id].messages[message.message_id]
    rows = (stored.reply_markup or {}).get("inline_keyboard", [])
    stored.reply_markup = {"inline_keyboard": [*rows, [{"text": data, "callback_data": data}]]}
    return Button(data, data)


def polls_labelled(messages: list[ChatMessage], label: str) -> list[ChatMessage]:
    return [m for m in messages if m.poll is not None and m.poll.question.startswith(label)]


async def test_another_users_answer_to_a_learners_quiz_neither_counts_nor_moves_the_round(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        async with bot_running(emulator, settings):
            alice, bob = await client.create_user("Alice"), await client.create_user("Bob")
            await choose(client, alice, "single", count=5)
            quiz = await client.wait_for_poll(alice, timeout=20)
            # Bob votes on Alice's quiz (forwarded to him): wrong, so a graded vote would say 回答错误.
            deliver_poll_answer(emulator, bob, quiz, wrong_choice(quiz.poll))
            await client.settle(alice, quiet=1.5, timeout=10)
            after_bob = await client.messages_since(alice, quiz.message_id)
            await client.vote(alice, quiz, list(quiz.poll.correct_option_ids))
            feedback = await client.wait_for_text(alice, "解析", timeout=20)
            second = await client.wait_for_poll(alice, timeout=20)
        store = await Store.open(settings.storage.database)
        try:
            attempts = await store.attempts.for_session(1)
        finally:
            await store.close()
    assert after_bob == [], "Bob's vote is neither explained in Alice's chat nor brings her next question"
    assert "回答正确" in feedback.text and feedback.reply_to_message_id == quiz.message_id
    assert second.poll.question.startswith("2/5 ")
    assert [a.user_id for a in attempts] == [alice.id]


async def test_only_those_who_may_start_a_group_round_may_cancel_its_setup(tmp_path: Path, monkeypatch):
    pace = quick_pace(0.05)
    async with (
        world(tmp_path, QUICK_POLLS) as (emulator, client, settings),
        bot_running(emulator, settings, pace),
    ):
        ann, ben = await client.create_user("Ann"), await client.create_user("Ben")
        group = await client.create_group("备考群", [ben], admins=[ann])
        await client.send_text(ann, "/groupquiz", group)
        menu = await client.next_message(group)
        await client.send_text(ben, "/stopquiz", group)
        refusal = await client.next_message(group)
        await client.press(ann, menu, "全部章节")
        menu = await client.wait_for_edit(menu)
        await client.send_text(ann, "/stopquiz", group)
        cancelled = await client.next_message(group)
    assert refusal.text == text("zh", "groupquiz_cancel_not_allowed")
    assert "请选择题型" in menu.text, "the admin's setup survived the member's /stopquiz"
    assert cancelled.text == text("zh", "round_cancelled")


async def test_commands_addressed_to_another_bot_get_no_answer(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings), bot_running(emulator, settings):
        me = await client.bot()
        ann = await client.create_user("Ann")
        group = await client.create_group("备考群", [], admins=[ann])
        for command in ("/start@other_bot", "/frobnicate@other_bot", "/quiz@Other_Bot"):
            await client.send_text(ann, command, group)
        await client.send_text(ann, f"/start@{me.username}", group)
        started = await client.next_message(group)
        await client.send_text(ann, "/frobnicate", group)
        unknown = await client.next_message(group)
        await client.send_text(ann, "/help@other_bot")
        await client.send_text(ann, f"/frobnicate@{me.username.upper()}")
        unknown_private = await client.next_message(ann)
        await client.settle(quiet=1.0, timeout=10)
        said = [m for m in await client.transcript(group) if m.from_bot]
        said_private = [m for m in await client.transcript(ann) if m.from_bot]
    assert started.text == text("zh", "start")
    assert "/frobnicate" in unknown.text, "a bare unknown command is still answered"
    assert [m.message_id for m in said] == [started.message_id, unknown.message_id]
    assert f"/frobnicate@{me.username.upper()}" in unknown_private.text
    assert [m.message_id for m in said_private] == [unknown_private.message_id]


class Clock:
    """Time for the dialogue limit, set by the test; counts how often it was read (once per command)."""

    def __init__(self) -> None:
        self.now, self.reads = 1000.0, 0

    def __call__(self) -> float:
        self.reads += 1
        return self.now

    async def read(self, times: int) -> None:
        async with asyncio.timeout(20):
            while self.reads < times:
                await asyncio.sleep(0.01)


async def test_a_burst_of_quiz_commands_opens_few_menus_and_only_the_newest_is_live(tmp_path: Path):
    clock = Clock()
    async with world(tmp_path) as (emulator, client, settings), bot_running(emulator, settings) as app:
        state(app).dialogues = DialogueLimit(clock=clock)
        alice, bob = await client.create_user("Alice"), await client.create_user("Bob")
        await asyncio.gather(*(client.send_text(alice, "/quiz") for _ in range(100)))
        await client.send_text(bob, "/quiz")
        bobs_menu = await client.next_message(bob)
        await clock.read(101)
        await client.settle(alice, quiet=2.0, timeout=30)  # the menus and the older ones' retirement
        menus = [m for m in await client.transcript(alice) if m.from_bot]
        live = [m for m in menus if m.buttons]
        await client.press(alice, live[0], "全部章节")
        chosen = await client.wait_for_edit(live[0])
        await client.send_text(alice, "/quiz")
        await clock.read(102)  # still within the window: dropped
        clock.now += limits.WINDOW
        await client.send_text(alice, "/quiz")  # the window has passed: a new menu, replacing the old one
        fresh = await client.next_message(alice, timeout=10)
        await client.settle(alice, quiet=1.0, timeout=10)
        after = [m for m in await client.messages_since(alice, chosen.message_id) if m.from_bot]
        replaced = next(m for m in await client.transcript(alice) if m.message_id == chosen.message_id)
    assert len(menus) == limits.DIALOGUES
    assert len(live) == 1 and "请选择章节" in live[0].text
    assert [m.text for m in menus if not m.buttons] == [text("zh", "menu_replaced")] * (limits.DIALOGUES - 1)
    assert "请选择题型" in chosen.text
    assert "请选择章节" in bobs_menu.text, "another learner is served during the burst"
    assert "请选择章节" in fresh.text and [m.message_id for m in after] == [fresh.message_id]
    assert replaced.text == text("zh", "menu_replaced") and not replaced.buttons


class Killed(Exception):
    """Where the process dies: nothing after this point of the delivery runs."""


@pytest.mark.parametrize("crash", ["before_posting", "before_counting"])
async def test_a_restart_after_the_next_question_was_written_does_not_write_it_again(
    tmp_path: Path, monkeypatch, crash: str
):
    """The process dies after question 2 was written and verified — before its quiz was sent, or after it
    was sent but before it was counted. The restarted bot sends question 2 once, and verifies it once."""
    gate = QuizGate("2/5 ", fail=Killed()) if crash == "before_posting" else None
    if crash == "before_counting":
        original = storage.sessions.SessionRepository.advance

        async def advance(self, session_id):
            if (await self.get(session_id)).position == 1:
                raise Killed
            return await original(self, session_id)

        monkeypatch.setattr(storage.sessions.SessionRepository, "advance", advance)
    async with world(tmp_path) as (emulator, client, settings):
        eve = await client.create_user("Eve")
        async with bot_running(emulator, settings, wrap_sender=gate) as app:
            await choose(client, eve, "judge", count=5)
            first = await client.wait_for_poll(eve, timeout=20)
            await client.vote(eve, first, list(first.poll.correct_option_ids))
            async with asyncio.timeout(20):
                while not state(app).metrics.registry.get_sample_value("examforge_errors_total"):
                    await asyncio.sleep(0.05)
        monkeypatch.undo()
        async with bot_running(emulator, settings):
            second = await client.wait_for_message(
                eve, lambda m: m.poll is not None and m.poll.question.startswith("2/5 "), timeout=20
            )
            await client.vote(eve, second, list(second.poll.correct_option_ids))
            third = await client.wait_for_message(
                eve, lambda m: m.poll is not None and m.poll.question.startswith("3/5 "), timeout=20
            )
            await client.settle(eve, quiet=1.0, timeout=10)
            said = [m for m in await client.transcript(eve) if m.from_bot]
    verified = [m for m in said if m.text and "第 2/5 题已校验通过" in m.text]
    assert len(polls_labelled(said, "2/5 ")) == 1
    assert len(verified) == 1, [m.text for m in verified]
    assert third.message_id > second.message_id


async def test_resume_and_an_answer_asking_together_send_one_next_question(tmp_path: Path):
    """Start-up resume and the answer path both ask for the next question of the same round: the learner
    gets question 2 once, and question 3 only after answering it."""
    gate = QuizGate("2/5 ")
    async with (
        world(tmp_path) as (emulator, client, settings),
        bot_running(emulator, settings, wrap_sender=gate) as app,
    ):
        fay = await client.create_user("Fay")
        await choose(client, fay, "judge", count=5)
        first = await client.wait_for_poll(fay, timeout=20)
        await client.vote(fay, first, list(first.poll.correct_option_ids))
        await asyncio.wait_for(gate.entered.wait(), 20)
        # As at start-up, while the answer's delivery is under way.
        resumed = await state(app).sessions.resume()
        gate.release.set()
        second = await client.wait_for_poll(fay, timeout=20)
        await client.settle(fay, quiet=1.5, timeout=20)
        said = [m for m in await client.transcript(fay) if m.from_bot]
    assert resumed == 1, "the round was owed question 2 when resume looked"
    assert polls_labelled(said, "2/5 ") == [second]
    assert polls_labelled(said, "3/5 ") == []


async def test_forged_buttons_and_answers_get_the_stale_notice_and_no_traceback(tmp_path: Path, caplog):
    caplog.set_level(logging.INFO)
    huge = "9" * 40
    async with world(tmp_path) as (emulator, client, settings), bot_running(emulator, settings) as app:
        gus = await client.create_user("Gus")
        await client.send_text(gus, "/quiz")
        menu = await client.next_message(gus)
        nonce = menu.buttons[0].data.split(":")[1]
        forged_menu = [
            f"qs:{nonce}:page:abc",
            f"qs:{nonce}:count:x",
            f"qs:{nonce}:page:{huge}",
            f"qs:{nonce}:count:7",
            f"qs:{nonce}:ch:999",
            f"qs:{nonce}",
            "qs:g1234abcd:gap:7",
            "qs:g1234abcd:sec:10",
            "lang:xx",
            f"sr:{huge}:go",
            f"qr:{huge}",
            "qr:abc",
        ]
        answers = [
            await client.press(gus, menu, forge_button(emulator, menu, data), wait=5) for data in forged_menu
        ]
        menu = await choose(client, gus, "single", count=5)
        quiz = await client.wait_for_poll(gus, timeout=20)
        version = quiz.buttons[0].data.split(":")[1]
        forged_quiz = [f"vote:{huge}:up", "vote:abc:down", f"fb:{huge}:answer", f"fix:{version}:{huge}"]
        answers += [
            await client.press(gus, quiz, forge_button(emulator, quiz, data), wait=5) for data in forged_quiz
        ]
        for option_ids in ([len(quiz.poll.options)], [0, 99]):
            deliver_poll_answer(emulator, gus, quiz, option_ids)
        await client.settle(gus, quiet=1.5, timeout=10)
        after_forgeries = await client.messages_since(gus, quiz.message_id)
        await client.vote(gus, quiz, list(quiz.poll.correct_option_ids))
        feedback = await client.wait_for_text(gus, "解析", timeout=20)
        errors = state(app).metrics.registry.get_sample_value("examforge_errors_total")
    assert [(a.answered, a.text) for a in answers] == [(True, STALE)] * len(answers)
    assert after_forgeries == [], "no apology, no feedback, no next question for a forged answer"
    assert "回答正确" in feedback.text
    assert errors == 0
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_bidi_controls_in_a_name_do_not_reorder_the_leaderboard(tmp_path: Path, monkeypatch):
    pace = quick_pace(0.05)
    async with (
        world(tmp_path, QUICK_POLLS) as (emulator, client, settings),
        bot_running(emulator, settings, pace),
    ):
        ann = await client.create_user("Ann")
        mallory = await client.create_user("Mal\u202elory\u2066", username=None)
        ghost = await client.create_user("\u200f\u202e", username="ghost_user")
        group = await client.create_group("备考群", [mallory, ghost], admins=[ann])
        await start_group_round(client, group, ann, count="1", seconds="120")
        quiz = await client.wait_for_poll(group, timeout=20)
        await client.vote(mallory, quiz, list(quiz.poll.correct_option_ids))
        await asyncio.sleep(0.2)
        await client.vote(ghost, quiz, wrong_choice(quiz.poll))
        await client.send_text(ann, "/stopquiz", group)
        board = await client.wait_for_text(group, "排行榜", timeout=10)
        await client.send_text(ann, "/leaderboard", group)
        standing = await client.wait_for_text(group, "本周", timeout=10)
    controls = {chr(c) for c in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))}
    for shown in (board.text, standing.text):
        assert not controls & set(shown)
        assert "🥇 Mallory — 1 分" in shown
        assert "🥈 @ghost_user — 0 分" in shown
