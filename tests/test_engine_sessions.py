"""The private-session engine without Telegram: a fake sender records what would be sent, a fake generation
service writes on cue, and a manual clock decides when a wait for a question is long enough to show its
status — so these tests never sleep through a grace period."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engines.i18n import text
from engines.metrics import Metrics
from engines.sessions import Sessions, Shown, question_type, results_card
from graph.events import Progress, Result
from storage import Store
from storage.attempts import Attempt
from storage.deliveries import Delivery
from storage.quiz_settings import QuizSettings
from tests.test_engine_rounds import FakeSender, ManualClock, _settle
from tests.test_storage_support import deed_tax_question, vat_question
from vocabulary import callbacks
from vocabulary.records import GenerationRequest

CHAT = LEARNER = 31
OTHER = 32
WRONG = text("zh", "answer_wrong", answer="")[:3]


@dataclass
class ButtonSender(FakeSender):
    """Also keeps the buttons of every message."""

    buttons: list = field(default_factory=list)

    async def text(self, chat_id: int, body: str, *, reply_to=None, buttons=None) -> int:
        self.buttons.append(buttons)
        return await super().text(chat_id, body, reply_to=reply_to)


@dataclass
class FakeStatus:
    """What the Telegram status message would show."""

    title: str
    above: Shown | None
    opened: bool = False
    lines: list[str] = field(default_factory=list)
    closed: str | None = None

    async def open(self) -> None:
        self.opened = True

    async def add(self, event: Progress) -> None:
        self.lines.append(event.node)

    async def close(self, title: str) -> None:
        self.closed = title


class CuedGeneration:
    """Writes the deed-tax question when the test says so (`release`), after one progress event."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.written: list[str] = []

    def new_request(self, chat_id, qtype, mode, chapters, calculation_only, *, sampler_state):
        return GenerationRequest(chat_id=chat_id, question_id="draft", qtype=qtype, mode=mode), sampler_state

    async def result(self, thread_id: str) -> Result | None:
        return None

    async def stream(self, request: GenerationRequest) -> AsyncIterator[Progress | Result]:
        yield Progress(request.thread_id, "author", "done", "")
        await self.release.wait()
        self.written.append(request.thread_id)
        yield Result(request.thread_id, "passed", deed_tax_question(), 1, [], [])


@pytest.fixture(name="clock")
def clock_fixture() -> ManualClock:
    return ManualClock()


@pytest.fixture(name="store")
async def store_fixture(tmp_path: Path, clock: ManualClock) -> AsyncIterator[Store]:
    store = await Store.open(tmp_path / "sessions.sqlite", clock=clock.now)
    await store.chats.upsert(CHAT, "private", "李同学")
    await store.users.upsert(LEARNER, "李同学")
    await store.users.upsert(OTHER, "王同学")
    yield store
    await store.close()


def engine_for(store, sender, clock, generation=None, status_after: float = 0.0):
    statuses: list[FakeStatus] = []

    def open_status(chat_id, locale, title, above):
        statuses.append(FakeStatus(title, above))
        return statuses[-1]

    engine = Sessions(
        store,
        generation or CuedGeneration(),
        sender,
        clock,
        Metrics(),
        open_status,
        default_locale="zh",
        status_after=status_after,
    )
    return engine, statuses


async def stored_versions(store: Store, *questions) -> tuple[int, ...]:
    ids = []
    for number, question in enumerate(questions, start=1):
        request = GenerationRequest(chat_id=CHAT, question_id=f"bank-{number}", qtype=question.qtype)
        ids.append((await store.questions.record(request, question)).id)
    return tuple(ids)


async def answer(engine: Sessions, store: Store, user_id: int, right: bool) -> bool:
    """Answer the latest quiz; whether the answer was graded."""
    (*_, delivery) = await store.deliveries.for_session(1)
    version = await store.questions.version(delivery.version_id)
    correct = tuple(version.question.correct_indexes)
    chosen = (
        correct if right else tuple(i for i in range(len(version.question.options)) if i not in correct)[:1]
    )
    recorded = await engine.record(delivery, user_id, chosen)
    if recorded is not None:
        await engine.answered(delivery, recorded.attempt)
        await _settle()
    return recorded is not None


