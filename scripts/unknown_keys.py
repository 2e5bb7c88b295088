"""The keyed statements of a bank that grounding can neither support nor contradict, sorted by why: so that
work on grounding's recall starts with the largest cause rather than the last example looked at.

Each unknown key is read against the knowledge-base sentence closest to it (bigram score over the whole
book) and put in one cause:
- table cell / list item / number / paraphrase: the closest sentence is about the statement (ALIGN of the
  statement's content in it) and is a table cell, an item under a list lead, one without a figure the
  statement states (another case, a worked example, a figure written differently), or plain prose the
  matcher does not accept as saying the same;
- split across sentences: no one sentence is about it, but one slice's text holds SUPPORT of its content
  (a compiler or sentence split that cuts what belongs together);
- not in the knowledge base: nothing is about it.

    .venv/bin/python scripts/unknown_keys.py [--bank F --kb F] [--show N]
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graph.evaluation import library_of  # noqa: E402
from graph.evaluation.bank import as_question  # noqa: E402
from graph.evaluation.critic import review  # noqa: E402
from graph.grounding.book import Passage, SourceBook, book_for  # noqa: E402
from graph.grounding.classify import Finding  # noqa: E402
from graph.grounding.compare import ALIGN, SUPPORT  # noqa: E402
from graph.grounding.text import coverage, grams, normalise, numbers  # noqa: E402
from retrieval.sources import load_sources  # noqa: E402

CAUSES = (
    "table cell",
    "list item",
    "number",
    "paraphrase",
    "split across sentences",
    "not in the knowledge base",
)


def _closest(book: SourceBook, statement: str) -> Passage | None:
    found = book.best(book.scores(statement), None, 1)
    return found[0] if found else None


def cause_of(finding: Finding, book: SourceBook, slice_texts: dict[str, frozenset[str]]) -> tuple[str, str]:
    """(cause, closest sentence) of one unknown keyed statement."""
    passage = _closest(book, finding.statement)
    about = passage is not None and coverage(finding.statement, passage.grams) >= ALIGN
    if passage is None or not about:
        held = max((coverage(finding.statement, g) for g in slice_texts.values()), default=0.0)
        cause = "split across sentences" if held >= SUPPORT else "not in the knowledge base"
        return cause, passage.text if passage is not None else ""
    if passage.keys:
        return "table cell", passage.text
    if passage.lead:
        return "list item", passage.lead + passage.text
    said = {round(n.value, 6) for n in numbers(normalise(finding.statement)) if n.text[0] != "一"}
    written = {round(n.value, 6) for n in numbers(passage.norm)}  # ("一套住房" counts nothing)
    if said - written:
        return "number", passage.text
    return "paraphrase", passage.text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bank", default=str(ROOT / "data" / "question_bank.xlsx"))
    parser.add_argument("--kb", default=str(ROOT / "data" / "knowledge_base.jsonl"))
    parser.add_argument("--show", type=int, default=5, help="examples printed per cause")
    args = parser.parse_args()
    sources = load_sources(args.kb, args.bank)
    library = library_of(sources.slices)
    book = book_for(library.knowledge, library.knowledge.slices, library.facts)
    slice_texts = {s.id: grams("\n".join([s.text, *s.tables, *s.rules, *s.examples])) for s in sources.slices}
    by_cause: dict[str, list[tuple[str, Finding, str]]] = defaultdict(list)
    accepted = 0
    for mother in sources.questions:
        question = as_question(mother, sources.calc_checks.get(mother.id))
        verdict = review(question, mother.qtype, library, mother.kb_chapter)
        if verdict.rejected:
            continue
        accepted += 1
        for finding in verdict.grounding.unknown_keys:
            cause, closest = cause_of(finding, book, slice_texts)
            by_cause[cause].append((mother.source or mother.id, finding, closest))
    total = sum(len(found) for found in by_cause.values())
    print(f"{total} unknown keyed statements in {accepted} accepted questions ({args.bank})")
    for cause in sorted(CAUSES, key=lambda c: -len(by_cause[c])):
        found = by_cause[cause]
        print(f"\n{cause}: {len(found)}")
        for where, finding, closest in found[: args.show]:
            print(f"  {where} {finding.label or '判断'}: {finding.statement}")
            print(f"      grounding: {finding.reason}")
            print(f"      closest:   {closest}")


if __name__ == "__main__":
    main()
