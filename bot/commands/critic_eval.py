"""`python -m bot critic-eval`: the critic's verification power on a bank, checked against a knowledge base,
and on easy and hard defects seeded into the bank's accepted questions."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from graph.evaluation import Evaluation, Tally
    from settings import Settings


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("critic-eval", help="measure the critic on a bank and seeded defects")
    parser.add_argument("--bank", help="question bank file (default: [data] question_bank)")
    parser.add_argument(
        "--kb", help="knowledge base the keys are checked against (default: [data] knowledge_base)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def _verdict(passed: bool) -> str:
    return "pass" if passed else "FAIL"


def _rows(title: str, tallies: dict[str, Tally], overall: float, target: float, passed: bool) -> list[str]:
    lines = [title]
    lines += [
        f"  {kind:34} {t.caught:>5} / {t.total:<5} {t.rate:>7.1%}"
        f"   {t.verified_caught:>5} / {t.verified_total:<5} {t.verified_rate:>7.1%}"
        for kind, t in tallies.items()
    ]
    lines.append(f"  {'all ' + title:34} {'':13} {overall:>7.1%}   target ≥ {target:.0%}  {_verdict(passed)}")
    return lines


def report(result: Evaluation, bank: str, kb: str) -> str:
    from graph.evaluation import TARGETS

    meets = result.meets()
    lines = [
        f"bank: {bank} ({result.bank_size} questions)   knowledge base: {kb}",
        f"false rejections: {len(result.false_rejections)} ({result.false_rejection_rate:.1%})"
        f"   target ≤ {TARGETS['false_rejections']:.0%}  {_verdict(meets['false_rejections'])}",
    ]
    lines += [f"  {count:>3} × {reason}" for reason, count in result.top_reasons()]
    lines += [f"      {where}: {reason}" for where, reason in result.false_rejections]
    lines.append(
        f"unknown keys: {len(result.unknown)} of {result.accepted} accepted ({result.unknown_rate:.1%})"
        f"   target ≤ {TARGETS['unknown']:.0%}  {_verdict(meets['unknown'])}"
    )
    lines.append(f"\n{'seeded defect':36} caught / total    rate   on verified keys: caught / total    rate")
    lines += _rows("easy", result.easy, result.easy_rate, TARGETS["easy"], meets["easy"])
    lines += _rows("hard", result.hard, result.hard_rate, TARGETS["hard"], meets["hard"])
    return "\n".join(lines)


def run(args: argparse.Namespace, settings: Settings) -> int:
    from graph.evaluation import evaluate, library_of
    from retrieval.sources import load_sources

    kb = args.kb or settings.data.knowledge_base
    bank = args.bank or settings.data.question_bank
    sources = load_sources(kb, bank)
    if not sources.questions:
        for problem in sources.fatal:
            print(problem, file=sys.stderr)
        print("no usable questions in the bank", file=sys.stderr)
        return 2
    result = evaluate(sources, library_of(sources.slices, settings.data.facts_cache))
    if args.json:
        print(json.dumps(result.as_json(), ensure_ascii=False, indent=2))
    else:
        print(report(result, str(bank), str(kb)))
    return 0
