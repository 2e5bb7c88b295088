"""Real-estate calculators with a dated policy table, described for tool calling.

Public API: `run(name, args)`, `CalcError`, `REGISTRY`, `lookup(name)`, `describe()`, `tool_schemas()`.
"""

from calc.errors import CalcError
from calc.registry import REGISTRY, describe, lookup, run, tool_schemas

__all__ = ["REGISTRY", "CalcError", "describe", "lookup", "run", "tool_schemas"]
