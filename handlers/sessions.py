"""A learner's private session: each question is generated (the next one while the current one is being
answered), delivered as a quiz poll, graded when the poll answer arrives, and the session ends with a score.

Everything a restart must survive is in storage (session position, deliveries, attempts, the chat's
sampler state); only the in-flight generations live in memory and are simply redone after a restart.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress
from dataclasses import dataclass, field

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, ReplyParameters
from telegram.ext import Application, ContextTypes

from engines.i18n import plural, text
from engines.sessions import question_key, question_type, results_card
from engines.state import BotState
from graph.service import Progress, Result
from handlers.context import state
from handlers.polls import answer_feedback, post_quiz
from handlers.status import StatusMessage
from progress.preferences import learner_zone
from progress.review import due_questions, outlook, record_answer
from progress.summary import outlook_text
from retrieval.sampler import NoSlicesError
from storage.deliveries import Delivery
from storage.questions import QuestionVersion
from storage.quiz_settings import QuizSettings
from storage.sessions import Session
from vocabulary import callbacks
from vocabulary.records import GenerationRequest

log = logging.getLogger(__name__)


@dataclass
class Pending:
    """A question being written for one place of a session; its progress is kept so a status message
    opened later (the learner answered before it was ready) can replay it."""

    request: GenerationRequest
    task: asyncio.Future[Result] | None = None
    events: list[Progress] = field(default_factory=list)
    status: StatusMessage | None = None
    # Written before a restart: the question may already be stored, and is then not stored twice.
    earlier: bool = False


def _pending(app: Application) -> dict[tuple[int, int], Pending]:
    return state(app).pending


def _lock(app: Application, session_id: int) -> asyncio.Lock:
    """One lock per session, kept only while a delivery for it runs or waits (weak values)."""
    locks = state(app).session_locks
    lock = locks.get(session_id)
    if lock is None:
        lock = locks[session_id] = asyncio.Lock()
    return lock


async def generate_with_progress(found: BotState, pending: Pending) -> Result:
    """Run one generation, keeping its progress events (and showing them if a status message is attached)
    and counting it in the metrics."""
    result: Result | None = None
    async for event in found.generation.stream(pending.request):
        if isinstance(event, Progress):
            pending.events.append(event)
            if pending.status is not None:
                await pending.status.add(event)
        else:
            result = event
    assert result is not None
    found.metrics.questions.labels(outcome=result.outcome).inc()
    found.metrics.latency.observe(result.seconds)
    found.metrics.model_calls.inc(result.usage.get("model_calls", 0))
    return result


async def _start_generation(
    app: Application, found: BotState, session: Session, position: int, *, resuming: bool = True
) -> Pending:
    """Draw the slice (the chat's sampler history is stored, so no repeats across restarts) and start.
    When `resuming` (this process did not start the place's question), a verified question already in its
    thread — written just before a crash, or finished by the generation service's resume at start-up — is
    used rather than written a second time."""
    settings = session.settings
    qtype, key = question_type(settings, position), question_key(session.id, position)
    written = await found.generation.result(f"{session.chat_id}/{key}") if resuming else None
    if written is not None and written.ok:
        request = GenerationRequest(chat_id=session.chat_id, question_id=key, qtype=qtype, mode=settings.mode)
        pending = Pending(request=request, task=asyncio.get_running_loop().create_future(), earlier=True)
        pending.task.set_result(written)
    else:
        sampler = await found.store.chats.get_sampler_state(session.chat_id)
        drawn, sampler = found.generation.new_request(
            session.chat_id,
            qtype,
            settings.mode,
            [tuple(c) for c in settings.chapters] or None,
            settings.calculation_only,
            sampler_state=sampler,
        )
        request = drawn.model_copy(update={"question_id": key})
        await found.store.chats.put_sampler_state(session.chat_id, sampler)
        pending = Pending(request=request)
        pending.task = asyncio.create_task(generate_with_progress(found, pending))
    _pending(app)[(session.id, position)] = pending
    return pending


async def start_session(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int, user_id: int, chosen: QuizSettings, summary: Message
) -> None:
    """`summary`: the dialogue's message with the chosen settings, where the first status is written."""
    session = await state(context).store.sessions.create(chat_id, user_id, chosen)
    schedule_next(context.application, session.id, summary)


async def _status_if_slow(
    app: Application,
    found: BotState,
    pending: Pending,
    chat_id: int,
    locale: str,
    position: int,
    count: int,
    above: Message | None,
) -> StatusMessage | None:
    """Show the loop's progress live, but only when the learner would otherwise wait: a question that is
    ready within `status_after` seconds costs no status message (and no Bot API calls)."""
    grace = found.settings.telegram.status_after
    if grace > 0:
        with suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(pending.task), grace)
    if pending.task.done():
        return None
    status = StatusMessage(
        app.bot, chat_id, locale, text(locale, "status_title", number=position, count=count), above
    )
    await status.open()
    for event in pending.events:
        await status.add(event)
    pending.status = status
    return status


async def deliver_next(app: Application, session_id: int, above: Message | None = None) -> None:
    """`above`: the bot's last message in the chat, which a status for this question may be written under."""
    found: BotState = state(app)
    async with _lock(app, session_id):
        session = await found.store.sessions.get(session_id)
        if session is None or session.status != "active":
            return
        # Start-up resume and the learner's answer may both ask for the next question: only one is owed.
        if not await found.store.sessions.owed_question(session_id):
            return
        locale = await found.store.users.get_locale(session.user_id) or found.settings.locale.default
        position, count = session.position + 1, session.settings.count
        if position > count:
            await finish_session(app, session_id, locale)
            return
        if await _count_sent(app, found, session, position):
            return
        if session.settings.source == "review":
            await _deliver_stored(app, found, session, position, locale)
            return
        # The pending entry stays in the table until its result is used, so /cancel and /stop can cancel it.
        pending = _pending(app).get((session_id, position))
        try:
            pending = pending or await _start_generation(app, found, session, position)
        except NoSlicesError as exc:
            await found.store.sessions.cancel(session_id)
            await app.bot.send_message(session.chat_id, text(locale, "no_slices", reason=exc))
            return
        status = await _status_if_slow(app, found, pending, session.chat_id, locale, position, count, above)
        result = await pending.task
        _pending(app).pop((session_id, position), None)
        if (await found.store.sessions.get(session_id)).status != "active":
            return  # stopped or cancelled while the question was being written
        if status is not None:
            done_title = "status_done" if result.ok else "status_title"
            await status.close(text(locale, done_title, number=position, count=count))
        if not result.ok:
            retry = InlineKeyboardMarkup(
                [
                    [
                        InlineKeyboardButton(
                            text(locale, "retry"), callback_data=callbacks.RETRY.build(session_id)
                        )
                    ]
                ]
            )
            await app.bot.send_message(
                session.chat_id, text(locale, "generation_failed", reason=result.failure), reply_markup=retry
            )
            return
        await _deliver(app, found, session, position, pending, result, locale)
        if position < count:
            await _start_generation(app, found, session, position + 1, resuming=False)


async def _count_sent(app: Application, found: BotState, session: Session, position: int) -> bool:
    """A crash between sending a quiz and counting it leaves the quiz with the learner and the position
    behind: count it now (it waits for its answer) instead of writing that question again."""
    if not any(d.position == position for d in await found.store.deliveries.for_session(session.id)):
        return False
    await found.store.sessions.advance(session.id)
    if (
        session.settings.source == "generated"
        and position < session.settings.count
        and (session.id, position + 1) not in _pending(app)
    ):
        await _start_generation(app, found, session, position + 1)
    return True


async def _deliver(
    app: Application,
    found: BotState,
    session: Session,
    position: int,
    pending: Pending,
    result: Result,
    locale: str,
) -> None:
    version = await _stored(found, pending.request.thread_id, result) if pending.earlier else None
    if version is None:
        version = await found.store.questions.record(
            pending.request,
            result.question,
            number=result.version,
            flagged=result.outcome == "flagged",
            session_id=session.id,
        )
    await post_quiz(
        app.bot,
        found.store,
        session.chat_id,
        result.question,
        locale,
        version_id=version.id,
        kind="private",
        label=f"{position}/{session.settings.count} ",
        session_id=session.id,
        position=position,
    )
    await found.store.sessions.advance(session.id)
    if result.outcome == "flagged":
        await app.bot.send_message(session.chat_id, text(locale, "flagged_note"))


async def _deliver_stored(
    app: Application, found: BotState, session: Session, position: int, locale: str
) -> None:
    """A review session's next question: the stored version chosen when it started, sent as it is."""
    version = await found.store.questions.version(session.settings.versions[position - 1])
    await post_quiz(
        app.bot,
        found.store,
        session.chat_id,
        version.question,
        locale,
        version_id=version.id,
        kind="private",
        label=f"{position}/{session.settings.count} ",
        session_id=session.id,
        position=position,
    )
    await found.store.sessions.advance(session.id)


async def _stored(found: BotState, thread_id: str, result: Result) -> QuestionVersion | None:
    """The version of this result stored before a restart, if the crash came after storing it."""
    stored = await found.store.questions.by_thread(thread_id)
    version = await found.store.questions.latest(stored.id) if stored is not None else None
    return version if version is not None and version.number == result.version else None


async def grade_private_answer(
    app: Application, delivery: Delivery, user_id: int, option_ids: tuple[int, ...]
) -> None:
    """Record the answer (committed before any reply), explain, and move the session on. Only the learner
    answers their round: a forwarded quiz lets anyone vote on the same poll, and that vote is ignored. The
    last answer of a session also ends it, in the same message: one send fewer against Telegram's budget."""
    found: BotState = state(app)
    session = await found.store.sessions.get(delivery.session_id) if delivery.session_id else None
    if user_id != (session.user_id if session is not None else delivery.chat_id):
        log.info("ignored an answer by %s to poll %s in another's chat", user_id, delivery.poll_id)
        return
    recorded = await found.store.attempts.record(delivery.id, user_id, option_ids)
    if not recorded.new:
        return
    await record_answer(found.store, recorded.attempt)
    locale = await found.store.users.get_locale(user_id) or found.settings.locale.default
    version = await found.store.questions.version(delivery.version_id)
    feedback = answer_feedback(
        locale, version.question, recorded.attempt.option_ids, recorded.attempt.correct
    )
    session = await found.store.sessions.get(delivery.session_id) if delivery.session_id is not None else None
    last = session is not None and delivery.position == session.settings.count
    if last and await finish_session(app, session.id, locale, feedback, delivery.message_id):
        return
    sent = await app.bot.send_message(
        delivery.chat_id, feedback, reply_parameters=ReplyParameters(delivery.message_id)
    )
    if delivery.session_id is not None:
        schedule_next(app, delivery.session_id, sent)


async def finish_session(
    app: Application, session_id: int, locale: str, explanation: str = "", reply_to: int | None = None
) -> bool:
    """End the session with its results card, under the last answer's `explanation` when there is one.
    False if it had already ended."""
    found: BotState = state(app)
    session = await found.store.sessions.get(session_id)
    if session is None or not await found.store.sessions.finish(session_id):
        return False
    buttons = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(text(locale, "again"), callback_data=callbacks.REPEAT.build(session_id)),
                InlineKeyboardButton(text(locale, "results_review"), callback_data=callbacks.REVIEW.build()),
                InlineKeyboardButton(text(locale, "results_settings"), callback_data=callbacks.AGAIN.build()),
            ]
        ]
    )
    asked = (await found.store.sessions.get(session_id)).position  # a stopped session counts what it asked
    result = results_card(
        locale,
        await found.store.deliveries.for_session(session_id),
        await found.store.attempts.for_session(session_id),
        asked,
    )
    await app.bot.send_message(
        session.chat_id,
        f"{explanation}\n\n{result}" if explanation else result,
        reply_markup=buttons,
        reply_parameters=ReplyParameters(reply_to) if reply_to else None,
    )
    return True


