"""A learner's private session: each question is written (the next one while the current one is being
answered) or taken from the store, delivered as a quiz poll, graded when the poll answer arrives, and the
session ends with a results card.

Everything a restart must survive is in storage (session position, deliveries, attempts, the chat's
sampler state); only the in-flight generations live here and are simply redone after a restart. The engine
knows no Telegram: it sends through a `Sender`, shows progress through the `Status` its `open_status` makes,
and waits with the injected clock.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engines.clock import Clock
from engines.i18n import text
from engines.metrics import Metrics
from engines.revisions import Status
from engines.sending import Sender
from graph.events import Progress, Result
from retrieval.sampler import NoSlicesError
from storage import Store
from storage.attempts import Attempt, RecordedAttempt
from storage.deliveries import Delivery
from storage.questions import QuestionVersion
from storage.quiz_settings import QuizSettings
from storage.sessions import Session
from vocabulary import callbacks
from vocabulary.records import GenerationRequest, Question

if TYPE_CHECKING:
    from graph.service import GenerationService

log = logging.getLogger(__name__)
MIXED_ORDER = ("single", "judge", "multi")
# A mixed 难 session leaves 判断 out: with two options guessing alone gets half of them right, so the author
# can rarely write one that is 难 (graph/authors/difficulty.py).
HARD_MIXED_ORDER = ("single", "multi")


@dataclass(frozen=True)
class Shown:
    """A plain text message the bot sent (no buttons): a status can be written under it."""

    message_id: int
    text: str


# (chat id, locale, title, message to write under) -> a status not yet opened.
StatusOpener = Callable[[int, str, str, Shown | None], Status]


@dataclass
class Pending:
    """A question being written for one place of a session; its progress is kept so a status opened
    later (the learner answered before it was ready) can replay it."""

    request: GenerationRequest
    task: asyncio.Future[Result] | None = None
    events: list[Progress] = field(default_factory=list)
    status: Status | None = None
    # Written before a restart: the question may already be stored, and is then not stored twice.
    earlier: bool = False


def question_type(settings: QuizSettings, position: int) -> str:
    if settings.qtype != "mixed":
        return settings.qtype
    order = HARD_MIXED_ORDER if settings.difficulty == "hard" else MIXED_ORDER
    return order[(position - 1) % len(order)]


def question_key(session_id: int, position: int) -> str:
    """One generation thread per place of a session, so a restart finds the question it was writing."""
    return f"s{session_id}q{position}"


def letters(indexes: list[int] | tuple[int, ...]) -> str:
    return "".join(chr(65 + i) for i in sorted(indexes))


def answer_feedback(locale: str, question: Question, chosen: tuple[int, ...], correct: bool) -> str:
    head = (
        text(locale, "answer_right") if correct else text(locale, "answer_wrong", answer=question.answer_text)
    )
    lines = [head, text(locale, "your_choice", choice=letters(chosen))]
    lines.append(text(locale, "full_explanation", explanation=question.explanation))
    return "\n".join(lines)


def results_card(locale: str, deliveries: list[Delivery], attempts: list[Attempt], asked: int) -> str:
    """Every question sent, right or wrong with the time the learner took, then the score: the learner sees
    at a glance which ones to look at again. `attempts` are the session learner's own (`for_session`)."""
    answers = {a.delivery_id: a for a in attempts}
    lines = []
    for delivery in sorted(deliveries, key=lambda d: (d.position or 0, d.id)):
        attempt = answers.get(delivery.id)
        if attempt is None:
            lines.append(text(locale, "results_unanswered", number=delivery.position))
        else:
            key = "results_right" if attempt.correct else "results_wrong"
            lines.append(text(locale, key, number=delivery.position, seconds=round(attempt.seconds)))
    right = sum(a.correct for a in attempts)
    lines.append(text(locale, "session_finished", right=right, total=asked))
    return "\n".join(lines)


async def generate_with_progress(generation: GenerationService, metrics: Metrics, pending: Pending) -> Result:
    """Run one generation, keeping its progress events (and showing them if a status is attached) and
    counting it in the metrics."""
    result: Result | None = None
    async for event in generation.stream(pending.request):
        if isinstance(event, Progress):
            pending.events.append(event)
            if pending.status is not None:
                await pending.status.add(event)
        else:
            result = event
    assert result is not None
    metrics.questions.labels(outcome=result.outcome).inc()
    metrics.latency.observe(result.seconds)
    metrics.model_calls.inc(result.usage.get("model_calls", 0))
    return result


