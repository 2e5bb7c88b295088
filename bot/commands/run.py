"""`python -m bot run`: the real bot, polling or webhook per [telegram] mode."""

from __future__ import annotations

import argparse
import asyncio
import os

from settings import Settings, StartupError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("run", help="run the bot (token from $TELEGRAM_BOT_TOKEN)")
    parser.set_defaults(handler=run)


def bot_token(settings: Settings) -> str:
    """The token as pasted, less the line break a shell or secret store may add; anything else that
    cannot be in a token is refused here, before PTB would put it in a URL."""
    name = settings.telegram.token_env
    token = os.environ.get(name, "").strip()
    if not token:
        raise StartupError(f"${name} is not set or blank; set it to the bot token from @BotFather")
    if any(c.isspace() or not c.isprintable() for c in token):
        raise StartupError(
            f"${name} contains spaces or control characters; copy the token from @BotFather again"
        )
    return token


def run(args: argparse.Namespace, settings: Settings) -> int:
    telegram = settings.telegram
    token = bot_token(settings)
    secret = os.environ.get(telegram.secret_env, "")
    if telegram.mode == "webhook" and (not secret or not telegram.webhook_url):
        raise StartupError(f"webhook mode needs [telegram] webhook_url and ${telegram.secret_env}")
    # The bot's modules take seconds to import: a missing token or webhook setting is refused before that.
    from bot.app import build_application
    from bot.runner import configure_logging, run_loop, serve_polling, serve_webhook, stop_on_signals
    from engines.metrics import Metrics

    configure_logging()
    metrics = Metrics()
    application = build_application(settings, token, metrics)

    async def main() -> None:
        stop = asyncio.Event()
        stop_on_signals(stop)
        if telegram.mode == "webhook":
            await serve_webhook(application, settings, secret, metrics, stop)
        else:
            await serve_polling(application, settings, stop)

    run_loop(main())
    return 0
