"""`python -m bot …`: one sub-command per module in `bot/commands/`.

Each command module has `register(subparsers)`, which adds its parser and sets `handler` to a function
`(args, settings) -> int`. Settings are loaded once here so every command shares `--config` handling, and
a `StartupError` from loading or from any command ends here as one `cannot start:` line with exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from settings import StartupError, load_settings

COMMAND_MODULES: tuple[str, ...] = ("data", "calc", "generate", "critic_eval", "run", "demo")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description="examforge: verified exam practice.")
    parser.add_argument("--config", help="config file (default: config.toml, or $EXAMFORGE_CONFIG)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"bot.commands.{name}").register(subparsers)
    _accept_config_anywhere(parser)
    return parser


def _accept_config_anywhere(parser: argparse.ArgumentParser) -> None:
    """`--config` also after a (sub-)command; SUPPRESS keeps an absent one from hiding the first."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                command.add_argument("--config", default=argparse.SUPPRESS, help="config file")
                _accept_config_anywhere(command)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return args.handler(args, load_settings(args.config))
    except StartupError as exc:
        # Several configuration problems come one per line; the operator's log gets one line per failure.
        print(f"cannot start: {'; '.join(str(exc).splitlines())}", file=sys.stderr)
        return 2
