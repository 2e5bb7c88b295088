"""`python -m bot run`: the real bot, polling or webhook per [telegram] mode."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from settings import Settings


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("run", help="run the bot (token from $TELEGRAM_BOT_TOKEN)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app import StartupError, build_application
    from bot.metrics import Metrics
    from bot.runner import configure_logging, serve_polling, serve_webhook, stop_on_signals

    configure_logging()
    telegram = settings.telegram
    token = os.environ.get(telegram.token_env, "")
    if not token:
        print(f"set ${telegram.token_env} to the bot token from @BotFather", file=sys.stderr)
        return 2
    secret = os.environ.get(telegram.secret_env, "")
    if telegram.mode == "webhook" and (not secret or not telegram.webhook_url):
        print(f"webhook mode needs [telegram] webhook_url and ${telegram.secret_env}", file=sys.stderr)
        return 2
    metrics = Metrics()
    application = build_application(settings, token, metrics)

    async def main() -> None:
        stop = asyncio.Event()
        stop_on_signals(stop)
        if telegram.mode == "webhook":
            await serve_webhook(application, settings, secret, metrics, stop)
        else:
            await serve_polling(application, settings, stop)

    try:
        asyncio.run(main())
    except StartupError as exc:
        print(f"cannot start: {exc}", file=sys.stderr)
        return 2
    return 0
