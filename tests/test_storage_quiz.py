"""Users, chats, private sessions, question versions, deliveries and answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import ConflictError, InvalidValueError, NotFoundError, SchemaError, Store
from storage.quiz_settings import QuizSettings
from tests.test_storage_support import (
    Clock,
    deed_tax_question,
    deliver,
    make_world,
    vat_question,
)
from vocabulary.records import GenerationRequest, SamplerState


async def test_upsert_refreshes_names_but_keeps_the_chosen_locale(store: Store) -> None:
    await store.users.upsert(5, "张伟", "zhangwei")
    assert await store.users.get_locale(5) is None
    await store.users.set_locale(5, "en")
    await store.users.upsert(5, "张伟 (Wei)", None)
    updated = await store.users.get(5)
    assert updated is not None
    assert (updated.name, updated.username, updated.locale) == ("张伟 (Wei)", None, "en")
    await store.users.set_locale(5, None)
    assert await store.users.get_locale(5) is None


async def test_an_unchanged_user_or_chat_is_not_rewritten_on_every_update(store: Store) -> None:
    """Every update brings the sender's names; only a change may cost a committed write."""
    raw = store.db.conn.raw
    await store.users.upsert(5, "张伟", "zhangwei")
    await store.chats.upsert(5, "private", "张伟")
    written = raw.total_changes
    for _ in range(3):
        await store.users.upsert(5, "张伟", "zhangwei")
        await store.chats.upsert(5, "private", "张伟")
    assert raw.total_changes == written
    await store.users.upsert(5, "张伟", "wei")
    await store.chats.upsert(5, "private", "Wei")
    assert raw.total_changes == written + 2
    user, chat = await store.users.get(5), await store.chats.get(5)
    assert user is not None and user.username == "wei"
    assert chat is not None and chat.title == "Wei"


async def test_bad_locale_and_unknown_user_are_named(store: Store) -> None:
    await store.users.upsert(5, "张伟")
    with pytest.raises(InvalidValueError, match="locale: 'fr' is not one of 'zh', 'en'"):
        await store.users.set_locale(5, "fr")
    with pytest.raises(NotFoundError, match="user 6 is not stored"):
        await store.users.set_locale(6, "zh")


async def test_sampler_state_survives_a_restart(db_path: Path, clock: Clock) -> None:
    store = await Store.open(db_path, clock)
    await store.chats.upsert(42, "private")
    assert await store.chats.get_sampler_state(42) == SamplerState()
    await store.chats.put_sampler_state(42, SamplerState(used=["kb:3", "kb:17"], draws=2))
    await store.close()
    store = await Store.open(db_path, clock)
    try:
        assert await store.chats.get_sampler_state(42) == SamplerState(used=["kb:3", "kb:17"], draws=2)
        with pytest.raises(NotFoundError, match="chat 43 is not stored"):
            await store.chats.put_sampler_state(43, SamplerState())
    finally:
        await store.close()


async def test_new_quiz_cancels_the_learners_active_session_in_that_chat(store: Store) -> None:
    world = await make_world(store, chat_id=42, chat_type="private")
    settings = QuizSettings(chapters=(("第三篇 交易", "第二章 税费"),), qtype="single", count=3)
    first = await store.sessions.create(world.chat_id, world.user_id, settings)
    second = await store.sessions.create(world.chat_id, world.user_id, QuizSettings(qtype="judge"))
    assert (await store.sessions.get(first.id)).status == "cancelled"
    active = await store.sessions.active(world.chat_id, world.user_id)
    assert active is not None and active.id == second.id and active.settings.qtype == "judge"
    assert first.settings == settings
    assert not await store.sessions.finish(first.id)
    assert await store.sessions.advance(first.id) is None


