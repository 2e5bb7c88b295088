"""`python -m bot demo` (`make demo`): chat with the bot in the terminal, fully offline (`bot/demo.py`)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from settings import Settings


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help="chat with the bot in the terminal, fully offline")
    parser.add_argument("--user", default="learner", help="who you are in the chat (default: learner)")
    parser.add_argument(
        "--group", action="store_true", help="add a study group whose simulated members answer group quizzes"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app import StartupError
    from bot.demo import play

    try:
        return asyncio.run(play(settings, args.user, args.group))
    except StartupError as exc:
        print(f"cannot start the demo: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
