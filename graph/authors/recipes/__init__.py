"""One module per way of turning a compiled fact into a question (see base.py for the contract).

`RECIPES` is every recipe the offline author may try for a fact when the specialist drafts; `CALCULATION` is
the finance expert's alone: it recomputes a worked example with new inputs, so a calculation question always
comes with the finance node's own calculator run in its trace.
"""

from __future__ import annotations

from graph.authors.recipes import conduct, definition, enumeration, statements, table, threshold
from graph.authors.recipes.base import Recipe
from graph.authors.recipes.calculation import CalculationRecipe
from graph.authors.recipes.mimic import Mimic
from graph.authors.recipes.scenario import Scenario

CALCULATION = CalculationRecipe()
MIMIC = Mimic()
RECIPES: tuple[Recipe, ...] = (
    enumeration.RECIPE,
    definition.RECIPE,
    table.RECIPE,
    threshold.RECIPE,
    Scenario(),
    MIMIC,
    statements.RECIPE,
    conduct.RECIPE,
)

__all__ = ["CALCULATION", "MIMIC", "RECIPES", "Recipe"]
