"""The two experts. The specialist drafts from the slice's facts; finance first fixes the numbers with a
real calculator and only then has the question written around the exact result, so the key is computed."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from langgraph.runtime import Runtime

from graph.authors.base import Authored, AuthorError
from graph.context import GenerationContext
from graph.nodes.common import build_task, step
from graph.state import GenerationState, add_usage


def _authored(result: Authored) -> dict[str, Any]:
    moved = {"slice_id": result.slice_id} if result.slice_id else {}
    return moved | {
        "authored": {
            "draft": result.draft.model_dump(),
            "qtype": result.qtype,
            "calculation": result.calculation.model_dump() if result.calculation else None,
            "fact_ids": result.fact_ids,
        },
        "failure": "",
        "unavailable": False,
        "usage": result.usage,
    }


def _failed(node: str, exc: AuthorError, usage: dict[str, int] | None = None) -> dict[str, Any]:
    failed = {"authored": None, "failure": str(exc), "unavailable": exc.unavailable, "usage": usage or {}}
    return failed | step(node, "failed", str(exc))


async def specialist(state: GenerationState, runtime: Runtime[GenerationContext]) -> dict[str, Any]:
    task = build_task(state, runtime.context)
    try:
        result = await runtime.context.author.draft(task)
    except AuthorError as exc:
        return _failed("specialist", exc)
    return _authored(result) | step("specialist", "drafted", task.slice.title)


async def finance(state: GenerationState, runtime: Runtime[GenerationContext]) -> dict[str, Any]:
    ctx = runtime.context
    task = build_task(state, ctx)
    candidates = state.get("route", {}).get("calculators", [])
    usage: dict[str, int] = {}
    try:
        chosen = await ctx.author.choose_calculation(task, candidates)
        usage = chosen.usage
        if chosen.choice is None:
            result = await ctx.author.draft(task)
            return (
                _authored(result)
                | {"usage": add_usage(usage, result.usage)}
                | step("finance", "no_calculator", "没有适用的计算器，按概念题出题")
            )
        call = asdict(chosen.choice)
        try:
            output = ctx.run_calculator(chosen.choice.calculator, chosen.choice.args)
        except Exception as exc:  # a rejected argument set: record it and let the specialist write instead
            result = await ctx.author.draft(task)
            trace = {"calc_trace": [call | {"error": str(exc)}]}
            return _authored(result) | trace | step("finance", "calculator_rejected", str(exc))
        drafted = await ctx.author.draft_calculation(task, chosen.choice, output)
    except AuthorError as exc:
        return _failed("finance", exc, usage)
    merged = add_usage(usage, drafted.usage)
    detail = f"{chosen.choice.calculator} → {drafted.calculation.field if drafted.calculation else ''}"
    return (
        _authored(drafted)
        | {"usage": merged, "calc_trace": [call | {"result": output}]}
        | step("finance", "computed", detail)
    )
