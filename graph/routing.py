"""Pure decision functions: given the state, which node runs next. No I/O, no randomness."""

from __future__ import annotations

from typing import Literal

from graph.state import GenerationState


def after_router(state: GenerationState) -> Literal["specialist", "finance"]:
    return "finance" if state.get("route", {}).get("agent") == "finance" else "specialist"


def after_critic(state: GenerationState) -> Literal["done", "fixer", "router", "self_heal"]:
    """passed → done; fixable minor issues under the cap → fixer; a major fault (or a fixer that could
    not repair) → router while reroutes remain; otherwise self-heal picks a flagged version or failure."""
    report = state.get("report") or {}
    limits = state["limits"]
    if report.get("status") == "passed":
        return "done"
    if state.get("critic_failures", 0) >= limits["max_critic_failures"] or state.get("unavailable"):
        return "self_heal"  # out of rounds, or the model is unreachable and a reroute would only wait again
    major = report.get("status") == "fatal" or any(i["severity"] == "major" for i in report.get("issues", []))
    if major or state.get("escalate"):
        return "router" if state.get("reroutes", 0) < limits["max_reroutes"] else "self_heal"
    return "fixer"


def choose_expert(
    formulas: int, calc_examples: int, digits: int, calculators: int, calculation_only: bool
) -> tuple[Literal["finance", "specialist"], dict[str, float]]:
    """Finance when the slice is about computing something a calculator covers; otherwise the specialist.

    Worked examples weigh most, then formulas, then how numeric the text is; without a matching calculator
    there is nothing to verify the numbers with, so the specialist writes it.
    """
    score = 2.0 * min(calc_examples, 2) + 1.0 * min(formulas, 2) + min(digits / 20, 1.0)
    scores = {"finance": score, "calculators": float(calculators)}
    if calculators and (calculation_only or score >= 3.0):
        return "finance", scores
    return "specialist", scores
