"""`python -m bot demo` (`make demo`): the emulator, the bot and a console client in one process — a
working conversation with no token, no model and no network."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot.app import StartupError, build_application, running
from bot.console import HELP, run_console
from bot.emulator import EmulatorClient, EmulatorServer
from settings import Settings

BANNER = """examforge demo — you are "{user}" in a private chat with the bot (offline author, bundled data).
Try /quiz, then tap buttons by number and vote with the option number. An instructor is ready too:
":as teacher" switches to them. The bot's log is in {log}.
{keys}
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help="chat with the bot in the terminal, fully offline")
    parser.add_argument("--user", default="learner", help="who you are in the chat (default: learner)")
    parser.set_defaults(handler=run)


def _demo_settings(settings: Settings, base_url: str, instructor_id: int) -> None:
    demo_dir = settings.root / "var" / "demo"
    demo_dir.mkdir(parents=True, exist_ok=True)
    settings.telegram.base_url = base_url
    settings.llm.provider = "offline"
    settings.graph.checkpoint_db = demo_dir / "checkpoints.sqlite"
    settings.storage.database = demo_dir / "examforge.sqlite"
    settings.telegram.instructors = [*settings.telegram.instructors, instructor_id]


async def _demo(settings: Settings, user: str) -> int:
    log_file = settings.root / "var" / "demo" / "bot.log"
    log_file.parent.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(
        filename=log_file, level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    async with EmulatorServer() as emulator:
        async with EmulatorClient(emulator.root_url) as client:
            teacher = await client.create_user("teacher")
        _demo_settings(settings, emulator.base_url, teacher.id)
        application = build_application(settings, emulator.token)
        async with running(application):
            await application.updater.start_polling(poll_interval=0.0, timeout=1)
            print(BANNER.format(user=user, log=log_file, keys=HELP), flush=True)
            return await run_console(emulator.root_url, user)


def run(args: argparse.Namespace, settings: Settings) -> int:
    try:
        return asyncio.run(_demo(settings, args.user))
    except StartupError as exc:
        print(f"cannot start the demo: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
