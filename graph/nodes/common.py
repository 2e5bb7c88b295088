"""Small pieces every node uses: the author's task from the state, and trace steps."""

from __future__ import annotations

from graph.authors.base import Task
from graph.context import GenerationContext
from graph.schemas import VerificationReport
from graph.state import GenerationState, TraceStep
from vocabulary.records import GenerationRequest


def request_of(state: GenerationState) -> GenerationRequest:
    return GenerationRequest.model_validate(state["request"])


def build_task(state: GenerationState, ctx: GenerationContext) -> Task:
    request = request_of(state)
    slice_ = ctx.knowledge.get(state["slice_id"])
    examples = [ctx.questions_by_id[i] for i in state.get("few_shot_ids", []) if i in ctx.questions_by_id]
    report = VerificationReport.model_validate(state["report"]) if state.get("report") else None
    return Task(
        slice=slice_,
        qtype=request.qtype,
        mode=request.mode,
        seed=request.seed + state.get("attempt", 0),
        attempt=state.get("attempt", 0),
        examples=examples,
        neighbours=ctx.knowledge.neighbours(slice_),
        report=report,
        facts=ctx.facts,
        visit=request.visit,
        avoid=frozenset(request.avoid),
        difficulty=request.difficulty,
    )


def step(node: str, verdict: str, detail: str = "") -> dict[str, list[TraceStep]]:
    return {"trace": [TraceStep(node=node, verdict=verdict, detail=detail)]}