async def test_quiz_settings_reject_bad_fields_by_name() -> None:
    with pytest.raises(InvalidValueError, match="qtype: 'essay'"):
        QuizSettings(qtype="essay")
    with pytest.raises(InvalidValueError, match="count: 0 is not a whole number from 1 to 100"):
        QuizSettings(count=0)
    with pytest.raises(InvalidValueError, match="unknown quiz setting"):
        QuizSettings.from_json('{"qtype": "single", "colour": "red"}')
    with pytest.raises(InvalidValueError, match="chapters"):
        QuizSettings.from_json('{"chapters": "第一篇"}')
    settings = QuizSettings.from_json('{"chapters": [["第一篇", "第二章"]], "mode": "flexible", "count": 10}')
    assert settings.chapters == (("第一篇", "第二章"),)
    assert QuizSettings.from_json(settings.to_json()) == settings


async def test_session_score_counts_the_learners_first_answers(store: Store, clock: Clock) -> None:
    world = await make_world(store, chat_id=42, chat_type="private")
    session = await store.sessions.create(world.chat_id, world.user_id, QuizSettings(count=3))
    multi = await store.questions.record(
        GenerationRequest(chat_id=42, question_id="q2", qtype="multi"), vat_question(), session_id=session.id
    )
    answers = [(world.version.id, [1]), (multi.id, [0, 1])]
    for position, (version_id, chosen) in enumerate(answers, start=1):
        assert await store.sessions.advance(session.id) == position
        delivery = await deliver(
            store,
            version_id,
            world.chat_id,
            f"s{position}",
            "private",
            session_id=session.id,
            position=position,
        )
        clock.advance(12)
        await store.attempts.record(delivery.id, world.user_id, chosen)
    score = await store.sessions.score(session.id)
    assert (score.answered, score.correct, score.total, score.seconds) == (2, 1, 3, 24.0)
    assert [a.correct for a in await store.attempts.for_session(session.id)] == [True, False]
    assert await store.sessions.finish(session.id)
    assert not await store.sessions.finish(session.id)
    finished = await store.sessions.get(session.id)
    assert (finished.status, finished.score, finished.finished_at) == ("finished", 1, clock.now)
    assert await store.sessions.active(world.chat_id, world.user_id) is None


async def test_attempt_is_recorded_once_per_user_per_delivery(store: Store, clock: Clock) -> None:
    world = await make_world(store)
    await store.users.upsert(12, "陈静")
    delivery = await deliver(store, world.version.id, world.chat_id, "poll-once")
    clock.advance(7.5)
    first = await store.attempts.record(delivery.id, world.user_id, [1])
    clock.advance(30)
    repeat = await store.attempts.record(delivery.id, world.user_id, [3])
    other = await store.attempts.record(delivery.id, 12, [3])
    assert first.new and first.attempt.correct and first.attempt.seconds == 7.5
    assert not repeat.new and repeat.attempt == first.attempt
    assert other.new and not other.attempt.correct and other.attempt.seconds == 37.5
    assert [a.user_id for a in await store.attempts.for_delivery(delivery.id)] == [world.user_id, 12]


async def test_multi_answer_is_correct_only_with_every_right_option(store: Store) -> None:
    world = await make_world(store)
    await store.users.upsert(12, "陈静")
    version = await store.questions.record(
        GenerationRequest(chat_id=world.chat_id, question_id="q2", qtype="multi"), vat_question()
    )
    delivery = await deliver(store, version.id, world.chat_id, "poll-multi")
    assert (await store.attempts.record(delivery.id, world.user_id, [2, 0])).attempt.correct
    assert not (await store.attempts.record(delivery.id, 12, [0])).attempt.correct


async def test_bad_answers_are_refused_with_a_reason(store: Store) -> None:
    world = await make_world(store)
    delivery = await deliver(store, world.version.id, world.chat_id, "poll-bad")
    with pytest.raises(InvalidValueError, match="retracted vote"):
        await store.attempts.record(delivery.id, world.user_id, [])
    with pytest.raises(InvalidValueError, match="4 is past the 4 options"):
        await store.attempts.record(delivery.id, world.user_id, [4])
    with pytest.raises(NotFoundError, match="delivery 999 is not stored"):
        await store.attempts.record(999, world.user_id, [1])
    with pytest.raises(NotFoundError, match="user 77 is not stored"):
        await store.attempts.record(delivery.id, 77, [1])
    assert await store.attempts.for_delivery(delivery.id) == []


