"""Votes, learners' reports and instructors' revisions in flight."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage import ConflictError, InvalidValueError, Store
from storage.feedback import DOWN, UP
from tests.test_storage_support import (
    Clock,
    deed_tax_question,
    make_world,
    vat_question,
)
from vocabulary.records import GenerationRequest

INSTRUCTOR = 90


async def test_a_vote_can_be_changed_and_is_counted_once(store: Store) -> None:
    world = await make_world(store)
    await store.users.upsert(12, "陈静")
    first = await store.votes.record(world.user_id, world.version.id, UP)
    assert first.previous is None and first.changed
    again = await store.votes.record(world.user_id, world.version.id, UP)
    assert not again.changed
    switched = await store.votes.record(world.user_id, world.version.id, DOWN)
    assert switched.previous == UP and switched.changed
    await store.votes.record(12, world.version.id, DOWN)
    tally = await store.votes.tally(world.version.id)
    assert (tally.up, tally.down) == (0, 2)
    assert (await store.votes.get(world.user_id, world.version.id)).value == DOWN
    with pytest.raises(InvalidValueError, match="vote: 0"):
        await store.votes.record(world.user_id, world.version.id, 0)


async def test_votes_belong_to_a_version_not_to_the_question(store: Store) -> None:
    world = await make_world(store)
    await store.votes.record(world.user_id, world.version.id, DOWN)
    v2 = await store.questions.add_version(world.version.question_id, deed_tax_question("（修订）"))
    tally = await store.votes.tally(v2.id)
    assert (tally.up, tally.down) == (0, 0)


async def test_report_lifecycle(store: Store) -> None:
    world = await make_world(store)
    await store.users.upsert(INSTRUCTOR, "刘老师")
    report = await store.reports.create(world.version.id, world.user_id, "answer_wrong", "  应选C  ")
    assert (report.status, report.comment) == ("open", "应选C")
    rewritten = await store.reports.create(world.version.id, world.user_id, "stem_unclear", "题干有歧义")
    assert rewritten.id == report.id and rewritten.reason == "stem_unclear"
    assert [r.id for r in await store.reports.open_reports()] == [report.id]
    assert [r.id for r in await store.reports.open_reports(chat_id=world.chat_id)] == [report.id]
    assert await store.reports.open_reports(chat_id=12345) == []

    v2 = await store.questions.add_version(world.version.question_id, deed_tax_question("（修订）"))
    assert await store.reports.mark_fixed(world.version.id, v2.id, INSTRUCTOR) == 1
    fixed = await store.reports.get(report.id)
    assert (fixed.status, fixed.fixed_by, fixed.resolved_by) == ("fixed", v2.id, INSTRUCTOR)
    assert await store.reports.open_reports() == []
    assert await store.reports.mark_fixed(world.version.id, v2.id, INSTRUCTOR) == 0

    later = await store.reports.create(world.version.id, world.user_id, "other")
    assert later.id != report.id


async def test_a_fix_must_be_a_later_version_of_the_same_question(store: Store) -> None:
    world = await make_world(store)
    await store.users.upsert(INSTRUCTOR, "刘老师")
    other = await store.questions.record(
        GenerationRequest(chat_id=world.chat_id, question_id="q2", qtype="multi"), vat_question()
    )
    await store.reports.create(world.version.id, world.user_id, "answer_wrong")
    with pytest.raises(ConflictError, match=f"version {other.id} is not a later version"):
        await store.reports.mark_fixed(world.version.id, other.id, INSTRUCTOR)
    with pytest.raises(ConflictError):
        await store.reports.mark_fixed(world.version.id, world.version.id, INSTRUCTOR)
    assert len(await store.reports.open_reports()) == 1
    with pytest.raises(InvalidValueError, match="reason: 'boring'"):
        await store.reports.create(world.version.id, world.user_id, "boring")


async def test_only_one_of_two_simultaneous_revisions_starts(store: Store) -> None:
    world = await make_world(store)
    await store.users.upsert(INSTRUCTOR, "刘老师")
    await store.users.upsert(91, "赵老师")
    started = await asyncio.gather(
        store.revisions.try_start_revision(world.version.id, INSTRUCTOR, "answer_wrong"),
        store.revisions.try_start_revision(world.version.id, 91, "stem_unclear", "题干不完整"),
    )
    assert sorted(started) == [False, True]
    assert await store.revisions.in_flight_count(INSTRUCTOR) + await store.revisions.in_flight_count(91) == 1
    [running] = await store.revisions.in_flight()
    assert running.version_id == world.version.id

    v2 = await store.questions.add_version(world.version.question_id, deed_tax_question("（修订）"))
    assert await store.revisions.finish_revision(world.version.id, "revised", v2.id)
    assert not await store.revisions.finish_revision(world.version.id, "failed")
    assert await store.revisions.in_flight() == []
    assert await store.revisions.try_start_revision(world.version.id, 91, "other")


async def test_revision_claim_holds_across_two_processes(db_path: Path, clock: Clock) -> None:
    first = await Store.open(db_path, clock)
    world = await make_world(first)
    await first.users.upsert(INSTRUCTOR, "刘老师")
    second = await Store.open(db_path, clock)
    try:
        started = await asyncio.gather(
            first.revisions.try_start_revision(world.version.id, INSTRUCTOR, "answer_wrong"),
            second.revisions.try_start_revision(world.version.id, INSTRUCTOR, "answer_wrong"),
        )
        assert sorted(started) == [False, True]
        assert await second.revisions.in_flight_count(INSTRUCTOR) == 1
    finally:
        await first.close()
        await second.close()


async def test_in_flight_count_is_per_instructor(store: Store) -> None:
    world = await make_world(store)
    await store.users.upsert(INSTRUCTOR, "刘老师")
    other = await store.questions.record(
        GenerationRequest(chat_id=world.chat_id, question_id="q2", qtype="multi"), vat_question()
    )
    assert await store.revisions.try_start_revision(world.version.id, INSTRUCTOR, "answer_wrong")
    assert await store.revisions.try_start_revision(other.id, INSTRUCTOR, "options_wrong")
    assert await store.revisions.in_flight_count(INSTRUCTOR) == 2
    assert await store.revisions.in_flight_count(world.user_id) == 0
    assert await store.revisions.finish_revision(other.id, "failed")
    assert await store.revisions.in_flight_count(INSTRUCTOR) == 1
    with pytest.raises(InvalidValueError, match="result_version_id"):
        await store.revisions.finish_revision(world.version.id, "revised")
