"""Preparing a timed series: every question is written before the first is posted, a few at a time, with
one live progress message in the chat where the settings were chosen. If fewer pass verification than were
asked for, the initiator chooses between starting with those and cancelling."""

from __future__ import annotations

import asyncio

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import Application, ContextTypes

from graph.schemas import GenerationRequest
from graph.service import Result
from handlers.context import Services, acknowledge, remember, services
from handlers.i18n import text
from handlers.pacing import paced
from handlers.rounds import Pending, generate_with_progress, question_type
from handlers.series import Series, SeriesKind, drop, found_services, question_key, registry, start, tell_home
from handlers.status import StatusMessage
from retrieval.sampler import NoSlicesError
from storage.errors import ConflictError
from storage.quiz_settings import QuizSettings

# Questions written at once (a model author has its own concurrency limit too).
PREPARE_CONCURRENCY = 3


async def begin(
    app: Application,
    *,
    kind: SeriesKind,
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
        round_ = await found_services(app).store.rounds.create(chat_id, user_id, settings, seconds, interval)
    except ConflictError:
        return False
    series = Series(round_.id, kind, chat_id, home_id, user_id, title, locale, seconds, interval)
    registry(app)[round_.id] = series
    series.task = app.create_task(_prepare(app, series, settings))
    return True


async def _requests(found: Services, series: Series, settings: QuizSettings) -> list[GenerationRequest]:
    """Draw every slice up front from the chat's stored sampler history, so the round has no repeats."""
    state = await found.store.chats.get_sampler_state(series.chat_id)
    chapters = [tuple(c) for c in settings.chapters] or None
    requests = []
    for number in range(1, settings.count + 1):
        drawn, state = found.generation.new_request(
            series.chat_id,
            question_type(settings, number),
            settings.mode,
            chapters,
            settings.calculation_only,
            sampler_state=state,
        )
        requests.append(drawn.model_copy(update={"question_id": question_key(series.round_id, number)}))
    await found.store.chats.put_sampler_state(series.chat_id, state)
    return requests


async def _prepare(app: Application, series: Series, settings: QuizSettings) -> None:
    found, locale, count = found_services(app), series.locale, settings.count
    status = StatusMessage(
        app.bot, series.home_id, locale, text(locale, "series_preparing", done=0, count=count)
    )
    try:
        async with paced(app, series.home_id):
            await status.open()
        try:
            requests = await _requests(found, series, settings)
        except NoSlicesError as exc:
            await drop(app, series)
            await status.close(text(locale, "no_slices", reason=exc))
            return
        await _write_all(found, series, requests, status)
    except Exception:
        await drop(app, series)
        await tell_home(app, series, text(locale, "error"))
        raise
    ready = len(series.versions)
    await status.close(text(locale, "series_prepared", ready=ready, count=count))
    if ready == 0:
        await drop(app, series)
        await tell_home(app, series, text(locale, "series_none"))
    elif ready < count:
        buttons = [
            InlineKeyboardButton(
                text(locale, "series_start_fewer", ready=ready), callback_data=f"sr:{series.round_id}:go"
            ),
            InlineKeyboardButton(text(locale, "series_cancel"), callback_data=f"sr:{series.round_id}:no"),
        ]
        await tell_home(
            app,
            series,
            text(locale, "series_fewer", ready=ready, count=count),
            reply_markup=InlineKeyboardMarkup([buttons]),
        )
    else:
        await start(app, series)


async def _write_all(
    found: Services, series: Series, requests: list[GenerationRequest], status: StatusMessage
) -> None:
    """Write the questions a few at a time; the verified ones are stored in the round's order."""
    gate = asyncio.Semaphore(PREPARE_CONCURRENCY)
    done = 0

    async def write(request: GenerationRequest) -> Result:
        nonlocal done
        async with gate:
            result = await generate_with_progress(found, Pending(request=request, status=status))
        done += 1
        status.title = text(series.locale, "series_preparing", done=done, count=len(requests))
        return result

    results = await asyncio.gather(*(write(request) for request in requests))
    for request, result in zip(requests, results, strict=True):
        if result.ok:
            version = await found.store.questions.record(
                request,
                result.question,
                number=result.version,
                flagged=result.outcome == "flagged",
                round_id=series.round_id,
            )
            series.versions.append(version.id)


async def confirm_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The initiator's answer to "only N of M questions could be written — start with N?"."""
    query = update.callback_query
    locale = await remember(update, context)
    _, round_id, choice = query.data.split(":")
    series = registry(context.application).get(int(round_id))
    round_ = await services(context).store.rounds.get(int(round_id))
    if series is None or round_ is None or round_.status != "preparing" or not series.versions:
        await acknowledge(query, text(locale, "stale_button"))
        return
    if query.from_user.id != series.initiator_id:
        await acknowledge(query, text(locale, "series_not_initiator"))
        return
    await acknowledge(query)
    if choice == "go":
        await query.edit_message_text(text(locale, "series_starting", count=len(series.versions)))
        await start(context.application, series)
    else:
        await drop(context.application, series)
        await query.edit_message_text(text(locale, "series_cancelled"))