async def test_a_session_moves_on_only_when_its_own_learner_answers(store, clock):
    sender = FakeSender()
    engine, _ = engine_for(store, sender, clock)
    versions = await stored_versions(store, deed_tax_question(), vat_question())
    await engine.start(CHAT, LEARNER, QuizSettings(count=2, source="review", versions=versions), None)
    await _settle()
    assert [q[1][:4] for q in sender.quizzes] == ["1/2 "]
    assert not await answer(engine, store, OTHER, True), "a forwarded poll's stranger is not graded"
    await _settle()
    assert len(sender.quizzes) == 1 and sender.texts == []
    assert await answer(engine, store, LEARNER, False)
    assert [q[1][:4] for q in sender.quizzes] == ["1/2 ", "2/2 "]
    assert sender.texts[-1][1].startswith(WRONG)
    assert await answer(engine, store, LEARNER, True)
    assert (await store.sessions.get(1)).status == "finished"


async def test_a_finished_session_shows_the_results_card_with_its_three_buttons(store, clock):
    sender = ButtonSender()
    engine, _ = engine_for(store, sender, clock)
    versions = await stored_versions(store, deed_tax_question())
    await engine.start(CHAT, LEARNER, QuizSettings(count=1, source="review", versions=versions), None)
    await _settle()
    clock.time += 7
    await answer(engine, store, LEARNER, True)
    card = sender.texts[-1][1]
    assert card.endswith("1. ✓ 用时 7 秒\n本轮结束：答对 1/1 题。")
    assert sender.buttons[-1] == [
        [
            ("再来一轮", callbacks.REPEAT.build(1)),
            ("错题重练", callbacks.REVIEW.build()),
            ("换设置", callbacks.AGAIN.build()),
        ]
    ]


async def test_a_case_situation_goes_once_before_its_sub_questions(store, clock):
    sender = FakeSender()
    engine, _ = engine_for(store, sender, clock)
    case = "王某委托经纪机构出售一套住宅。"
    first = deed_tax_question().model_copy(update={"case": case})
    second = vat_question().model_copy(update={"case": case})
    versions = await stored_versions(store, first, second)
    await engine.start(CHAT, LEARNER, QuizSettings(count=2, source="past_papers", versions=versions), None)
    await _settle()
    await answer(engine, store, LEARNER, True)
    situations = [body for _, body, _ in sender.texts if case in body]
    assert len(situations) == 1 and len(sender.quizzes) == 2


async def test_the_status_shows_only_once_the_grace_period_has_passed_on_the_clock(store, clock):
    sender, generation = FakeSender(), CuedGeneration()
    engine, statuses = engine_for(store, sender, clock, generation, status_after=2.0)
    above = Shown(77, "设置：单选 · 1 题")
    await engine.start(CHAT, LEARNER, QuizSettings(qtype="single", count=1), above)
    await _settle()
    assert statuses == [], "no status while the learner has not waited the grace period"
    await clock.advance(2.5)
    assert [s.above for s in statuses] == [above] and statuses[0].opened
    assert statuses[0].lines == ["author"], "progress made before the status opened is replayed"
    generation.release.set()
    await _settle()
    assert statuses[0].closed == "✅ 第 1/1 题已校验通过" and len(sender.quizzes) == 1


async def test_stop_ends_a_session_with_its_card_and_cancel_drops_the_question_being_written(store, clock):
    sender, generation = FakeSender(), CuedGeneration()
    engine, _ = engine_for(store, sender, clock, generation)
    await engine.start(CHAT, LEARNER, QuizSettings(qtype="single", count=3), None)
    await _settle()
    assert await engine.stop(CHAT, LEARNER, finish=False)
    generation.release.set()
    await _settle()
    assert sender.quizzes == [] and (await store.sessions.get(1)).status == "cancelled"
    assert not await engine.stop(CHAT, LEARNER, finish=True), "nothing left to stop"


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
        "zh", [delivery(2), delivery(1), delivery(3)], [attempt(1, True, 12.4), attempt(2, False, 31.6)], 3
    )
    assert card.splitlines() == [
        "1. ✓ 用时 12 秒",
        "2. ✗ 用时 32 秒",
        "3. — 未作答",
        "本轮结束：答对 1/3 题。",
    ]


def test_the_card_speaks_the_learners_language():
    card = results_card("en", [delivery(1)], [attempt(1, False, 5)], 1)
    assert card.splitlines() == ["1. ✗ 5 s", "Session finished: 0/1 correct."]


def test_a_mixed_round_cycles_the_three_types():
    mixed = QuizSettings(qtype="mixed")
    assert [question_type(mixed, p) for p in range(1, 5)] == ["single", "judge", "multi", "single"]


def test_a_mixed_hard_session_asks_no_true_or_false_question():
    """A 判断 is almost never 难: a learner asking for 难 questions of every type gets the two others."""
    hard = QuizSettings(qtype="mixed", difficulty="hard")
    assert [question_type(hard, p) for p in range(1, 5)] == ["single", "multi", "single", "multi"]
