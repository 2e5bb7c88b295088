"""`python -m bot critic-eval`: the critic's verification power on a bank and on defects seeded into it."""

from __future__ import annotations

import argparse
import json
import sys

from graph.evaluation import evaluate
from retrieval.sources import load_sources
from settings import Settings


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("critic-eval", help="measure the critic on a bank and seeded defects")
    parser.add_argument("--bank", help="question bank file (default: [data] question_bank)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    sources = load_sources(settings.data.knowledge_base, args.bank or settings.data.question_bank)
    if not sources.questions:
        for problem in sources.fatal:
            print(problem, file=sys.stderr)
        print("no usable questions in the bank", file=sys.stderr)
        return 2
    result = evaluate(sources)
    if args.json:
        print(json.dumps(result.as_json(), ensure_ascii=False, indent=2))
        return 0
    print(f"bank questions: {result.bank_size}")
    print(f"false rejections: {len(result.false_rejections)} ({result.false_rejection_rate:.1%})")
    for where, reason in result.false_rejections:
        print(f"  {where}: {reason}")
    print(f"{'seeded defect':32} caught / total")
    for name, (caught, total) in result.caught.items():
        print(f"  {name:30} {caught:>5} / {total}")
    print(f"caught overall: {result.catch_rate:.1%}")
    return 0
