"""Writer: turns any author's draft into the canonical question — blank, clean options, answer letters,
three-part explanation, the short poll explanation — without changing what the question asks."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.context import GenerationContext
from graph.format import (
    JUDGE_OPTIONS,
    clean_text,
    display_explanation,
    normalise_answer,
    short_explanation,
    strip_option_prefix,
    with_blank,
    worded_for,
)
from graph.nodes.common import request_of, step
from graph.schemas import Draft
from graph.state import GenerationState
from retrieval.models import Slice
from vocabulary.records import Calculation, Question

_JUDGE_WORDS = {"正确": "正确", "对": "正确", "√": "正确", "错误": "错误", "错": "错误", "×": "错误"}


def write_question(authored: dict[str, Any], slice_: Slice, mode: str) -> Question:
    draft = Draft.model_validate(authored["draft"])
    qtype = authored["qtype"]
    options = [strip_option_prefix(o) for o in draft.options]
    if qtype == "judge" and [_JUDGE_WORDS.get(o, o) for o in options] == JUDGE_OPTIONS:
        options = list(JUDGE_OPTIONS)
    answer = normalise_answer(draft.answer, len(options))
    basis = "".join(clean_text(s) for s in draft.sources) or f"《{slice_.path_text}》"
    explanation = display_explanation(draft.explanation, "".join(answer), qtype, basis=basis)
    calculation = authored.get("calculation")
    return Question(
        qtype=qtype,
        stem=worded_for(qtype, with_blank(draft.stem)),
        options=options,
        answer=answer,
        explanation=explanation,
        short_explanation=short_explanation(explanation),
        difficulty=round(min(max(draft.difficulty, 0.0), 1.0), 2),
        mode=mode,
        slice_id=slice_.id,
        slice_path=slice_.path_text,
        chapter=list(slice_.chapter),
        calculation=Calculation.model_validate(calculation) if calculation else None,
        sources=[clean_text(s) for s in draft.sources if s.strip()],
        fact_ids=list(authored.get("fact_ids") or []),
    )


async def writer(state: GenerationState, runtime: Runtime[GenerationContext]) -> dict[str, Any]:
    authored = state.get("authored")
    if authored is None:
        return {"draft": None} | step("writer", "skipped", "没有草稿可整理")
    slice_ = runtime.context.knowledge.get(state["slice_id"])
    question = write_question(authored, slice_, request_of(state).mode)
    return {"draft": question.model_dump()} | step(
        "writer", "written", f"{question.qtype}｜{len(question.stem)}字"
    )