class Sessions:
    """The private sessions of one bot process. `status_after`: seconds a learner may wait for a question
    before its live status is shown (0: always shown)."""

    def __init__(
        self,
        store: Store,
        generation: GenerationService,
        sender: Sender,
        clock: Clock,
        metrics: Metrics,
        open_status: StatusOpener,
        *,
        default_locale: str,
        status_after: float,
    ) -> None:
        self.store, self.generation, self.sender, self.clock = store, generation, sender, clock
        self.metrics, self.open_status = metrics, open_status
        self.default_locale, self.status_after = default_locale, status_after
        # Questions being written for a place of a session, by (session id, position).
        self.pending: dict[tuple[int, int], Pending] = {}
        # One lock per session, kept only while a delivery for it runs or waits (weak values).
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._tasks: set[asyncio.Task[None]] = set()
        self.accepting = True

    def _lock(self, session_id: int) -> asyncio.Lock:
        lock = self._locks.get(session_id)
        if lock is None:
            lock = self._locks[session_id] = asyncio.Lock()
        return lock

    async def locale(self, user_id: int) -> str:
        return await self.store.users.get_locale(user_id) or self.default_locale

    # ---- background work ------------------------------------------------------------------------------

    def spawn(self, work: Coroutine[object, object, None]) -> None:
        """Background work of a session: a failure is logged and counted, never lost in an unawaited task.
        While the bot is stopping nothing new starts: the session is stored and `resume` takes it up."""
        if not self.accepting:
            work.close()
            return
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if task.cancelled() or task.exception() is None:
            return
        log.error("a private session's background work failed", exc_info=task.exception())
        if self.accepting:
            self.metrics.errors.inc()

    async def close(self) -> None:
        """Stop the work in flight (the bot is stopping: stored sessions resume on the next start)."""
        self.accepting = False
        in_flight = [p.task for p in self.pending.values() if p.task is not None]
        in_flight += list(self._tasks)
        self.pending.clear()
        self._tasks.clear()
        for task in in_flight:
            task.cancel()
        await asyncio.gather(*in_flight, return_exceptions=True)

    # ---- starting and resuming ------------------------------------------------------------------------

    async def start(self, chat_id: int, user_id: int, chosen: QuizSettings, above: Shown | None) -> Session:
        """A new session (the learner's active one in this chat is cancelled); `above`: the message the
        first status is written under."""
        session = await self.store.sessions.create(chat_id, user_id, chosen)
        self.schedule_next(session.id, above)
        return session

    def schedule_next(self, session_id: int, above: Shown | None = None) -> None:
        """Deliver the session's next question in the background."""
        self.spawn(self.deliver_next(session_id, above))

    async def resume(self) -> int:
        """After a restart, carry on every session whose learner is owed a question (its generation was
        lost with the old process); sessions waiting on an answer resume when the answer arrives."""
        waiting = await self.store.sessions.waiting_for_question()
        for session in waiting:
            self.schedule_next(session.id)
        return len(waiting)

    # ---- delivering -----------------------------------------------------------------------------------

    async def deliver_next(self, session_id: int, above: Shown | None = None) -> None:
        """`above`: the bot's last message in the chat, which a status for this question may go under."""
        store = self.store
        async with self._lock(session_id):
            session = await store.sessions.get(session_id)
            if session is None or session.status != "active":
                return
            # Start-up resume and the learner's answer may both ask for the next question: only one is owed.
            if not await store.sessions.owed_question(session_id):
                return
            locale = await self.locale(session.user_id)
            position, count = session.position + 1, session.settings.count
            if position > count:
                await self.finish(session_id, locale)
                return
            if await self._count_sent(session, position):
                return
            if session.settings.versions:
                await self._deliver_stored(session, position, locale)
                return
            await self._deliver_written(session, position, locale, above)

    async def _deliver_written(
        self, session: Session, position: int, locale: str, above: Shown | None
    ) -> None:
        count = session.settings.count
        # The pending entry stays in the table until its result is used, so /cancel and /stop can cancel it.
        pending = self.pending.get((session.id, position))
        try:
            pending = pending or await self._start_generation(session, position)
        except NoSlicesError as exc:
            await self.store.sessions.cancel(session.id)
            await self.sender.text(session.chat_id, text(locale, "no_slices", reason=exc))
            return
        status = await self._status_if_slow(pending, session.chat_id, locale, position, count, above)
        result = await pending.task
        self.pending.pop((session.id, position), None)
        if (await self.store.sessions.get(session.id)).status != "active":
            return  # stopped or cancelled while the question was being written
        if status is not None:
            done_title = "status_done" if result.ok else "status_title"
            await status.close(text(locale, done_title, number=position, count=count))
        if not result.ok:
            retry = [[(text(locale, "retry"), callbacks.RETRY.build(session.id))]]
            await self.sender.text(
                session.chat_id, text(locale, "generation_failed", reason=result.failure), buttons=retry
            )
            return
        version = await self._stored(pending.request.thread_id, result) if pending.earlier else None
        if version is None:
            version = await self.store.questions.record(
                pending.request,
                result.question,
                number=result.version,
                flagged=result.outcome == "flagged",
                session_id=session.id,
            )
        await self._post(session, position, version, locale)
        if result.outcome == "flagged":
            await self.sender.text(session.chat_id, text(locale, "flagged_note"))
        if position < count:
            await self._start_generation(session, position + 1, resuming=False)

    async def _deliver_stored(self, session: Session, position: int, locale: str) -> None:
        """A question chosen when the session started (a due review, a past paper's), sent as stored. A
        case's situation goes first, once, before the first of its sub-questions."""
        version = await self.store.questions.version(session.settings.versions[position - 1])
        case = version.question.case
        if case and position > 1:
            before = await self.store.questions.version(session.settings.versions[position - 2])
            case = "" if before.question.case == case else case
        if case:
            await self.sender.text(session.chat_id, text(locale, "case_situation", case=case))
        await self._post(session, position, version, locale)

    async def _post(self, session: Session, position: int, version: QuestionVersion, locale: str) -> None:
        """Send the quiz and record its delivery at once: a poll answer names only the poll, so the poll id
        must be in storage before anyone can answer; then count it."""
        sent = await self.sender.quiz(
            session.chat_id,
            version.question,
            locale,
            version_id=version.id,
            label=f"{position}/{session.settings.count} ",
            anonymous=False,
            open_period=None,
        )
        await self.store.deliveries.record(
            poll_id=sent.poll_id,
            version_id=version.id,
            chat_id=session.chat_id,
            message_id=sent.message_id,
            kind="private",
            anonymous=False,
            session_id=session.id,
            position=position,
        )
        await self.store.sessions.advance(session.id)

    async def _start_generation(self, session: Session, position: int, *, resuming: bool = True) -> Pending:
        """Draw the slice (the chat's sampler history is stored, so no repeats across restarts) and start.
        When `resuming` (this process did not start the place's question), a verified question already in
        its thread — written just before a crash, or finished by the generation service's resume at
        start-up — is used rather than written a second time."""
        settings = session.settings
        qtype, key = question_type(settings, position), question_key(session.id, position)
        written = await self.generation.result(f"{session.chat_id}/{key}") if resuming else None
        if written is not None and written.ok:
            request = GenerationRequest(
                chat_id=session.chat_id,
                question_id=key,
                qtype=qtype,
                mode=settings.mode,
                difficulty=settings.difficulty,
            )
            pending = Pending(request=request, task=asyncio.get_running_loop().create_future(), earlier=True)
            pending.task.set_result(written)
        else:
            sampler = await self.store.chats.get_sampler_state(session.chat_id)
            drawn, sampler = self.generation.new_request(
                session.chat_id,
                qtype,
                settings.mode,
                [tuple(c) for c in settings.chapters] or None,
                settings.calculation_only,
                sampler_state=sampler,
            )
            request = drawn.model_copy(update={"question_id": key, "difficulty": settings.difficulty})
            await self.store.chats.put_sampler_state(session.chat_id, sampler)
            pending = Pending(request=request)
            pending.task = asyncio.ensure_future(
                generate_with_progress(self.generation, self.metrics, pending)
            )
        self.pending[(session.id, position)] = pending
        return pending

    async def _status_if_slow(
        self, pending: Pending, chat_id: int, locale: str, position: int, count: int, above: Shown | None
    ) -> Status | None:
        """Show the loop's progress live, but only when the learner would otherwise wait: a question that
        is ready within `status_after` seconds costs no status message (and no Bot API calls)."""
        if self.status_after > 0 and not pending.task.done():
            grace = asyncio.ensure_future(self.clock.sleep(self.status_after))
            await asyncio.wait({pending.task, grace}, return_when=asyncio.FIRST_COMPLETED)
            grace.cancel()
        if pending.task.done():
            return None
        status = self.open_status(
            chat_id, locale, text(locale, "status_title", number=position, count=count), above
        )
        await status.open()
        for event in pending.events:
            await status.add(event)
        pending.status = status
        return status

    async def _count_sent(self, session: Session, position: int) -> bool:
        """A crash between sending a quiz and counting it leaves the quiz with the learner and the position
        behind: count it now (it waits for its answer) instead of sending that question again."""
        if not any(d.position == position for d in await self.store.deliveries.for_session(session.id)):
            return False
        await self.store.sessions.advance(session.id)
        written = not session.settings.versions
        if written and position < session.settings.count and (session.id, position + 1) not in self.pending:
            await self._start_generation(session, position + 1)
        return True

    async def _stored(self, thread_id: str, result: Result) -> QuestionVersion | None:
        """The version of this result stored before a restart, if the crash came after storing it."""
        stored = await self.store.questions.by_thread(thread_id)
        version = await self.store.questions.latest(stored.id) if stored is not None else None
        return version if version is not None and version.number == result.version else None

    # ---- answers and the end --------------------------------------------------------------------------

    async def record(
        self, delivery: Delivery, user_id: int, option_ids: tuple[int, ...]
    ) -> RecordedAttempt | None:
        """Record an answer to a private quiz (committed before any reply); None when it is not graded:
        only the learner answers their round (a forwarded quiz lets anyone vote on the same poll), and
        only the first answer counts."""
        session = await self.store.sessions.get(delivery.session_id) if delivery.session_id else None
        if user_id != (session.user_id if session is not None else delivery.chat_id):
            log.info("ignored an answer by %s to poll %s in another's chat", user_id, delivery.poll_id)
            return None
        recorded = await self.store.attempts.record(delivery.id, user_id, option_ids)
        return recorded if recorded.new else None

    async def answered(self, delivery: Delivery, attempt: Attempt) -> None:
        """Explain the recorded answer and move the session on. The last answer of a session also ends
        it, in the same message: one send fewer against Telegram's budget."""
        locale = await self.locale(attempt.user_id)
        version = await self.store.questions.version(delivery.version_id)
        feedback = answer_feedback(locale, version.question, attempt.option_ids, attempt.correct)
        session = (
            await self.store.sessions.get(delivery.session_id) if delivery.session_id is not None else None
        )
        last = session is not None and delivery.position == session.settings.count
        if last and await self.finish(session.id, locale, feedback, delivery.message_id):
            return
        sent = await self.sender.text(delivery.chat_id, feedback, reply_to=delivery.message_id)
        if session is not None:
            self.schedule_next(session.id, Shown(sent, feedback))

    async def finish(
        self, session_id: int, locale: str, explanation: str = "", reply_to: int | None = None
    ) -> bool:
        """End the session with its results card, under the last answer's `explanation` when there is one.
        False if it had already ended."""
        session = await self.store.sessions.get(session_id)
        if session is None or not await self.store.sessions.finish(session_id):
            return False
        asked = (await self.store.sessions.get(session_id)).position  # a stopped session counts what it asked
        card = results_card(
            locale,
            await self.store.deliveries.for_session(session_id),
            await self.store.attempts.for_session(session_id),
            asked,
        )
        buttons = [
            [
                (text(locale, "again"), callbacks.REPEAT.build(session_id)),
                (text(locale, "results_review"), callbacks.REVIEW.build()),
                (text(locale, "results_settings"), callbacks.AGAIN.build()),
            ]
        ]
        await self.sender.text(
            session.chat_id,
            f"{explanation}\n\n{card}" if explanation else card,
            reply_to=reply_to,
            buttons=buttons,
        )
        return True

    def _drop_pending(self, session_id: int) -> None:
        for key in [k for k in self.pending if k[0] == session_id]:
            self.pending.pop(key).task.cancel()

    async def stop(self, chat_id: int, user_id: int, finish: bool) -> bool:
        """End the learner's active session: /stop scores it, /cancel just drops it."""
        session = await self.store.sessions.active(chat_id, user_id)
        if session is None:
            return False
        # Cancel the question being written, then let a delivery already under way finish before the
        # session ends: a quiz arriving after the results card would belong to a session that is over.
        self._drop_pending(session.id)
        async with self._lock(session.id):
            self._drop_pending(session.id)
            if finish:
                await self.finish(session.id, await self.locale(user_id))
            else:
                await self.store.sessions.cancel(session.id)
        return True

    async def retry(self, session_id: int, user_id: int) -> bool:
        """The retry button after a failed generation; False if the session is over or not the user's."""
        session = await self.store.sessions.get(session_id)
        if session is None or session.status != "active" or session.user_id != user_id:
            return False
        self.schedule_next(session_id)
        return True
