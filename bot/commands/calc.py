"""`python -m bot calc NAME --args JSON`: run one calculator from the shell and print its result as JSON.

Every input problem (bad JSON, unknown name, bad field) exits 2 with a one-line message on stderr, so the
command is safe to script and its messages are the same ones an LLM tool call would get.
"""

from __future__ import annotations

import argparse
import json
import sys

from calc import REGISTRY, CalcError, lookup
from calc import run as run_calculator
from settings import Settings

USAGE_ERROR = 2


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "calc",
        help="run a real-estate calculator and print its result as JSON",
        description="Run a calculator: python -m bot calc deed_tax --args '{\"price\": 3000000, ...}'",
    )
    parser.add_argument("name", nargs="?", metavar="NAME", help="calculator name (see --list)")
    parser.add_argument("--args", default="{}", help="the arguments as one JSON object (default: {})")
    parser.add_argument("--list", action="store_true", help="list calculator names with descriptions")
    parser.add_argument(
        "--schema", action="store_true", help="print NAME's OpenAI tool schema instead of running it"
    )
    parser.set_defaults(handler=run)


def _fail(message: str) -> int:
    print(f"calc: {message}", file=sys.stderr)
    return USAGE_ERROR


def run(args: argparse.Namespace, settings: Settings) -> int:
    if args.list:
        width = max(len(name) for name in REGISTRY)
        for name, calculator in REGISTRY.items():
            print(f"{name:<{width}}  {calculator.description}")
        return 0
    if args.name is None:
        return _fail(f"give a calculator NAME or --list; valid names: {', '.join(REGISTRY)}")
    try:
        if args.schema:
            print(json.dumps(lookup(args.name).tool_schema(), ensure_ascii=False, indent=2))
            return 0
        result = run_calculator(args.name, json.loads(args.args))
    except json.JSONDecodeError as exc:
        return _fail(f"--args is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})")
    except CalcError as exc:
        return _fail(str(exc))
    print(json.dumps(result, ensure_ascii=False, sort_keys=True))
    return 0
