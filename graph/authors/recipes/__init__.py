"""One module per way of turning a compiled fact into a question (see base.py for the contract).

`RECIPES` is every recipe the offline author may try for a fact when the specialist drafts; `CASES` tell
a fact as a case whose details decide the answer (dated figures, what a party still lacks, what comes
next), and come before any other telling of the same fact in a 灵活 request; `FALLBACK` are those whose
灵活 questions are a fixed frame (an act in a sale, a rule with a name pasted in, "下列情形中，（　）的，
应当X"), tried for a 灵活 request only when no fact of the chapter can be told as a case by the others;
`CALCULATION` is the finance expert's alone: it recomputes a worked example with new inputs, so a
calculation question always comes with the finance node's own calculator run in its trace.
"""

from __future__ import annotations

from graph.authors.recipes import (
    conduct,
    deadline,
    definition,
    duty,
    enumeration,
    holding,
    missing,
    next_step,
    only_home,
    situation,
    statements,
    table,
    threshold,
)
from graph.authors.recipes.base import Recipe
from graph.authors.recipes.calculation import CalculationRecipe
from graph.authors.recipes.mimic import Mimic
from graph.authors.recipes.scenario import Scenario

CALCULATION = CalculationRecipe()
MIMIC = Mimic()
SCENARIO = Scenario()
CASES: tuple[Recipe, ...] = (
    holding.RECIPE,
    only_home.RECIPE,
    deadline.RECIPE,
    missing.RECIPE,
    next_step.RECIPE,
    situation.RECIPE,
    conduct.RECIPE,
    duty.RECIPE,
)
RECIPES: tuple[Recipe, ...] = (
    holding.RECIPE,
    only_home.RECIPE,
    deadline.RECIPE,
    missing.RECIPE,
    next_step.RECIPE,
    situation.RECIPE,
    conduct.RECIPE,
    duty.RECIPE,
    enumeration.RECIPE,
    definition.RECIPE,
    table.RECIPE,
    threshold.RECIPE,
    SCENARIO,
    MIMIC,
    statements.RECIPE,
)
FALLBACK: tuple[Recipe, ...] = (SCENARIO, MIMIC)

__all__ = ["CALCULATION", "CASES", "FALLBACK", "MIMIC", "RECIPES", "Recipe"]
