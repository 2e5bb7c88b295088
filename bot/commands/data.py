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
from typing import TYPE_CHECKING, Any

from retrieval.sources import Sources, display_name, load_sources
from vocabulary.kinds import QUESTION_TYPES, QuestionType

if TYPE_CHECKING:
    from retrieval.compiler import CompileSummary
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
    from retrieval.compiler import compile_kb, summarise

    kb_path = args.kb or settings.data.knowledge_base
    bank_path = args.bank or settings.data.question_bank
    sources = load_sources(kb_path, bank_path, settings.data.max_stem)
    compiled = summarise(compile_kb(sources.slices, cache_dir=settings.data.facts_cache), sources.slices)
    if args.json:
        print(json.dumps(summary(sources, compiled), ensure_ascii=False, indent=2))
    else:
        print(report(sources, compiled, display_name(Path(kb_path)), display_name(Path(bank_path))))
    return 1 if sources.fatal else 0


def _by_type(counts: Counter[QuestionType]) -> dict[str, int]:
    return {qtype: counts.get(qtype, 0) for qtype in QUESTION_TYPES}


def summary(sources: Sources, compiled: CompileSummary) -> dict[str, Any]:
    return {
        "kb": {"slices": len(sources.slices), "chapters": len(sources.tree.chapters)},
        "facts": {
            "total": compiled.facts,
            "per_kind": compiled.per_kind,
            "slices_without_facts": [path for _, path in compiled.without_facts],
            "slices_with_statements_only": [path for _, path in compiled.statements_only],
        },
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


def _facts_line(compiled: CompileSummary) -> str:
    """What questions can be written from: the compiled facts per kind, per slice."""
    kinds = ", ".join(f"{kind} {n}" for kind, n in compiled.per_kind.items() if n)
    per_slice = compiled.facts / compiled.slices if compiled.slices else 0
    return (
        f"facts: {compiled.facts} ({kinds}); {per_slice:.1f} per slice; "
        f"{compiled.typed_share:.0%} of slices have facts a question can be written from"
    )


def report(sources: Sources, compiled: CompileSummary, kb_name: str, bank_name: str) -> str:
    data = summary(sources, compiled)
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
    lines += ["", _facts_line(compiled)]
    for label, listed in (
        ("no facts", compiled.without_facts),
        ("only plain statements", compiled.statements_only),
    ):
        lines += [f"  {label}: {path}" for _, path in listed]
    return "\n".join(lines)
