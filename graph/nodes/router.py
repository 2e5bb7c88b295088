"""Router: picks the expert for the slice, and on a reroute starts over — a fresh draft, a new seed, and a
different slice when the fault was the material itself (duplicate, out of scope) or a second reroute."""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from graph.context import GenerationContext
from graph.nodes.common import request_of, step
from graph.routing import choose_expert
from graph.state import GenerationState

_SLICE_FAULTS = {"duplicate", "out_of_scope"}


async def router(state: GenerationState, runtime: Runtime[GenerationContext]) -> dict[str, Any]:
    ctx = runtime.context
    request = request_of(state)
    slice_id = state.get("slice_id") or request.slice_id
    if slice_id is None:
        raise ValueError("generation request has no slice: the service picks one before starting")
    update: dict[str, Any] = {}
    tried = list(state.get("tried_slices", []))
    rerouting = state.get("report") is not None and state.get("outcome") is None
    note = ""
    if rerouting:
        reroutes = state.get("reroutes", 0) + 1
        issues = state["report"].get("issues", [])
        fatal = state["report"].get("status") == "fatal"
        slice_fault = fatal or reroutes >= 2 or any(i["type"] in _SLICE_FAULTS for i in issues)
        current = ctx.knowledge.get(slice_id)
        if slice_fault:
            other = ctx.knowledge.alternative(
                current, [*tried, slice_id], request.seed, request.calculation_only
            )
            if other is not None:
                slice_id = other.id
                note = f"换用知识点：{other.title}"
        update |= {
            "reroutes": reroutes,
            "attempt": state.get("attempt", 0) + 1,
            "draft": None,
            "authored": None,
            "escalate": False,
        }
    slice_ = ctx.knowledge.get(slice_id)
    calculators = ctx.calculators_for(slice_)
    digits = len(re.findall(r"\d", slice_.text + "".join(slice_.examples)))
    agent, scores = choose_expert(
        len(slice_.formulas), len(slice_.calc_examples), digits, len(calculators), request.calculation_only
    )
    if request.qtype == "multi":
        agent = "specialist"
    few_shot = ctx.few_shot(slice_, request.qtype, ctx.few_shot_k)
    if slice_id not in tried:
        tried.append(slice_id)
    verdict = "reroute" if rerouting else "route"
    detail = f"{agent}｜{slice_.title}" + (f"｜{note}" if note else "")
    return (
        update
        | {
            "slice_id": slice_id,
            "tried_slices": tried,
            "route": {"agent": agent, "scores": scores, "calculators": calculators},
            "few_shot_ids": [q.id for q in few_shot],
        }
        | step("router", verdict, detail)
    )
