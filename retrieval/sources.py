"""Everything the app reads at start-up, in one call: slices, questions aligned to chapters, the chapter tree,
every problem found, and the bank's recomputable calculation checks.

Callers decide what a problem means for them: `python -m bot data check` prints them all, the bot refuses to
start when `fatal` is non-empty and logs the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from retrieval.bank import load_bank
from retrieval.chapters import ChapterTree, align_questions, build_tree
from retrieval.kb import load_kb
from retrieval.models import MotherQuestion, Slice
from retrieval.problems import Problem


@dataclass(frozen=True)
class Sources:
    """`calc_checks`: question id → its 计算校验 object ({"calculator", "args", "field", "expected"})."""

    slices: tuple[Slice, ...]
    questions: tuple[MotherQuestion, ...]
    tree: ChapterTree
    problems: tuple[Problem, ...]
    calc_checks: dict[str, dict[str, Any]]
    case_stems: int
    kb_format: str
    bank_format: str

    @property
    def fatal(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "fatal")


def display_name(path: Path) -> str:
    """Paths inside the working directory are shown relative to it, the way a user typed them."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def load_sources(kb_path: str | Path, bank_path: str | Path, max_stem: int | None = None) -> Sources:
    """`max_stem`: report bank stems longer than this many characters (None: no limit)."""
    kb_file, bank_file = Path(kb_path), Path(bank_path)
    kb = load_kb(kb_file, display_name(kb_file))
    bank = load_bank(bank_file, display_name(bank_file), max_stem)
    questions, alignment_problems = align_questions(bank.questions, kb.slices)
    if not kb.slices:
        alignment_problems = []  # with no chapters to match, "matches nothing" says nothing new
    return Sources(
        slices=tuple(kb.slices),
        questions=tuple(questions),
        tree=build_tree(kb.slices, questions),
        problems=(*kb.problems, *bank.problems, *alignment_problems),
        calc_checks=bank.calc_checks,
        case_stems=bank.case_stems,
        kb_format=kb.format,
        bank_format=bank.format,
    )
