"""Group rounds and leaderboards."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from storage import ConflictError, InvalidValueError, Store
from storage.deliveries import Delivery
from storage.quiz_settings import QuizSettings
from storage.rounds import week_start
from tests.test_storage_support import (
    MONDAY_10AM_SHANGHAI,
    Clock,
    World,
    deliver,
    make_world,
    vat_question,
)
from vocabulary.records import GenerationRequest

SHANGHAI = ZoneInfo("Asia/Shanghai")
HOUR, DAY = 3600.0, 86400.0
PLAYERS = {21: "甲", 22: "乙", 23: "丙", 24: "丁"}


async def add_players(store: Store) -> None:
    for user_id, name in PLAYERS.items():
        await store.users.upsert(user_id, name)


async def post(store: Store, world: World, poll_id: str, **extra: int | None) -> Delivery:
    return await deliver(store, world.version.id, world.chat_id, poll_id, **extra)


async def answer(
    store: Store, clock: Clock, delivery: Delivery, user_id: int, right: bool, after: float
) -> None:
    """Answer `after` seconds after the delivery (the deed-tax question's right option is index 1)."""
    clock.now = delivery.delivered_at + after
    await store.attempts.record(delivery.id, user_id, [1] if right else [0])


async def test_round_lifecycle_allows_one_live_round_per_chat(store: Store) -> None:
    world = await make_world(store)
    settings = QuizSettings(qtype="mixed", mode="flexible", count=5)
    created = await store.rounds.create(world.chat_id, world.user_id, settings)
    assert (created.status, created.question_count, created.settings) == ("preparing", 5, settings)
    with pytest.raises(ConflictError, match=f"chat {world.chat_id} already has round {created.id} preparing"):
        await store.rounds.create(world.chat_id, world.user_id, settings)
    assert await store.rounds.advance(created.id) is None
    assert not await store.rounds.finish(created.id)

    assert await store.rounds.start(created.id, question_count=4)
    assert not await store.rounds.start(created.id, question_count=4)
    assert [await store.rounds.advance(created.id) for _ in range(2)] == [1, 2]
    running = await store.rounds.live(world.chat_id)
    assert (running.status, running.position, running.question_count) == ("running", 2, 4)
    assert await store.rounds.finish(created.id)
    assert not await store.rounds.cancel(created.id)
    assert await store.rounds.live(world.chat_id) is None

    next_round = await store.rounds.create(world.chat_id, world.user_id, settings)
    assert await store.rounds.cancel(next_round.id)
    assert (await store.rounds.get(next_round.id)).status == "cancelled"
    with pytest.raises(InvalidValueError, match="question_count: 0"):
        await store.rounds.start(next_round.id, question_count=0)


async def test_round_leaderboard_breaks_score_ties_by_time_on_correct_answers(
    store: Store, clock: Clock
) -> None:
    world = await make_world(store)
    await add_players(store)
    game = await store.rounds.create(world.chat_id, world.user_id, QuizSettings(count=2))
    await store.rounds.start(game.id, question_count=2)
    q1 = await post(store, world, "r1", round_id=game.id, position=1, open_period=30)
    q2 = await post(store, world, "r2", round_id=game.id, position=2, open_period=30)
    await answer(store, clock, q1, 21, True, 9)
    await answer(store, clock, q2, 21, True, 9)  # 甲: 2 right, 18 s
    await answer(store, clock, q1, 22, True, 4)
    await answer(store, clock, q2, 22, True, 6)  # 乙: 2 right, 10 s
    await answer(store, clock, q1, 23, True, 2)
    await answer(store, clock, q2, 23, False, 1)  # 丙: 1 right, 2 s (the fast wrong answer earns nothing)
    await answer(store, clock, q1, 24, False, 1)  # 丁: 0 right

    board = await store.rounds.leaderboard(game.id)
    assert [(s.rank, s.name, s.correct, s.answered, s.seconds) for s in board] == [
        (1, "乙", 2, 2, 10.0),
        (2, "甲", 2, 2, 18.0),
        (3, "丙", 1, 2, 2.0),
        (4, "丁", 0, 1, 0.0),
    ]
    assert [s.user_id for s in await store.rounds.leaderboard(game.id, limit=2)] == [22, 21]


async def test_equal_players_keep_a_stable_order(store: Store, clock: Clock) -> None:
    world = await make_world(store)
    await add_players(store)
    delivery = await post(store, world, "tie")
    for user_id in (24, 22):
        await answer(store, clock, delivery, user_id, True, 5)
    assert [s.user_id for s in await store.rounds.chat_leaderboard(world.chat_id)] == [22, 24]


async def test_this_week_counts_from_monday_midnight_while_all_time_counts_everything(
    store: Store, clock: Clock
) -> None:
    world = await make_world(store)
    await add_players(store)
    clock.now = MONDAY_10AM_SHANGHAI - 11 * HOUR  # Sunday 23:00, last week
    last_week = await post(store, world, "sunday")
    await answer(store, clock, last_week, 21, True, 30)
    await answer(store, clock, last_week, 22, True, 50)
    clock.now = MONDAY_10AM_SHANGHAI - 9 * HOUR  # Monday 01:00, this week
    this_week = await post(store, world, "monday")
    await answer(store, clock, this_week, 22, True, 5)
    await answer(store, clock, this_week, 23, True, 8)
    other_chat = await make_world(store, chat_id=-200)
    elsewhere = await post(store, other_chat, "other-group")
    await answer(store, clock, elsewhere, 24, True, 1)
    clock.now = MONDAY_10AM_SHANGHAI + 2 * DAY

    week = await store.rounds.week_leaderboard(world.chat_id, SHANGHAI)
    assert [(s.user_id, s.correct) for s in week] == [(22, 1), (23, 1)]
    all_time = await store.rounds.chat_leaderboard(world.chat_id)
    assert [(s.user_id, s.correct, s.seconds) for s in all_time] == [
        (22, 2, 55.0),
        (23, 1, 8.0),
        (21, 1, 30.0),
    ]


def test_week_starts_on_monday_in_the_given_zone() -> None:
    sunday_night = datetime(2026, 3, 8, 23, 59, tzinfo=SHANGHAI)
    assert week_start(sunday_night) == MONDAY_10AM_SHANGHAI - 10 * HOUR
    assert (
        week_start(datetime(2026, 3, 9, 0, 0, tzinfo=SHANGHAI)) == MONDAY_10AM_SHANGHAI - 10 * HOUR + 7 * DAY
    )
    with pytest.raises(InvalidValueError, match="time-zone-aware"):
        week_start(datetime(2026, 3, 9))


async def test_round_deliveries_and_questions_are_listed_in_order(store: Store) -> None:
    world = await make_world(store)
    game = await store.rounds.create(world.chat_id, world.user_id, QuizSettings(count=2))
    version = await store.questions.record(
        GenerationRequest(chat_id=world.chat_id, question_id="round-q2", qtype="multi"),
        vat_question(),
        round_id=game.id,
    )
    second = await deliver(store, version.id, world.chat_id, "b", round_id=game.id, position=2)
    first = await post(store, world, "a", round_id=game.id, position=1)
    assert [d.id for d in await store.deliveries.for_round(game.id)] == [first.id, second.id]
    assert (await store.questions.get(version.question_id)).round_id == game.id
