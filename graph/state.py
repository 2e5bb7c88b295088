"""The loop's state. Values are plain JSON-ready dicts (dumps of graph.schemas models) so checkpoints stay
portable across code changes; nodes validate them back into models where they need behaviour."""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, TypedDict

from vocabulary.records import GenerationRequest

Outcome = Literal["passed", "flagged", "failed"]


def add_usage(left: dict[str, int] | None, right: dict[str, int] | None) -> dict[str, int]:
    """Token and call counts accumulate across nodes and across revisions."""
    total = dict(left or {})
    for key, value in (right or {}).items():
        total[key] = total.get(key, 0) + value
    return total


class TraceStep(TypedDict, total=False):
    node: str
    verdict: str
    detail: str


class GenerationState(TypedDict, total=False):
    request: dict[str, Any]
    limits: dict[str, int]
    authored: dict[str, Any] | None
    slice_id: str
    tried_slices: list[str]
    few_shot_ids: list[str]
    route: dict[str, Any]
    attempt: int
    draft: dict[str, Any] | None
    calc_trace: Annotated[list[dict[str, Any]], operator.add]
    report: dict[str, Any] | None
    escalate: bool
    critic_failures: int
    reroutes: int
    best: dict[str, Any] | None
    pending_human: dict[str, Any] | None
    outcome: Outcome | None
    failure: str
    unavailable: bool
    versions: Annotated[list[dict[str, Any]], operator.add]
    trace: Annotated[list[TraceStep], operator.add]
    usage: Annotated[dict[str, int], add_usage]


def initial_state(request: GenerationRequest, limits: dict[str, int]) -> GenerationState:
    """A new question's thread: the request with its slice drawn and every counter at zero."""
    return {
        "request": request.model_dump(),
        "limits": limits,
        "slice_id": request.slice_id,
        "tried_slices": [],
        "attempt": 0,
        "critic_failures": 0,
        "reroutes": 0,
        "report": None,
        "best": None,
        "pending_human": None,
        "outcome": None,
        "escalate": False,
    }
