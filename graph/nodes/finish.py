"""The two ends of the loop. `done` records a verified version; `self_heal` keeps the best version only when
nothing major is wrong with it (flagged for review) and otherwise ends with the reason — a question whose
answer failed verification is never a result."""

from __future__ import annotations

from typing import Any

from graph.nodes.common import step
from graph.schemas import VerificationReport
from graph.state import GenerationState


def _version(state: GenerationState, question: dict[str, Any], report: dict[str, Any], flagged: bool) -> dict:
    return {
        "version": len(state.get("versions", [])) + 1,
        "question": question,
        "report": report,
        "flagged": flagged,
        "slice_id": state["slice_id"],
    }


async def done(state: GenerationState) -> dict[str, Any]:
    version = _version(state, state["draft"], state["report"], flagged=False)
    return {"versions": [version], "outcome": "passed", "pending_human": None} | step(
        "done", "passed", f"v{version['version']}"
    )


async def self_heal(state: GenerationState) -> dict[str, Any]:
    best = state.get("best")
    if best is not None and not VerificationReport.model_validate(best["report"]).has_major:
        version = _version(state, best["question"], best["report"], flagged=True)
        summary = VerificationReport.model_validate(best["report"]).summary()
        return {"versions": [version], "outcome": "flagged", "draft": best["question"]} | step(
            "self_heal", "flagged", summary
        )
    report = state.get("report") or {}
    reason = VerificationReport.model_validate(report).summary() if report else state.get("failure", "")
    return {"outcome": "failed", "failure": reason or "多轮校验后仍未得到可验证的题目"} | step(
        "self_heal", "failed", reason
    )
