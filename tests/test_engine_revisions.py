"""The revision engine without Telegram: a scripted generation service and a status that records what it
was shown, against a real store, so the limit and the claim on a version are checked where they live."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engines.i18n import text
from engines.revisions import Declined, Failed, Interrupted, Revised, revise, take_up_interrupted
from graph.events import Progress, Result, UnknownQuestion
from storage import Store
from tests.test_storage_support import deed_tax_question, deliver, make_world

INSTRUCTOR = 90


@dataclass
class ScriptedGeneration:
    """`revise` reports one step, then ends with `result` (or raises `error`), after `gate` opens."""

    result: Result | None = None
    error: BaseException | None = None
    gate: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.gate.set()

    async def revise(self, thread_id: str, reason: str, comment: str) -> AsyncIterator[Progress | Result]:
        yield Progress(thread_id, "fixer", "done", "改写选项")
        await self.gate.wait()
        if self.error is not None:
            raise self.error
        if self.result is not None:
            yield self.result


@dataclass
class Checkpoints:
    """What a restarted generation service finds: each thread's latest result."""

    finished: dict[str, Result]

    async def result(self, thread_id: str) -> Result:
        return self.finished[thread_id]


@dataclass
class RecordingStatus:
    events: list[str] = field(default_factory=list)
    closed: str | None = None

    async def open(self) -> None:
        self.events.append("open")

    async def add(self, event: Progress) -> None:
        self.events.append(event.detail)

    async def close(self, title: str) -> None:
        self.closed = title


def result(thread_id: str, version: int | None, ok: bool = True) -> Result:
    question = deed_tax_question("（修订）") if ok else None
    outcome = "passed" if ok else "failed"
    return Result(thread_id, outcome, question, version, [], [], failure="" if ok else "无法修复")


@pytest.fixture(name="store")
async def store_fixture(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(tmp_path / "revisions.sqlite")
    await store.users.upsert(INSTRUCTOR, "刘老师")
    yield store
    await store.close()


async def run(store: Store, generation: ScriptedGeneration, version, status=None, limit: int = 2):
    return await revise(
        store,
        generation,
        limit=limit,
        version=version,
        instructor_id=INSTRUCTOR,
        reason="options_wrong",
        comment="",
        status=status or RecordingStatus(),
        locale="zh",
    )


async def test_a_revision_beyond_the_instructors_limit_is_declined_and_claims_nothing(store: Store):
    world = await make_world(store)
    other = await make_world(store, chat_id=-200)
    held = ScriptedGeneration()
    held.gate.clear()
    first = asyncio.create_task(run(store, held, world.version, limit=1))
    while await store.revisions.in_flight_count(INSTRUCTOR) == 0:
        await asyncio.sleep(0.01)
    status = RecordingStatus()
    assert await run(store, ScriptedGeneration(), other.version, status, limit=1) == Declined(
        "revision_limit"
    )
    assert status.events == [], "a declined revision shows no status"
    assert await store.revisions.current(other.version.id) is None
    held.gate.set()
    await first


async def test_one_version_is_revised_once_at_a_time(store: Store):
    world = await make_world(store)
    held = ScriptedGeneration()
    held.gate.clear()
    first = asyncio.create_task(run(store, held, world.version))
    while await store.revisions.current(world.version.id) is None:
        await asyncio.sleep(0.01)
    assert await run(store, ScriptedGeneration(), world.version) == Declined("revision_busy")
    held.result = result(world.version.thread_id, world.version.number + 1)
    held.gate.set()
    assert isinstance(await first, Revised)


async def test_a_new_version_waits_for_the_instructor_with_the_claim_still_held(store: Store):
    world = await make_world(store)
    status = RecordingStatus()
    revised = result(world.version.thread_id, world.version.number + 1)
    ended = await run(store, ScriptedGeneration(result=revised), world.version, status)
    assert isinstance(ended, Revised) and ended.result is revised
    assert status.events == ["open", "改写选项"]
    assert status.closed == text("zh", "preview_waiting", label=f"v{revised.version}")
    assert (await store.revisions.current(world.version.id)).id == ended.revision.id


async def test_no_better_version_fails_and_releases_the_claim(store: Store):
    world = await make_world(store)
    for outcome in (result(world.version.thread_id, None, ok=False), result(world.version.thread_id, 1)):
        status = RecordingStatus()
        ended = await run(store, ScriptedGeneration(result=outcome), world.version, status)
        assert ended == Failed(outcome.failure, reported=True)
        assert status.closed == text("zh", "revision_failed_status")
        assert await store.revisions.current(world.version.id) is None


async def test_a_question_the_loop_does_not_know_fails_without_marking_it_reported(store: Store):
    world = await make_world(store)
    unknown = ScriptedGeneration(error=UnknownQuestion(world.version.thread_id))
    assert await run(store, unknown, world.version) == Failed(world.version.thread_id, reported=False)
    assert await store.revisions.current(world.version.id) is None


async def test_a_revision_cut_short_is_abandoned_so_it_can_start_again(store: Store):
    world = await make_world(store)
    held = ScriptedGeneration()
    held.gate.clear()
    task = asyncio.create_task(run(store, held, world.version))
    while await store.revisions.current(world.version.id) is None:
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await store.revisions.in_flight_count(INSTRUCTOR) == 0


async def test_after_a_restart_a_ready_revision_keeps_waiting_and_an_unfinished_one_is_released(store: Store):
    ready, cut = await make_world(store), await make_world(store, chat_id=-200)
    quiz = await deliver(store, ready.version.id, ready.chat_id, "poll-ready")
    await deliver(store, cut.version.id, cut.chat_id, "poll-cut")
    for world in (ready, cut):
        assert await store.revisions.try_start_revision(world.version.id, INSTRUCTOR, "options_wrong", "")
    revised = result(ready.version.thread_id, ready.version.number + 1)
    # The restart found the second revision's loop no further than the version it started from.
    generation = Checkpoints(
        {ready.version.thread_id: revised, cut.version.thread_id: result(cut.version.thread_id, 1)}
    )

    taken = {item.version.id: item for item in await take_up_interrupted(store, generation)}
    assert taken[ready.version.id] == Interrupted(
        await store.revisions.current(ready.version.id), ready.version, (quiz, revised)
    )
    assert taken[cut.version.id].waiting is None
    assert await store.revisions.current(cut.version.id) is None, "released: 👎 may start it again"
    assert await store.revisions.in_flight_count(INSTRUCTOR) == 1
