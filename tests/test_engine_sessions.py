"""The session engine's Telegram-free rules: the results card and the question type of each place."""

from __future__ import annotations

from engines.sessions import question_type, results_card
from storage.attempts import Attempt
from storage.deliveries import Delivery
from storage.quiz_settings import QuizSettings


def delivery(number: int) -> Delivery:
    return Delivery(
        id=10 + number,
        poll_id=f"p{number}",
        version_id=number,
        chat_id=1,
        message_id=number,
        kind="private",
        anonymous=False,
        session_id=1,
        round_id=None,
        position=number,
        delivered_at=0.0,
        open_period=None,
        close_at=None,
        closed=False,
    )


def attempt(number: int, correct: bool, seconds: float) -> Attempt:
    return Attempt(
        id=number,
        delivery_id=10 + number,
        version_id=number,
        user_id=7,
        option_ids=(0,),
        correct=correct,
        seconds=seconds,
        answered_at=seconds,
    )


def test_the_card_marks_each_question_with_its_time_and_ends_with_the_score():
    card = results_card(
        "zh",
        [delivery(2), delivery(1), delivery(3)],
        [attempt(1, True, 12.4), attempt(2, False, 31.6)],
        3,
    )
    assert card.splitlines() == [
        "1. ✓ 用时 12 秒",
        "2. ✗ 用时 32 秒",
        "3. — 未作答",
        "本轮结束：答对 1/3 题。",
    ]


def test_the_card_speaks_the_learners_language():
    assert results_card("en", [delivery(1)], [attempt(1, False, 5)], 1).splitlines() == [
        "1. ✗ 5 s",
        "Round finished: 0/1 correct.",
    ]


def test_a_mixed_round_cycles_the_three_types():
    mixed = QuizSettings(qtype="mixed")
    assert [question_type(mixed, p) for p in range(1, 5)] == ["single", "judge", "multi", "single"]
