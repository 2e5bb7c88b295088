"""Playing a timed round: in a group (/groupquiz) or a channel (/post).

Its questions are written first (handlers/roundprep.py); then they go out one at a time as quiz polls with
an open period. A poll closes by Telegram's poll update or by our JobQueue
timer, whichever comes first — `deliveries.close` lets exactly one through — and the full explanation
follows as a reply, then the next question (in a channel, after the chosen pause). A group round ends with
its leaderboard.

What a restart must survive is stored: the round, its questions (thread ids `r<round>q<k>`, so they can be
found again in order), the deliveries and the answers. This process keeps only timers and a small `LiveRound`
record per round, rebuilt from storage when the bot starts again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Literal

from telegram import ReplyParameters, Update
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import Application, ContextTypes

from engines.state import BotState
from graph.format import STEM_LIMIT
from handlers.context import state
from handlers.i18n import text
from handlers.leaderboard import round_leaderboard
from handlers.pacing import paced, post
from handlers.polls import post_quiz, send_quiz, vote_keyboard
from storage.deliveries import Delivery
from storage.questions import QuestionVersion
from storage.rounds import Round
from vocabulary.records import Question

log = logging.getLogger(__name__)
RoundKind = Literal["group", "channel"]

# Real seconds per second of round time (open periods and pauses). Tests shrink it to play rounds quickly.
SECOND = 1.0
# Our timer fires this long after a poll's close time, so Telegram's own poll update normally wins.
CLOSE_GRACE = 1.0
# A closed-poll update may arrive in the same batch as last-second answers: let those be recorded first.
CLOSE_SETTLE = 0.3
# After a restart, queued answers to a poll that closed meanwhile are fetched before it is closed here.
RESUME_DELAY = 1.0


@dataclass
class LiveRound:
    """A round this process is preparing or playing. `chat_id` is where the polls go; `home_id` is where
    the settings were chosen and where progress and notices go (the group itself, or the instructor's
    private chat for a channel). `interval` is the pause after each close in a channel (0 in a group)."""

    round_id: int
    kind: RoundKind
    chat_id: int
    home_id: int
    initiator_id: int
    title: str
    locale: str
    seconds: int
    interval: int
    versions: list[int] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    task: asyncio.Task[None] | None = None
    stopping: bool = False


def registry(app: Application) -> dict[int, LiveRound]:
    return state(app).rounds


def question_key(round_id: int, number: int) -> str:
    return f"r{round_id}q{number}"


async def _locale_of(found: BotState, user_id: int) -> str:
    return await found.store.users.get_locale(user_id) or found.settings.locale.default


def _telegram_seconds(seconds: float) -> int | float:
    scaled = seconds * SECOND
    return int(scaled) if float(scaled).is_integer() else scaled


async def tell_home(app: Application, playing: LiveRound, body: str, **options: object) -> None:
    try:
        await post(app, playing.home_id, body, **options)
    except TelegramError as exc:
        log.warning("could not tell chat %s about round %s: %s", playing.home_id, playing.round_id, exc)


async def drop(app: Application, playing: LiveRound) -> None:
    await state(app).store.rounds.cancel(playing.round_id)
    registry(app).pop(playing.round_id, None)


# ---- playing --------------------------------------------------------------------------------------------


async def start(app: Application, playing: LiveRound) -> None:
    if not await state(app).store.rounds.start(playing.round_id, len(playing.versions)):
        return
    if playing.kind == "channel":
        await tell_home(
            app,
            playing,
            text(
                playing.locale,
                "round_channel_started",
                channel=playing.title,
                count=len(playing.versions),
                seconds=playing.seconds,
            ),
        )
    await post_next(app, playing)


def _close_job_name(delivery_id: int) -> str:
    return f"round-close:{delivery_id}"


def _arm_close(app: Application, delivery_id: int, delay: float) -> None:
    app.job_queue.run_once(_close_job, delay, data=delivery_id, name=_close_job_name(delivery_id))


async def post_next(app: Application, playing: LiveRound) -> None:
    """Post the round's next question, or finish the round after the last one."""
    found = state(app)
    async with playing.lock:
        if playing.stopping:
            return
        round_ = await found.store.rounds.get(playing.round_id)
        if round_ is None or round_.status != "running":
            return
        position = round_.position + 1
        if position > round_.question_count:
            await finish(app, playing)
            return
        version = await found.store.questions.version(playing.versions[position - 1])
        label = f"{position}/{round_.question_count} "
        # send_quiz puts a stem too long for a poll in a message of its own first. (Not post_quiz: the
        # delivery keeps the round's own seconds, which tests shrink on the way to Telegram.)
        messages = 2 if len(label + version.question.stem) > STEM_LIMIT else 1
        try:
            async with paced(app, playing.chat_id, messages):
                message = await send_quiz(
                    app.bot,
                    playing.chat_id,
                    version.question,
                    playing.locale,
                    version_id=version.id,
                    label=label,
                    anonymous=playing.kind == "channel",
                    open_period=_telegram_seconds(playing.seconds),
                )
        except (BadRequest, Forbidden) as exc:
            log.warning("round %s: cannot post in chat %s: %s", playing.round_id, playing.chat_id, exc)
            await drop(app, playing)
            await tell_home(
                app,
                playing,
                text(playing.locale, "round_post_failed", chat=playing.title, reason=exc.message),
            )
            return
        delivery = await found.store.deliveries.record(
            poll_id=message.poll.id,
            version_id=version.id,
            chat_id=playing.chat_id,
            message_id=message.message_id,
            kind=playing.kind,
            anonymous=playing.kind == "channel",
            round_id=playing.round_id,
            position=position,
            open_period=playing.seconds,
        )
        await found.store.rounds.advance(playing.round_id)
        _arm_close(app, delivery.id, playing.seconds * SECOND + CLOSE_GRACE)
    if playing.kind == "channel":
        await _send_copy(app, playing, version, label)


