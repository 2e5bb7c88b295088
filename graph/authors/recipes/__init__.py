"""One module per way of turning a compiled fact into a question (see base.py for the contract).

`RECIPES` is every recipe the offline author may try for a fact; `CALCULATION` is also the finance expert's:
it recomputes a worked example with new inputs through the real calculator.
"""

from __future__ import annotations

from graph.authors.recipes import definition, enumeration, table, threshold
from graph.authors.recipes.base import Recipe
from graph.authors.recipes.calculation import CalculationRecipe
from graph.authors.recipes.mimic import Mimic
from graph.authors.recipes.scenario import Scenario

CALCULATION = CalculationRecipe()
RECIPES: tuple[Recipe, ...] = (
    enumeration.RECIPE,
    definition.RECIPE,
    table.RECIPE,
    threshold.RECIPE,
    Scenario(),
    Mimic(),
    CALCULATION,
)

__all__ = ["CALCULATION", "RECIPES", "Recipe"]
