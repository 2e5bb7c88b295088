"""What the offline author makes of each bundled knowledge base before any critic sees it: for every slice,
question type and mode, whether it produced a question at all, and how many of those the mechanical lint
(graph/lint.py) flags. The loop hides both — a reroute picks another slice, the fixer retries — so this
measures the author alone."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import calc
from bench.__main__ import Row
from graph.authors.base import Authored, AuthorError, Task
from graph.authors.offline import OfflineAuthor
from graph.context import KnowledgeIndex
from graph.lint import RULES
from graph.materials import calculators_for
from graph.nodes.writer import write_question
from retrieval.compiler import compile_kb
from retrieval.index import QuestionIndex
from retrieval.sources import Sources, load_sources
from vocabulary.kinds import MODES, QUESTION_TYPES
from vocabulary.records import Question

KNOWLEDGE_BASES: tuple[tuple[str, Path, Path], ...] = (
    ("sample", Path("data/knowledge_base.jsonl"), Path("data/question_bank.xlsx")),
    ("prose", Path("data/prose/knowledge_base.jsonl"), Path("data/prose/question_bank.xlsx")),
)
FLAG_TARGET = 0.05
FEW_SHOT = 3
TOP_REASONS = 3


@dataclass
class Tally:
    asked: Counter[tuple[str, str]] = field(default_factory=Counter)
    produced: Counter[tuple[str, str]] = field(default_factory=Counter)
    flagged: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    usable: set[str] = field(default_factory=set)
    slices: int = 0


async def _authored(author: OfflineAuthor, task: Task) -> Authored:
    """The expert the router would pick: finance for a calculation slice with a calculator (multi-choice
    always goes to the specialist), which falls back to a plain draft when no calculation fits."""
    calculators = calculators_for(task.slice, task.facts)
    if task.qtype != "multi" and task.slice.is_calculation and calculators:
        chosen = (await author.choose_calculation(task, calculators)).choice
        if chosen is not None:
            try:
                output = calc.run(chosen.calculator, chosen.args)
            except calc.CalcError:
                return await author.draft(task)
            return await author.draft_calculation(task, chosen, output)
    return await author.draft(task)


async def _ask(author: OfflineAuthor, task: Task) -> Question | None:
    try:
        result = await _authored(author, task)
    except AuthorError:
        return None
    authored = {
        "draft": result.draft.model_dump(),
        "qtype": result.qtype,
        "calculation": result.calculation.model_dump() if result.calculation else None,
        "fact_ids": result.fact_ids,
    }
    question = write_question(authored, task.slice, task.mode)
    return question if question.qtype == task.qtype else None


async def survey(sources: Sources) -> Tally:
    author = OfflineAuthor()
    knowledge = KnowledgeIndex(list(sources.slices))
    examples = QuestionIndex(sources.questions)
    facts = compile_kb(sources.slices)
    tally = Tally(slices=len(sources.slices))
    for slice_ in sources.slices:
        neighbours = knowledge.neighbours(slice_)
        for qtype in QUESTION_TYPES:
            shots = examples.few_shot(slice_, qtype, FEW_SHOT)
            for mode in MODES:
                task = Task(slice_, qtype, mode, seed=0, examples=shots, neighbours=neighbours, facts=facts)
                tally.asked[qtype, mode] += 1
                question = await _ask(author, task)
                if question is None:
                    continue
                tally.produced[qtype, mode] += 1
                found = [rule.find.__name__ for rule in RULES if rule.find(question)]
                tally.reasons.update(found)
                if found:
                    tally.flagged += 1
                else:
                    tally.usable.add(slice_.id)
    return tally


def _rows(name: str, tally: Tally) -> list[Row]:
    rows: list[Row] = []
    for qtype in QUESTION_TYPES:
        shares = ", ".join(
            f"{mode} {tally.produced[qtype, mode]}/{tally.asked[qtype, mode]}" for mode in MODES
        )
        rows.append((f"authoring {name}: produced/asked, {qtype}", shares, "", None))
    produced = sum(tally.produced.values())
    usable = len(tally.usable) / tally.slices if tally.slices else 0.0
    rows.append(
        (
            f"authoring {name}: slices with a lint-clean question",
            f"{len(tally.usable)}/{tally.slices} ({usable:.0%})",
            "",
            None,
        )
    )
    if not produced:
        return [
            *rows,
            (f"authoring {name}: drafts flagged by the lint", "no drafts", f"≤ {FLAG_TARGET:.0%}", None),
        ]
    rate = tally.flagged / produced
    rows.append(
        (
            f"authoring {name}: drafts flagged by the lint",
            f"{tally.flagged}/{produced} ({rate:.1%})",
            f"≤ {FLAG_TARGET:.0%}",
            rate <= FLAG_TARGET,
        )
    )
    rows += [
        (f"authoring {name}: lint reason {reason}", f"{count} ({count / produced:.0%})", "", None)
        for reason, count in tally.reasons.most_common(TOP_REASONS)
    ]
    return rows


def run() -> list[Row]:
    rows: list[Row] = []
    for name, kb, bank in KNOWLEDGE_BASES:
        if kb.exists() and bank.exists():
            rows += _rows(name, asyncio.run(survey(load_sources(kb, bank))))
    return rows