async def _send_copy(app: Application, playing: LiveRound, version: QuestionVersion, label: str) -> None:
    """The instructor's copy of a channel question, a quiz in their private chat with the same 👍/👎:
    channel polls are anonymous, so this is where the question can be answered and judged."""
    try:
        await post_quiz(
            app.bot,
            state(app).store,
            playing.home_id,
            version.question,
            playing.locale,
            version_id=version.id,
            kind="private",
            label=text(playing.locale, "round_copy_label", channel=playing.title, label=label),
        )
    except TelegramError as exc:
        log.warning("round %s: no copy for instructor %s: %s", playing.round_id, playing.home_id, exc)


def explanation_text(locale: str, position: int, question: Question, tally: tuple[int, int] | None) -> str:
    answer = "；".join(f"{chr(65 + i)}. {question.options[i]}" for i in question.correct_indexes)
    lines = [text(locale, "round_answer", number=position, answer=answer)]
    if tally is not None:
        right, answered = tally
        lines.append(
            text(locale, "round_right_count", right=right, answered=answered)
            if answered
            else text(locale, "round_nobody")
        )
    lines.append(text(locale, "full_explanation", explanation=question.explanation))
    return "\n".join(lines)


async def _close_delivery(
    app: Application, delivery: Delivery, playing: LiveRound, stop_poll: bool = False
) -> bool:
    """Close one poll of the round and post its explanation; False if it was already closed. Answers
    arriving after this are not counted."""
    found = state(app)
    if not await found.store.deliveries.close(delivery.id):
        return False
    for job in app.job_queue.get_jobs_by_name(_close_job_name(delivery.id)):
        job.schedule_removal()
    if stop_poll:
        with suppress(BadRequest):  # Telegram closed it already
            await app.bot.stop_poll(
                delivery.chat_id, delivery.message_id, reply_markup=vote_keyboard(delivery.version_id)
            )
    version = await found.store.questions.version(delivery.version_id)
    tally = None
    if delivery.kind == "group":
        attempts = await found.store.attempts.for_delivery(delivery.id)
        tally = (sum(a.correct for a in attempts), len(attempts))
    body = explanation_text(playing.locale, delivery.position, version.question, tally)
    if version.flagged:
        body = f"{body}\n{text(playing.locale, 'flagged_note')}"
    try:
        await post(
            app,
            delivery.chat_id,
            body,
            reply_parameters=ReplyParameters(delivery.message_id, allow_sending_without_reply=True),
        )
    except TelegramError as exc:
        log.warning("round %s: no explanation for poll %s: %s", playing.round_id, delivery.poll_id, exc)
    return True


async def _closed(app: Application, delivery_id: int) -> None:
    """A poll of a round closed (update or timer): explain it and go on."""
    found = state(app)
    delivery = await found.store.deliveries.get(delivery_id)
    playing = registry(app).get(delivery.round_id) if delivery and delivery.round_id else None
    if playing is None or not await _close_delivery(app, delivery, playing):
        return
    if playing.stopping:
        return
    round_ = await found.store.rounds.get(playing.round_id)
    last = round_ is None or round_.position >= round_.question_count
    if playing.kind == "group" or last or playing.interval == 0:
        await post_next(app, playing)
    else:
        app.job_queue.run_once(
            _next_job, playing.interval * SECOND, data=playing.round_id, name=f"round-next:{playing.round_id}"
        )


async def _close_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    await _closed(context.application, context.job.data)


async def _next_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    playing = registry(context.application).get(context.job.data)
    if playing is not None:
        await post_next(context.application, playing)


async def poll_closed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Telegram's poll update. It also comes for every vote; only a closed poll of a round matters."""
    state(context).metrics.updates.inc()
    poll = update.poll
    if not poll.is_closed:
        return
    delivery = await state(context).store.deliveries.by_poll(poll.id)
    if delivery is None or delivery.round_id is None or delivery.closed:
        return
    await asyncio.sleep(CLOSE_SETTLE)
    await _closed(context.application, delivery.id)


