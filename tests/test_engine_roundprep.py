"""Preparing a timed round without Telegram: a scripted generation service decides which questions pass, a
fake status records the live progress message and a fake sender what the group or instructor is told."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engines.clock import Pace
from engines.i18n import text
from engines.metrics import Metrics
from engines.roundprep import RoundPrep
from engines.rounds import Rounds
from graph.events import Progress, Result
from retrieval.sampler import NoSlicesError
from storage import Store
from storage.quiz_settings import QuizSettings
from tests.test_engine_rounds import GROUP, LEARNER, TEACHER, FakeSender, ManualClock, _settle
from tests.test_engine_sessions import ButtonSender, FakeStatus
from tests.test_storage_support import deed_tax_question
from vocabulary import callbacks
from vocabulary.records import GenerationRequest


class ScriptedGeneration:
    """Writes the deed-tax question for every thread except those in `failing`; `broken` makes every
    generation raise, `no_slices` makes the draw find nothing. Holds each writer until `release` is set and
    notes how many were writing at once."""

    def __init__(self, failing: frozenset[int] = frozenset(), broken: bool = False, no_slices: bool = False):
        self.failing, self.broken, self.no_slices = failing, broken, no_slices
        self.release = asyncio.Event()
        self.writing = self.most_at_once = 0
        self.drawn: list[str] = []

    def new_request(self, chat_id, qtype, mode, chapters, calculation_only, *, sampler_state):
        if self.no_slices:
            raise NoSlicesError("第九章没有可出题的内容")
        self.drawn.append(qtype)
        return GenerationRequest(chat_id=chat_id, question_id="draft", qtype=qtype, mode=mode), sampler_state

    async def stream(self, request: GenerationRequest) -> AsyncIterator[Progress | Result]:
        self.writing += 1
        self.most_at_once = max(self.most_at_once, self.writing)
        try:
            yield Progress(request.thread_id, "author", "done", "")
            await self.release.wait()
            if self.broken:
                raise RuntimeError("the model server hung up")
        finally:
            self.writing -= 1
        number = int(request.question_id.split("q")[-1])
        if number in self.failing:
            yield Result(request.thread_id, "failed", None, None, [], [], failure="critic rejected it")
        else:
            yield Result(request.thread_id, "passed", deed_tax_question(), 1, [], [])


@pytest.fixture(name="clock")
def clock_fixture() -> ManualClock:
    return ManualClock()


@pytest.fixture(name="store")
async def store_fixture(tmp_path: Path, clock: ManualClock) -> AsyncIterator[Store]:
    store = await Store.open(tmp_path / "prep.sqlite", clock=clock.now)
    await store.chats.upsert(GROUP, "group", "经纪人备考群")
    await store.users.upsert(TEACHER, "王老师")
    await store.users.upsert(LEARNER, "李同学")
    yield store
    await store.close()


def engines_for(store: Store, sender: FakeSender, clock: ManualClock, generation: ScriptedGeneration):
    statuses: list[tuple[int, FakeStatus]] = []

    def open_status(chat_id, locale, title, above):
        statuses.append((chat_id, FakeStatus(title, above)))
        return statuses[-1][1]

    rounds = Rounds(store, sender, clock, Pace(), default_locale="zh")
    return RoundPrep(rounds, generation, Metrics(), open_status), statuses


async def begin(prep: RoundPrep, count: int, qtype: str = "single") -> bool:
    return await prep.begin(
        kind="group",
        chat_id=GROUP,
        home_id=GROUP,
        user_id=TEACHER,
        title="经纪人备考群",
        settings=QuizSettings(qtype=qtype, count=count),
        seconds=30,
        interval=0,
        locale="zh",
    )


async def written(prep: RoundPrep, generation: ScriptedGeneration) -> None:
    """Let every writer finish and the preparation run to its end."""
    await _settle()
    generation.release.set()
    for playing in list(prep.rounds.live.values()):
        if playing.task is not None:
            await asyncio.gather(playing.task, return_exceptions=True)
    await _settle()


async def test_a_round_is_written_a_few_at_a_time_then_starts_with_its_first_question(store, clock):
    sender, generation = FakeSender(), ScriptedGeneration()
    prep, statuses = engines_for(store, sender, clock, generation)
    assert await begin(prep, count=5, qtype="mixed")
    await _settle()
    ((home, status),) = statuses
    assert (home, status.opened) == (GROUP, True)
    assert status.title == text("zh", "round_preparing", done=0, count=5)
    assert sender.quizzes == []  # nothing is posted while questions are being written

    await written(prep, generation)
    assert generation.most_at_once == 3
    assert generation.drawn == ["single", "judge", "multi", "single", "judge"]
    assert status.lines == ["author"] * 5
    assert status.closed == text("zh", "round_prepared", ready=5, count=5)
    (round_,) = [r for r in await store.rounds.live_all()]
    assert (round_.status, round_.question_count) == ("running", 5)
    assert [(chat, label[:4]) for chat, label, _ in sender.quizzes] == [(GROUP, "1/5 ")]
    playing = prep.rounds.live[round_.id]
    threads = [(await store.questions.version(v)).thread_id for v in playing.versions]
    assert threads == [f"{GROUP}/r{round_.id}q{n}" for n in range(1, 6)]
    await prep.rounds.close()


async def test_fewer_written_than_asked_offers_the_initiator_to_start_or_cancel(store, clock):
    sender, generation = ButtonSender(), ScriptedGeneration(failing=frozenset({2, 4}))
    prep, statuses = engines_for(store, sender, clock, generation)
    assert await begin(prep, count=4)
    await written(prep, generation)

    assert statuses[0][1].closed == text("zh", "round_prepared", ready=2, count=4)
    assert sender.quizzes == []
    (offer,) = [body for chat, body, _ in sender.texts if chat == GROUP]
    assert offer == text("zh", "round_fewer", ready=2, count=4)
    (round_,) = await store.rounds.live_all()
    assert round_.status == "preparing"
    assert sender.buttons[-1] == [
        [
            (text("zh", "round_start_fewer", ready=2), callbacks.ROUND_CONFIRM.build(round_.id, "go")),
            (text("zh", "round_cancel"), callbacks.ROUND_CONFIRM.build(round_.id, "no")),
        ]
    ]
    assert await prep.claim(round_.id, LEARNER) == "round_not_initiator"
    playing = await prep.claim(round_.id, TEACHER)
    assert len(playing.versions) == 2
    await prep.rounds.drop(playing)
    assert await prep.claim(round_.id, TEACHER) == "stale_button"


async def test_a_round_with_no_question_written_is_dropped_and_the_group_told(store, clock):
    sender, generation = FakeSender(), ScriptedGeneration(failing=frozenset({1, 2}))
    prep, _ = engines_for(store, sender, clock, generation)
    assert await begin(prep, count=2)
    await written(prep, generation)
    assert [body for _, body, _ in sender.texts] == [text("zh", "round_none")]
    assert await store.rounds.live(GROUP) is None and prep.rounds.live == {}


async def test_chapters_with_nothing_to_draw_end_the_round_in_its_status(store, clock):
    sender, generation = FakeSender(), ScriptedGeneration(no_slices=True)
    prep, statuses = engines_for(store, sender, clock, generation)
    assert await begin(prep, count=3)
    await written(prep, generation)
    assert statuses[0][1].closed == text("zh", "no_slices", reason="第九章没有可出题的内容")
    assert await store.rounds.live(GROUP) is None and sender.texts == []


async def test_a_failing_generation_frees_the_group_and_says_something_went_wrong(store, clock):
    sender, generation = FakeSender(), ScriptedGeneration(broken=True)
    prep, _ = engines_for(store, sender, clock, generation)
    assert await begin(prep, count=2)
    await written(prep, generation)
    assert [body for _, body, _ in sender.texts] == [text("zh", "error")]
    assert await store.rounds.live(GROUP) is None
    assert await begin(prep, count=1)  # the chat is free for the next round
    await prep.close()


async def test_a_second_round_waits_for_the_first_and_stopping_leaves_it_for_the_next_start(store, clock):
    sender, generation = FakeSender(), ScriptedGeneration()
    prep, _ = engines_for(store, sender, clock, generation)
    assert await begin(prep, count=2)
    assert not await begin(prep, count=2)
    await _settle()
    await prep.close()  # the bot stops while the questions are being written
    (round_,) = await store.rounds.live_all()
    assert round_.status == "preparing" and generation.writing == 0
    assert sender.texts == [] and sender.quizzes == []