async def test_poll_id_is_found_after_closing_and_reopening(db_path: Path, clock: Clock) -> None:
    store = await Store.open(db_path, clock)
    world = await make_world(store)
    sent = await deliver(store, world.version.id, world.chat_id, "5293841076", open_period=60)
    await store.close()

    store = await Store.open(db_path, clock)
    try:
        found = await store.deliveries.by_poll("5293841076")
        assert found == sent
        assert (found.version_id, found.chat_id, found.close_at) == (
            world.version.id,
            world.chat_id,
            clock.now + 60,
        )
        assert await store.deliveries.by_message(world.chat_id, sent.message_id) == sent
        assert await store.deliveries.pending_close() == [sent]
        assert await store.deliveries.close(sent.id)
        assert not await store.deliveries.close(sent.id)
        assert await store.deliveries.pending_close() == []
        assert await store.deliveries.by_poll("unknown") is None
    finally:
        await store.close()


async def test_delivery_inputs_are_checked(store: Store) -> None:
    world = await make_world(store)
    await deliver(store, world.version.id, world.chat_id, "dup")
    with pytest.raises(ConflictError, match="poll dup"):
        await deliver(store, world.version.id, world.chat_id, "dup")
    with pytest.raises(InvalidValueError, match="channel polls are always anonymous"):
        await deliver(store, world.version.id, world.chat_id, "c1", "channel")
    with pytest.raises(InvalidValueError, match="open_period: 3 s"):
        await deliver(store, world.version.id, world.chat_id, "t1", open_period=3)
    with pytest.raises(NotFoundError, match="question version 404 is not stored"):
        await deliver(store, 404, world.chat_id, "v404")


async def test_versions_grow_and_attempts_stay_on_the_superseded_one(store: Store) -> None:
    world = await make_world(store)
    v1 = world.version
    delivery = await deliver(store, v1.id, world.chat_id, "poll-v1")
    await store.attempts.record(delivery.id, world.user_id, [1])
    v2 = await store.questions.add_version(v1.question_id, deed_tax_question("（修订）"), number=2)

    history = await store.questions.history(v1.question_id)
    assert [(v.number, v.superseded_by) for v in history] == [(1, v2.id), (2, None)]
    assert (await store.questions.latest(v1.question_id)).id == v2.id
    assert v2.label == "v2" and v2.thread_id == f"{world.chat_id}/q1"
    assert v2.question.stem.endswith("（修订）")
    [attempt] = await store.attempts.for_delivery(delivery.id)
    assert attempt.version_id == v1.id
    assert (await store.questions.version(v1.id)).question == deed_tax_question()
    with pytest.raises(ConflictError, match="already has version 2; cannot add version 2"):
        await store.questions.add_version(v1.question_id, deed_tax_question(), number=2)


async def test_recording_a_thread_twice_adds_a_version_to_one_question(store: Store) -> None:
    world = await make_world(store)
    request = GenerationRequest(chat_id=world.chat_id, question_id="q1", qtype="single")
    again = await store.questions.record(request, deed_tax_question("（重新生成）"), flagged=True)
    assert again.question_id == world.version.question_id and again.number == 2 and again.flagged
    assert (await store.questions.by_thread(request.thread_id)).id == world.version.question_id
    with pytest.raises(NotFoundError, match="chat 5 is not stored"):
        await store.questions.record(
            GenerationRequest(chat_id=5, question_id="x", qtype="judge"), vat_question()
        )


async def test_a_hand_damaged_settings_row_is_named(store: Store) -> None:
    world = await make_world(store, chat_id=42, chat_type="private")
    session = await store.sessions.create(world.chat_id, world.user_id, QuizSettings())
    async with store.db.transaction() as conn:
        await conn.execute("UPDATE sessions SET settings = '{\"count\": -1}' WHERE id = ?", (session.id,))
    with pytest.raises(
        SchemaError, match=f"session {session.id}: stored quiz settings are unreadable: count"
    ):
        await store.sessions.get(session.id)
