"""Running one recipe over every fact of a kind in the compiled bundled knowledge base, as the recipe tests
do to show a recipe works on real material and not only on the facts they build by hand."""

from __future__ import annotations

import random
from collections.abc import Iterator

from graph.authors.base import Task
from graph.authors.recipes.base import Brief, Recipe
from graph.checks import run_checks
from graph.nodes.writer import write_question
from retrieval.facts import Fact, FactBase
from retrieval.models import Slice
from vocabulary.records import Question


def bundled_questions(
    recipe: Recipe, kind: str, facts: FactBase, slices: dict[str, Slice]
) -> Iterator[tuple[Fact, list[Question]]]:
    """Every fact of `kind` with the questions the recipe writes from it over its types and both modes; each
    question is checked on the way (the checks include the examiner's lint)."""
    for fact in facts:
        if fact.kind != kind:
            continue
        questions = []
        for qtype in recipe.qtypes:
            for mode in ("strict", "flexible"):
                task = Task(slice=slices[fact.slice_id], qtype=qtype, mode=mode, seed=1, facts=facts)
                written = recipe.write(fact, Brief(task=task, facts=facts, rng=random.Random(1)))
                if written is None:
                    continue
                authored = {"draft": written.draft.model_dump(), "qtype": written.qtype}
                question = write_question(authored, slices[fact.slice_id], mode)
                assert run_checks(question, qtype) == [], (fact.id, question.stem)
                questions.append(question)
        yield fact, questions
