"""The timed-round engine without Telegram: a fake sender records what would be posted and a manual clock
moves time, so a round's deadlines are exact and no test sleeps through an open period."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engines.clock import Pace
from engines.i18n import text
from engines.rounds import LiveRound, Rounds
from engines.sending import Refused, SentQuiz
from storage import Store
from storage.quiz_settings import QuizSettings
from tests.test_storage_support import deed_tax_question, vat_question
from vocabulary.records import GenerationRequest, Question

GROUP, TEACHER, LEARNER = -100, 11, 21
START = 1_800_000_000.0


class ManualClock:
    """Time moves only when the test says so; sleepers wake in deadline order as it passes them."""

    def __init__(self) -> None:
        self.time = START
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self.time

    async def sleep(self, seconds: float) -> None:
        woken = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.time + seconds, next(self._order), woken))
        await woken

    async def advance(self, seconds: float) -> None:
        until = self.time + seconds
        await _settle()
        while self._sleepers and self._sleepers[0][0] <= until:
            deadline, _, woken = heapq.heappop(self._sleepers)
            self.time = max(self.time, deadline)
            if not woken.done():
                woken.set_result(None)
            await _settle()
        self.time = until


async def _settle() -> None:
    """Let every task that can run, run (the store answers from a thread, hence the short real waits)."""
    for _ in range(20):
        await asyncio.sleep(0.005)


@dataclass
class FakeSender:
    texts: list[tuple[int, str, int | None]] = field(default_factory=list)
    quizzes: list[tuple[int, str, float | None]] = field(default_factory=list)
    stopped: list[int] = field(default_factory=list)
    refuse: bool = False
    _ids: itertools.count = field(default_factory=lambda: itertools.count(500))

    async def text(self, chat_id: int, body: str, *, reply_to=None, buttons=None) -> int:
        self.texts.append((chat_id, body, reply_to))
        return next(self._ids)

    async def quiz(self, chat_id: int, question: Question, locale: str, **options) -> SentQuiz:
        if self.refuse:
            raise Refused("Forbidden: bot was kicked from the group chat")
        message_id = next(self._ids)
        self.quizzes.append((chat_id, options["label"] + question.stem, options["open_period"]))
        return SentQuiz(message_id=message_id, poll_id=f"poll{message_id}")

    async def stop_poll(self, chat_id: int, message_id: int, version_id: int) -> None:
        self.stopped.append(message_id)


@pytest.fixture(name="clock")
def clock_fixture() -> ManualClock:
    return ManualClock()


@pytest.fixture(name="store")
async def store_fixture(tmp_path: Path, clock: ManualClock) -> AsyncIterator[Store]:
    store = await Store.open(tmp_path / "rounds.sqlite", clock=clock.now)
    await store.chats.upsert(GROUP, "group", "经纪人备考群")
    await store.users.upsert(TEACHER, "王老师")
    await store.users.upsert(LEARNER, "李同学")
    yield store
    await store.close()


async def group_round(store: Store, engine: Rounds, seconds: int = 30) -> LiveRound:
    """A prepared group round of two questions, as engines/roundprep.py leaves it."""
    round_ = await store.rounds.create(GROUP, TEACHER, QuizSettings(qtype="mixed", count=2), seconds)
    playing = LiveRound(round_.id, "group", GROUP, GROUP, TEACHER, "经纪人备考群", "zh", seconds, 0)
    for number, question in enumerate([deed_tax_question(), vat_question()], start=1):
        request = GenerationRequest(chat_id=GROUP, question_id=f"r{round_.id}q{number}", qtype=question.qtype)
        version = await store.questions.record(request, question, round_id=round_.id)
        playing.versions.append(version.id)
    engine.live[round_.id] = playing
    return playing


def engine_for(store: Store, sender: FakeSender, clock: ManualClock) -> Rounds:
    return Rounds(store, sender, clock, Pace(), default_locale="zh")


async def test_a_poll_closes_at_its_deadline_and_the_next_question_follows(store, clock):
    sender = FakeSender()
    engine = engine_for(store, sender, clock)
    playing = await group_round(store, engine)
    await engine.start(playing)
    assert [(chat, period) for chat, _, period in sender.quizzes] == [(GROUP, 30)]
    assert sender.quizzes[0][1].startswith("1/2 ")
    first = (await store.deliveries.for_round(playing.round_id))[0]
    await store.attempts.record(first.id, LEARNER, [1])

    await clock.advance(30)  # the open period is over, but Telegram's own update may still come first
    assert not (await store.deliveries.get(first.id)).closed
    assert sender.texts == []

    await clock.advance(1.0)  # the grace is over: the engine closes the poll itself
    await engine.close()
    assert (await store.deliveries.get(first.id)).closed
    explanation = next(body for chat, body, reply_to in sender.texts if reply_to == first.message_id)
    assert explanation.startswith(text("zh", "round_answer", number=1, answer="B. 70,000元").split("：")[0])
    assert text("zh", "round_right_count", right=1, answered=1) in explanation
    assert [label[:4] for _, label, _ in sender.quizzes] == ["1/2 ", "2/2 "]


async def test_the_last_close_ends_the_round_with_its_leaderboard(store, clock):
    sender = FakeSender()
    engine = engine_for(store, sender, clock)
    playing = await group_round(store, engine, seconds=10)
    await engine.start(playing)
    await clock.advance(11)
    await clock.advance(11)
    await engine.close()
    assert (await store.rounds.get(playing.round_id)).status == "finished"
    assert sender.texts[-1][1].startswith(text("zh", "leaderboard_round_title"))
    assert playing.round_id not in engine.live


async def test_telegrams_close_update_closes_the_poll_once_answers_have_settled(store, clock):
    sender = FakeSender()
    engine = engine_for(store, sender, clock)
    playing = await group_round(store, engine)
    await engine.start(playing)
    first = (await store.deliveries.for_round(playing.round_id))[0]
    closing = asyncio.create_task(engine.poll_closed(first.poll_id))
    await _settle()
    assert not (await store.deliveries.get(first.id)).closed  # waits out `close_settle` first
    await clock.advance(Pace().close_settle)
    await closing
    assert (await store.deliveries.get(first.id)).closed
    assert len(sender.quizzes) == 2
    await clock.advance(31)  # the close timer of the first poll was cancelled: nothing is closed twice
    await engine.close()
    explanations = [t for t in sender.texts if t[2] == first.message_id]
    assert len(explanations) == 1


async def test_a_chat_that_refuses_the_poll_drops_the_round_and_says_why_where_it_was_started(store, clock):
    sender = FakeSender(refuse=True)
    engine = engine_for(store, sender, clock)
    playing = await group_round(store, engine)
    await engine.start(playing)
    await engine.close()
    assert (await store.rounds.get(playing.round_id)).status == "cancelled"
    assert playing.round_id not in engine.live
    reason = "Forbidden: bot was kicked from the group chat"
    assert sender.texts == [
        (GROUP, text("zh", "round_post_failed", chat="经纪人备考群", reason=reason), None)
    ]
