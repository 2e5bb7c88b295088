"""`python -m bot data check`: what the app would load from the knowledge base and bank, and what is wrong.

Exit status 1 only for fatal problems (a file that cannot be used at all); row problems are reported and
the rows skipped, which is exactly what the bot itself does at start-up.
"""

from __future__ import annotations

import argparse
import json
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

from retrieval.models import QUESTION_TYPES, QuestionType
from retrieval.sources import Sources, display_name, load_sources
from settings import Settings


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("data", help="validate the knowledge base and the question bank")
    actions = parser.add_subparsers(dest="data_action", metavar="ACTION", required=True)
    check = actions.add_parser("check", help="print counts per chapter and type, and every problem")
    check.add_argument("--kb", type=Path, help="knowledge base file (default: [data] knowledge_base)")
    check.add_argument("--bank", type=Path, help="question bank file (default: [data] question_bank)")
    check.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    check.set_defaults(handler=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    kb_path = args.kb or settings.data.knowledge_base
    bank_path = args.bank or settings.data.question_bank
    sources = load_sources(kb_path, bank_path)
    if args.json:
        print(json.dumps(summary(sources), ensure_ascii=False, indent=2))
    else:
        print(report(sources, display_name(Path(kb_path)), display_name(Path(bank_path))))
    return 1 if sources.fatal else 0


def _by_type(counts: Counter[QuestionType]) -> dict[str, int]:
    return {qtype: counts.get(qtype, 0) for qtype in QUESTION_TYPES}


def summary(sources: Sources) -> dict[str, Any]:
    return {
        "kb": {"slices": len(sources.slices), "chapters": len(sources.tree.chapters)},
        "bank": {
            "questions": len(sources.questions),
            "by_type": _by_type(Counter(q.qtype for q in sources.questions)),
            "case_stems": sources.case_stems,
        },
        "problems": [p.as_dict() for p in sources.problems],
    }


def _width(text: str) -> int:
    """Terminal columns: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _table(rows: list[list[str]]) -> list[str]:
    """First column left-aligned, the numbers right-aligned, sized to the widest cell."""
    widths = [max(_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [row[0] + " " * (widths[0] - _width(row[0]))]
        cells += [" " * (w - _width(cell)) + cell for cell, w in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return lines


def _count_row(label: str, slices: int | str, calc: str, counts: Counter[QuestionType]) -> list[str]:
    return [label, str(slices), calc, *(str(n) for n in _by_type(counts).values())]


def report(sources: Sources, kb_name: str, bank_name: str) -> str:
    data = summary(sources)
    by_type = ", ".join(f"{t} {n}" for t, n in data["bank"]["by_type"].items())
    lines = [
        f"knowledge base  {kb_name} ({sources.kb_format or 'unread'}): "
        f"{data['kb']['slices']} slices in {data['kb']['chapters']} chapters",
        f"question bank   {bank_name} ({sources.bank_format or 'unread'}): "
        f"{data['bank']['questions']} questions ({by_type}), {sources.case_stems} case stem(s)",
        "",
    ]
    rows = [["篇 / 章", "slices", "calc", *QUESTION_TYPES]]
    for part in sources.tree.parts:
        rows.append(_count_row(part.name, part.slices, "", part.questions))
        for chapter in part.chapters:
            calc = "yes" if chapter.is_calculation else ""
            rows.append(_count_row(f"  {chapter.name}", chapter.slices, calc, chapter.questions))
    if sources.tree.unaligned:
        rows.append(["not in the knowledge base:", "", "", "", "", ""])
        for (part, chapter), counts in sources.tree.unaligned.items():
            rows.append(_count_row(f"  {chapter or '(no 章)'} ({part or 'no 篇'})", "", "", counts))
    total = Counter(q.qtype for q in sources.questions)
    rows.append(_count_row("total", len(sources.slices), "", total))
    lines += _table(rows)
    severities = Counter(p.severity for p in sources.problems)
    counted = ", ".join(f"{severities[s]} {s}(s)" for s in ("fatal", "error", "warning") if severities[s])
    lines += ["", f"problems: {counted or 'none'}"]
    lines += [str(p) for p in sources.problems]
    bare = sum(1 for s in sources.slices if not s.rules and not s.key_params)
    if bare:
        lines += [
            "",
            f"note: {bare} slice(s) have no rules or key_params: the offline author cannot write questions "
            "from them (a model author can, from their text)",
        ]
    return "\n".join(lines)