async def finish(app: Application, playing: LiveRound, interrupted: bool = False) -> None:
    """End a running round once: the leaderboard in a group, a note to the instructor for a channel."""
    found = state(app)
    registry(app).pop(playing.round_id, None)
    if not await found.store.rounds.finish(playing.round_id):
        return
    if playing.kind == "group":
        standings = await found.store.rounds.leaderboard(playing.round_id)
        await tell_home(app, playing, round_leaderboard(playing.locale, standings))
        return
    round_ = await found.store.rounds.get(playing.round_id)
    key = "round_channel_interrupted" if interrupted else "round_channel_finished"
    await tell_home(
        app,
        playing,
        text(playing.locale, key, channel=playing.title, posted=round_.position, count=round_.question_count),
    )


# ---- stopping, orphans and restarts ---------------------------------------------------------------------


async def _restore(found: BotState, round_: Round) -> LiveRound:
    """The `LiveRound` of a round this process did not start, rebuilt from storage (its pace included)."""
    chat = await found.store.chats.get(round_.chat_id)
    channel = chat is not None and chat.type == "channel"
    versions = []
    for number in range(1, round_.settings.count + 1):
        stored = await found.store.questions.by_thread(f"{round_.chat_id}/{question_key(round_.id, number)}")
        latest = await found.store.questions.latest(stored.id) if stored is not None else None
        if latest is not None:
            versions.append(latest.id)
    return LiveRound(
        round_id=round_.id,
        kind="channel" if channel else "group",
        chat_id=round_.chat_id,
        home_id=round_.initiator_id if channel else round_.chat_id,
        initiator_id=round_.initiator_id,
        title=chat.title if chat is not None else "",
        locale=await _locale_of(found, round_.initiator_id),
        seconds=round_.seconds or 0,
        interval=round_.pause if channel else 0,
        versions=versions,
    )


async def stop(app: Application, round_: Round) -> None:
    """End a live round early: a round still being prepared is cancelled; a running one has its open poll
    closed and explained, then finishes as usual (leaderboard or note) with the scores so far."""
    found = state(app)
    playing = registry(app).get(round_.id)
    if round_.status == "preparing":
        if playing is not None and playing.task is not None:
            playing.task.cancel()
        await found.store.rounds.cancel(round_.id)
        registry(app).pop(round_.id, None)
        return
    playing = playing or await _restore(found, round_)
    playing.stopping = True
    for job in app.job_queue.get_jobs_by_name(f"round-next:{round_.id}"):
        job.schedule_removal()
    async with playing.lock:
        for delivery in await found.store.deliveries.for_round(round_.id):
            if not delivery.closed:
                await _close_delivery(app, delivery, playing, stop_poll=True)
    await finish(app, playing, interrupted=playing.kind == "channel")


async def make_room(app: Application, chat_id: int, locale: str) -> bool:
    """False while this process plays a live round in the chat. A live round nobody plays any more (the
    bot restarted during its preparation, or between two polls) is ended cleanly instead, so it cannot
    block the chat for good."""
    found = state(app)
    live = await found.store.rounds.live(chat_id)
    if live is None:
        return True
    if live.id in registry(app):
        return False
    chat = await found.store.chats.get(chat_id)
    if live.status == "running" and chat is not None and chat.type != "channel":
        await post(app, chat_id, text(locale, "round_interrupted"))
    await stop(app, live)
    return True


async def resume_rounds(app: Application) -> int:
    """After a restart: re-arm the close timer of every open poll of a running round (a poll whose time ran
    out while the bot was down closes shortly after startup, once queued answers are in) and carry on.
    Returns how many rounds were taken up again."""
    found = state(app)
    resumed = 0
    for delivery in await found.store.deliveries.pending_close():
        if delivery.round_id is None:
            continue
        round_ = await found.store.rounds.get(delivery.round_id)
        if round_ is None or round_.status != "running":
            await found.store.deliveries.close(delivery.id)
            continue
        if round_.id not in registry(app):
            registry(app)[round_.id] = await _restore(found, round_)
            resumed += 1
        due = delivery.delivered_at + delivery.open_period * SECOND + CLOSE_GRACE - time.time()
        _arm_close(app, delivery.id, max(due, RESUME_DELAY))
    for round_ in await found.store.rounds.live_all():
        if round_.id in registry(app):
            continue
        if round_.status == "running" and round_.seconds:
            # Between two polls when the bot stopped: carry on with the next question.
            playing = registry(app)[round_.id] = await _restore(found, round_)
            app.create_task(post_next(app, playing))
            resumed += 1
            continue
        # Its questions were still being written: end it cleanly, and say so where it was started.
        playing = await _restore(found, round_)
        await stop(app, round_)
        await tell_home(app, playing, text(playing.locale, "round_interrupted"))
    return resumed
