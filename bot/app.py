"""The PTB Application factory: the same bot for Telegram and for the local emulator, differing only in
the Bot API base URL. BotState (sources, generation loop, store) open in `running` before the
first update and close after the last, so a stopped bot leaves no connection or half-written checkpoint."""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from telegram import BotCommand
from telegram.error import InvalidToken, NetworkError, TelegramError
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder

import handlers
from bot.transport import AiohttpRequest
from engines.clock import POSTS_PER_WINDOW, Clock, Pace, WallClock
from engines.metrics import Metrics
from engines.sending import Sender
from engines.state import KEY, BotState
from handlers.context import state
from handlers.feedback import abandon_interrupted_revisions
from handlers.reminders import rearm
from handlers.status import StatusMessage
from handlers.telegram_sender import TelegramSender
from retrieval.sources import Sources, load_sources
from settings import Settings, StartupError
from storage import Store

log = logging.getLogger(__name__)
# Bot API requests in flight at once; more wait for a free connection. Telegram's budget of about 30
# messages a second keeps a few in flight at its ~100 ms latency, so this leaves room for bursts of presses.
SENDING_CONNECTIONS = 100
# The collector's first threshold while the bot runs (Python's is 700 allocations): an update allocates
# thousands of short-lived objects (PTB's, aiohttp's) that reference counting frees anyway, and at 700 the
# collector ran several times an update, its passes over the older generations most of all.
YOUNG_COLLECTION = 20_000
DEFAULT_YOUNG_COLLECTION = gc.get_threshold()[0]

COMMANDS = (
    ("quiz", "开始练习 / practise"),
    ("review", "错题重练 / review missed questions"),
    ("stats", "学习统计 / your statistics"),
    ("stop", "结束本轮 / end the round"),
    ("cancel", "取消 / cancel"),
    ("lang", "语言 / language"),
    ("settings", "我的设置与复习提醒 / settings and reminders"),
    ("groupquiz", "群组测验（管理员）/ group round (admins)"),
    ("stopquiz", "结束群组测验 / end the group round"),
    ("leaderboard", "群组排行榜 / group leaderboard"),
    ("groupstats", "班级统计（管理员/教师）/ class statistics (admins, instructors)"),
    ("post", "向频道发布测验（教师）/ post to a channel (instructors)"),
    ("reports", "学员反馈（教师）/ learner reports (instructors)"),
    ("export", "导出题目（教师）/ export questions (instructors)"),
    ("help", "帮助 / help"),
)


def load_checked_sources(settings: Settings, read: Callable[[Path, Path], Sources] | None = None) -> Sources:
    sources = (read or load_sources)(settings.data.knowledge_base, settings.data.question_bank)
    if sources.fatal:
        raise StartupError("; ".join(str(p) for p in sources.fatal))
    for problem in sources.problems:
        log.info("data: %s", problem)
    return sources


def build_application(
    settings: Settings,
    token: str,
    metrics: Metrics | None = None,
    pace: Pace | None = None,
    clock: Clock | None = None,
    wrap_sender: Callable[[Sender], Sender] | None = None,
    read_sources: Callable[[Path, Path], Sources] | None = None,
) -> Application:
    """`pace`: the timing of timed rounds and group posts; tests pass a shrunk one. `clock`: the time the
    engines and the store go by; tests move it forward (a review coming due) instead of waiting.
    `wrap_sender`: what the engines send through, around the Telegram sender (tests hold or fail a send).
    `read_sources`: how the knowledge base and bank are read at start (tests reuse one reading)."""
    pace = pace or Pace()
    base = settings.telegram.base_url.rstrip("/")
    file_base = base[: -len("/bot")] + "/file/bot" if base.endswith("/bot") else base + "/file"
    application = (
        ApplicationBuilder()
        .token(token)
        .base_url(base)
        .base_file_url(file_base)
        .request(AiohttpRequest(connections=SENDING_CONNECTIONS))
        .get_updates_request(AiohttpRequest(connections=1))
        .rate_limiter(
            AIORateLimiter(
                overall_max_rate=settings.telegram.rate_limit,
                group_max_rate=POSTS_PER_WINDOW if pace.group_limiter else 0,
                group_time_period=pace.post_window,
                max_retries=3,
            )
        )
        .concurrent_updates(True)
        .build()
    )
    application.bot_data[KEY] = BotState(
        settings=settings,
        metrics=metrics or Metrics(),
        pace=pace,
        clock=clock or WallClock(),
        wrap_sender=wrap_sender,
        read_sources=read_sources,
    )
    handlers.register(application)
    return application


