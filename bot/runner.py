"""Running an Application until asked to stop: long polling for development, webhook in production."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import AsyncIterator, Coroutine
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any, TypeVar

import uvloop
from aiohttp import web
from telegram.ext import Application

from bot.app import running
from bot.webhook import UPDATE_PATH, create_metrics_app, create_webhook_app
from engines.metrics import Metrics
from handlers.context import state
from settings import Settings, StartupError

log = logging.getLogger(__name__)
T = TypeVar("T")

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure_logging(filename: str | None = None) -> None:
    """INFO logs, without httpx's request lines: their URLs contain the bot token."""
    logging.basicConfig(filename=filename, level=logging.INFO, format=LOG_FORMAT)
    logging.getLogger("httpx").setLevel(logging.WARNING)


def run_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run the bot on uvloop's event loop: its scheduling, sockets and timers are in C, where asyncio's
    pure-Python loop was about a tenth of the bot's CPU over the load bench."""
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def stop_on_signals(stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)


@asynccontextmanager
async def listening(app: web.Application, host: str, port: int, setting: str) -> AsyncIterator[None]:
    """Serve `app` on host:port; an address that cannot be bound is a start-up error naming the setting."""
    runner = web.AppRunner(app)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as exc:
        await runner.cleanup()
        raise StartupError(
            f"cannot listen on {host}:{port} ({exc.strerror or exc}); "
            f"stop what holds the port, or set {setting}"
        ) from None
    try:
        yield
    finally:
        await runner.cleanup()


@asynccontextmanager
async def metrics_listener(settings: Settings, metrics: Metrics) -> AsyncIterator[None]:
    """/metrics on its own address when `[telegram] metrics_port` asks for one; nothing otherwise."""
    telegram = settings.telegram
    async with AsyncExitStack() as stack:
        if telegram.metrics_port:
            await stack.enter_async_context(
                listening(
                    create_metrics_app(metrics),
                    telegram.metrics_listen,
                    telegram.metrics_port,
                    "[telegram] metrics_listen / metrics_port",
                )
            )
            log.info("metrics on %s:%s", telegram.metrics_listen, telegram.metrics_port)
        yield


async def serve_polling(application: Application, settings: Settings, stop: asyncio.Event) -> None:
    async with metrics_listener(settings, state(application).metrics), running(application):
        await application.updater.start_polling(drop_pending_updates=False)
        # bot.base_url ends with the token: log only the configured server
        log.info("polling %s as @%s", settings.telegram.base_url, application.bot.username)
        await stop.wait()


async def serve_webhook(
    application: Application, settings: Settings, secret: str, metrics: Metrics, stop: asyncio.Event
) -> None:
    telegram = settings.telegram
    webhook_app = create_webhook_app(application, secret, metrics, with_metrics=not telegram.metrics_port)
    # The ports first: one already taken is found before the data and the graph are loaded.
    async with (
        listening(webhook_app, telegram.listen, telegram.port, "[telegram] listen / port"),
        metrics_listener(settings, metrics),
        running(application),
    ):
        url = telegram.webhook_url.rstrip("/") + UPDATE_PATH
        await application.bot.set_webhook(
            url,
            secret_token=secret,
            allowed_updates=["message", "callback_query", "poll", "poll_answer", "my_chat_member"],
        )
        log.info("webhook %s, listening on %s:%s", url, telegram.listen, telegram.port)
        await stop.wait()