async def repeat_session(app: Application, session_id: int, user_id: int, locale: str) -> bool:
    """再来一轮: a new session with a finished one's settings, no dialogue. A review session is repeated
    as /review (what is due now), not as the same questions. False if the session is not the user's."""
    found: BotState = state(app)
    done = await found.store.sessions.get(session_id)
    if done is None or done.user_id != user_id:
        return False
    if done.settings.source == "review":
        await start_review(app, done.chat_id, user_id, locale)
        return True
    session = await found.store.sessions.create(done.chat_id, user_id, done.settings)
    above = await app.bot.send_message(
        done.chat_id, text(locale, "repeat_started", number=1, count=done.settings.count)
    )
    schedule_next(app, session.id, above)
    return True


async def start_review(app: Application, chat_id: int, user_id: int, locale: str) -> None:
    """错题重练: the learner's due questions as a session of their own (each as its latest version, so a
    published revision replaces what was missed), or when the next one comes due."""
    found: BotState = state(app)
    due = await due_questions(found.store, user_id)
    if not due:
        zone = learner_zone(await found.store.preferences.get(user_id))
        await app.bot.send_message(chat_id, outlook_text(await outlook(found.store, user_id), locale, zone))
        return
    versions = tuple(d.version.id for d in due)
    chosen = QuizSettings(count=len(versions), source="review", versions=versions)
    session = await found.store.sessions.create(chat_id, user_id, chosen)
    revised = sum(d.revised for d in due)
    intro = plural(locale, "review_started", len(versions))
    if revised:
        intro = f"{intro}\n{plural(locale, 'review_revised', revised)}"
    above = await app.bot.send_message(chat_id, intro)
    schedule_next(app, session.id, above)


