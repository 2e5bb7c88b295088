"""Preparing a timed round: every question is written before the first is posted, a few at a time, with
one live progress message in the chat where the settings were chosen. If fewer pass verification than were
asked for, the initiator chooses between starting with those and cancelling."""

from __future__ import annotations

import asyncio

from telegram import Update
from telegram.ext import Application, ContextTypes

from engines.i18n import text
from engines.rounds import LiveRound, RoundKind, question_key
from engines.sessions import Pending, generate_with_progress, question_type
from engines.state import BotState
from graph.service import Result
from handlers.context import acknowledge, remember, state
from handlers.pacing import paced
from handlers.status import StatusMessage
from retrieval.sampler import NoSlicesError
from storage.errors import ConflictError
from storage.quiz_settings import QuizSettings
from vocabulary import callbacks
from vocabulary.records import GenerationRequest

# Questions written at once (a model author has its own concurrency limit too).
PREPARE_CONCURRENCY = 3


async def begin(
    app: Application,
    *,
    kind: RoundKind,
    chat_id: int,
    home_id: int,
    user_id: int,
    title: str,
    settings: QuizSettings,
    seconds: int,
    interval: int,
    locale: str,
) -> bool:
    """Open the round and start writing its questions; False if the chat already has a live round."""
    try:
        round_ = await state(app).store.rounds.create(chat_id, user_id, settings, seconds, interval)
    except ConflictError:
        return False
    playing = LiveRound(round_.id, kind, chat_id, home_id, user_id, title, locale, seconds, interval)
    state(app).rounds.live[round_.id] = playing
    playing.task = app.create_task(_prepare(app, playing, settings))
    return True


async def _requests(found: BotState, playing: LiveRound, settings: QuizSettings) -> list[GenerationRequest]:
    """Draw every slice up front from the chat's stored sampler history, so the round has no repeats."""
    sampler = await found.store.chats.get_sampler_state(playing.chat_id)
    chapters = [tuple(c) for c in settings.chapters] or None
    requests = []
    for number in range(1, settings.count + 1):
        drawn, sampler = found.generation.new_request(
            playing.chat_id,
            question_type(settings, number),
            settings.mode,
            chapters,
            settings.calculation_only,
            sampler_state=sampler,
        )
        requests.append(drawn.model_copy(update={"question_id": question_key(playing.round_id, number)}))
    await found.store.chats.put_sampler_state(playing.chat_id, sampler)
    return requests


async def _prepare(app: Application, playing: LiveRound, settings: QuizSettings) -> None:
    found, locale, count = state(app), playing.locale, settings.count
    status = StatusMessage(
        app.bot, playing.home_id, locale, text(locale, "round_preparing", done=0, count=count)
    )
    try:
        async with paced(app, playing.home_id):
            await status.open()
        try:
            requests = await _requests(found, playing, settings)
        except NoSlicesError as exc:
            await state(app).rounds.drop(playing)
            await status.close(text(locale, "no_slices", reason=exc))
            return
        await _write_all(found, playing, requests, status)
    except Exception:
        await state(app).rounds.drop(playing)
        await found.rounds.tell_home(playing, text(locale, "error"))
        raise
    ready = len(playing.versions)
    await status.close(text(locale, "round_prepared", ready=ready, count=count))
    if ready == 0:
        await state(app).rounds.drop(playing)
        await found.rounds.tell_home(playing, text(locale, "round_none"))
    elif ready < count:
        buttons = [
            [
                (
                    text(locale, "round_start_fewer", ready=ready),
                    callbacks.ROUND_CONFIRM.build(playing.round_id, "go"),
                ),
                (text(locale, "round_cancel"), callbacks.ROUND_CONFIRM.build(playing.round_id, "no")),
            ]
        ]
        await found.rounds.tell_home(playing, text(locale, "round_fewer", ready=ready, count=count), buttons)
    else:
        await state(app).rounds.start(playing)


async def _write_all(
    found: BotState, playing: LiveRound, requests: list[GenerationRequest], status: StatusMessage
) -> None:
    """Write the questions a few at a time; the verified ones are stored in the round's order."""
    gate = asyncio.Semaphore(PREPARE_CONCURRENCY)
    done = 0

    async def write(request: GenerationRequest) -> Result:
        nonlocal done
        async with gate:
            result = await generate_with_progress(
                found.generation, found.metrics, Pending(request=request, status=status)
            )
        done += 1
        status.title = text(playing.locale, "round_preparing", done=done, count=len(requests))
        return result

    results = await asyncio.gather(*(write(request) for request in requests))
    for request, result in zip(requests, results, strict=True):
        if result.ok:
            version = await found.store.questions.record(
                request,
                result.question,
                number=result.version,
                flagged=result.outcome == "flagged",
                round_id=playing.round_id,
            )
            playing.versions.append(version.id)


async def confirm_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The initiator's answer to "only N of M questions could be written — start with N?"."""
    query = update.callback_query
    locale = await remember(update, context)
    round_id, choice = callbacks.ROUND_CONFIRM.parse(query.data)
    playing = state(context).rounds.live.get(round_id)
    round_ = await state(context).store.rounds.get(round_id)
    if playing is None or round_ is None or round_.status != "preparing" or not playing.versions:
        await acknowledge(query, text(locale, "stale_button"))
        return
    if query.from_user.id != playing.initiator_id:
        await acknowledge(query, text(locale, "round_not_initiator"))
        return
    await acknowledge(query)
    if choice == "go":
        await query.edit_message_text(text(locale, "round_starting", count=len(playing.versions)))
        await state(context.application).rounds.start(playing)
    else:
        await state(context.application).rounds.drop(playing)
        await query.edit_message_text(text(locale, "round_cancelled"))
