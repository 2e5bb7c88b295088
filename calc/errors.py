"""The one exception every calculator raises for bad input.

Callers (the CLI, the finance node, the critic's re-check, an LLM tool call) must be able to correct the call
from the message alone, so it always names the field and what was expected.
"""

from __future__ import annotations


class CalcError(ValueError):
    """Bad calculator input: `field` names the argument at fault (None when no single field is)."""

    def __init__(self, problem: str, field: str | None = None, calculator: str | None = None) -> None:
        self.problem = problem
        self.field = field
        self.calculator = calculator
        parts = [part for part in (calculator, field, problem) if part]
        super().__init__(": ".join(parts))

    def within(self, calculator: str) -> CalcError:
        """The same error labelled with the calculator it came from, so a batch of calls can be told apart."""
        return CalcError(self.problem, self.field, calculator)