def schedule_next(app: Application, session_id: int, above: Message | None = None) -> None:
    """Deliver the session's next question in the background. While the bot is stopping nothing new starts:
    the session is stored, and `resume_sessions` takes it up on the next start."""
    if not app.running:
        return
    task = app.create_task(deliver_next(app, session_id, above))
    tasks: set[asyncio.Task] = state(app).session_tasks
    tasks.add(task)
    task.add_done_callback(tasks.discard)


async def resume_sessions(app: Application) -> int:
    """After a restart, carry on every session whose learner is owed a question (its generation was lost
    with the old process); sessions waiting on an answer resume when the answer arrives."""
    found: BotState = state(app)
    waiting = await found.store.sessions.waiting_for_question()
    for session in waiting:
        schedule_next(app, session.id)
    return len(waiting)


def drop_pending(app: Application, session_id: int) -> None:
    for key in [k for k in _pending(app) if k[0] == session_id]:
        _pending(app).pop(key).task.cancel()


async def stop_session(app: Application, chat_id: int, user_id: int, finish: bool) -> bool:
    """End the learner's active session: /stop scores it, /cancel just drops it."""
    found: BotState = state(app)
    session = await found.store.sessions.active(chat_id, user_id)
    if session is None:
        return False
    # Cancel the question being written, then let a delivery already under way finish before the session
    # ends: a quiz arriving after the end-of-session message would belong to a session that is over.
    drop_pending(app, session.id)
    async with _lock(app, session.id):
        drop_pending(app, session.id)
        if finish:
            locale = await found.store.users.get_locale(user_id) or found.settings.locale.default
            await finish_session(app, session.id, locale)
        else:
            await found.store.sessions.cancel(session.id)
    return True