async def open_services(application: Application) -> None:
    found = state(application)
    settings = found.settings
    # The store first: a bad file is found in milliseconds, before the sources and the graph are built.
    store = await Store.open(
        settings.storage.database, synchronous=settings.storage.synchronous, clock=found.clock.now
    )
    try:
        sources = load_checked_sources(settings, found.read_sources)
        # Imported here: the loop's libraries take seconds, and a bad store or token is refused without them.
        from graph.service import GenerationService

        generation = await GenerationService.open(settings, sources=sources)
    except BaseException:
        await store.close()
        raise
    sender = TelegramSender(application)
    found.open(
        sources,
        generation,
        store,
        found.wrap_sender(sender) if found.wrap_sender else sender,
        lambda chat_id, locale, title, above: StatusMessage(application, chat_id, locale, title, above),
    )
    try:
        await application.bot.set_my_commands([BotCommand(name, about) for name, about in COMMANDS])
    except TelegramError as exc:
        # Only the command menu in Telegram's input field is missing; every command still works.
        log.warning("the Bot API refused setMyCommands (%s); going on without the command menu", exc)
    # The sources, indexes and graph just loaded live as long as the process: moved out of the collector's
    # reach, a full collection no longer rescans them (pauses of ~150 ms every few seconds under load).
    gc.collect()
    gc.freeze()
    _, *older = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION, *older)
    resumed = await generation.resume_pending()
    if resumed:
        log.info("finished %d generation(s) interrupted by the last shutdown", len(resumed))


async def close_services(application: Application) -> None:
    found = state(application)
    if not found.running:
        return
    # Work still in flight would meet a closed store: stop it first (stored sessions resume on restart).
    await found.sessions.close()
    await found.prep.close()
    await found.rounds.close()
    await found.generation.close()
    await found.store.close()
    found.close()
    # What start-up froze may be garbage now; a process that runs the bot again (the tests) must collect it.
    gc.unfreeze()
    _, *older = gc.get_threshold()
    gc.set_threshold(DEFAULT_YOUNG_COLLECTION, *older)


async def _initialize(application: Application) -> None:
    """getMe, with its failure worded for the operator: PTB's own message quotes the whole token."""
    try:
        await application.initialize()
    except TelegramError as exc:
        await application.shutdown()
        raise StartupError(_bot_api_failure(exc, application)) from None


def _bot_api_failure(exc: TelegramError, application: Application) -> str:
    telegram = state(application).settings.telegram
    if isinstance(exc, InvalidToken):
        return (
            f"the Bot API at {telegram.base_url} rejected the token in ${telegram.token_env}; "
            "copy it again from @BotFather"
        )
    reason = str(exc).replace(application.bot.token, "…")
    if isinstance(exc, NetworkError):
        return (
            f"cannot reach the Bot API at {telegram.base_url} ({reason}); "
            "check the network, or [telegram] base_url"
        )
    return f"the Bot API at {telegram.base_url} refused getMe ({reason}); check [telegram] base_url"


@asynccontextmanager
async def running(application: Application) -> AsyncIterator[Application]:
    """Initialise, open the services, start processing updates; undo all of it on the way out."""
    await _initialize(application)
    async with application:
        await open_services(application)
        try:
            await application.start()
            await abandon_interrupted_revisions(application)
            resumed = await state(application).sessions.resume()
            if resumed:
                log.info("resumed %d round(s) that were waiting for a question", resumed)
            armed = await rearm(application)
            if armed:
                log.info("armed %d daily review reminder(s)", armed)
            continued = await state(application).rounds.resume()
            if continued:
                log.info("took up %d timed group or channel round(s) again", continued)
            yield application
        finally:
            if application.updater is not None and application.updater.running:
                await application.updater.stop()
            if application.running:
                await application.stop()
            await close_services(application)
