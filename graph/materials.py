"""What the loop writes from, built once per process from the settings: the knowledge and question bank, the
bank's index, the compiled facts and the author, gathered into the context every node receives."""

from __future__ import annotations

from functools import partial

import calc
from graph.authors.base import Author
from graph.context import GenerationContext, KnowledgeIndex
from graph.similarity import duplicate_scorer
from retrieval.compiler import compile_kb
from retrieval.facts import FactBase
from retrieval.index import QuestionIndex
from retrieval.models import Slice
from retrieval.sources import Sources
from settings import Settings


def calculators_for(slice_: Slice, facts: FactBase) -> list[str]:
    """Calculators that reproduce the slice's own worked examples (given as calc_examples, or read from its
    prose by the compiler); a model author may also pick any registered one."""
    found = [e.calculator for e in slice_.calc_examples] + [
        f.calculator for f in facts.of_slice(slice_.id, "example")
    ]
    return [name for name in dict.fromkeys(found) if name in calc.REGISTRY]


def generation_context(settings: Settings, sources: Sources, author: Author) -> GenerationContext:
    index = QuestionIndex(sources.questions, settings.retrieval.tokenizer)
    facts = compile_kb(sources.slices, cache_dir=settings.data.facts_cache)
    return GenerationContext(
        knowledge=KnowledgeIndex(list(sources.slices)),
        few_shot=index.few_shot,
        duplicate_score=duplicate_scorer(index),
        author=author,
        run_calculator=calc.run,
        calculators_for=partial(calculators_for, facts=facts),
        few_shot_k=settings.retrieval.few_shot_k,
        duplicate_threshold=settings.retrieval.duplicate_threshold,
        questions_by_id={q.id: q for q in sources.questions},
        facts=facts,
    )
