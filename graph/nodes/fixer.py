"""Fixer: asks the author to answer the report. When the author cannot repair it, the question is left as
it was and the loop is told to escalate, so the critic's next verdict sends it back to the router. What a
human asked for and the author could not do is traced as `unmet`, for the instructor to read."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.authors.base import AuthorError
from graph.context import GenerationContext
from graph.nodes.common import build_task, request_of, step
from graph.nodes.writer import write_question
from graph.schemas import VerificationReport
from graph.state import GenerationState, TraceStep
from vocabulary.records import Question


async def fixer(state: GenerationState, runtime: Runtime[GenerationContext]) -> dict[str, Any]:
    ctx = runtime.context
    question = Question.model_validate(state["draft"])
    report = VerificationReport.model_validate(state["report"])
    try:
        fixed = await ctx.author.fix(build_task(state, ctx), question, report)
    except AuthorError as exc:
        return {"escalate": True} | step("fixer", "failed", str(exc))
    if fixed is None:
        return {"escalate": True} | step("fixer", "escalated", "无法就地修复，需要重新出题")
    authored = {
        "draft": fixed.draft.model_dump(),
        "qtype": fixed.qtype,
        "calculation": fixed.calculation.model_dump() if fixed.calculation else None,
        "fact_ids": fixed.fact_ids or question.fact_ids,
    }
    revised = write_question(authored, ctx.knowledge.get(state["slice_id"]), request_of(state).mode)
    unmet = [TraceStep(node="fixer", verdict="unmet", detail=note) for note in fixed.notes]
    done = step("fixer", "revised", report.summary())
    return {
        "authored": authored,
        "draft": revised.model_dump(),
        "escalate": False,
        "usage": fixed.usage,
        "trace": done["trace"] + unmet,
    }
