"""Running an Application until asked to stop: long polling for development, webhook in production."""

from __future__ import annotations

import asyncio
import logging
import signal

from aiohttp import web
from telegram.ext import Application

from bot.app import running
from bot.metrics import Metrics
from bot.webhook import UPDATE_PATH, create_webhook_app
from settings import Settings

log = logging.getLogger(__name__)


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure_logging(filename: str | None = None) -> None:
    """INFO logs, without httpx's request lines: their URLs contain the bot token."""
    logging.basicConfig(filename=filename, level=logging.INFO, format=LOG_FORMAT)
    logging.getLogger("httpx").setLevel(logging.WARNING)


def stop_on_signals(stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)


async def serve_polling(application: Application, settings: Settings, stop: asyncio.Event) -> None:
    async with running(application):
        await application.updater.start_polling(drop_pending_updates=False)
        # bot.base_url ends with the token: log only the configured server
        log.info("polling %s as @%s", settings.telegram.base_url, application.bot.username)
        await stop.wait()


async def serve_webhook(
    application: Application, settings: Settings, secret: str, metrics: Metrics, stop: asyncio.Event
) -> None:
    telegram = settings.telegram
    async with running(application):
        runner = web.AppRunner(create_webhook_app(application, secret, metrics))
        await runner.setup()
        site = web.TCPSite(runner, telegram.listen, telegram.port)
        await site.start()
        url = telegram.webhook_url.rstrip("/") + UPDATE_PATH
        await application.bot.set_webhook(
            url,
            secret_token=secret,
            allowed_updates=["message", "callback_query", "poll", "poll_answer", "my_chat_member"],
        )
        log.info("webhook %s, listening on %s:%s", url, telegram.listen, telegram.port)
        try:
            await stop.wait()
        finally:
            await runner.cleanup()
