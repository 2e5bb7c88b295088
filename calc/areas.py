"""Area and site ratios: what a buyer actually gets, and how densely a plot is built."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from calc.errors import CalcError
from calc.rounding import round2, round4


def _share(part: Decimal, part_field: str, whole: Decimal, whole_field: str) -> Decimal:
    """A part of a whole can never exceed it; a bigger part means the arguments were swapped or mistyped."""
    if part > whole:
        raise CalcError(f"must not exceed {whole_field} ({whole}), got {part}", field=part_field)
    return round4(part / whole)


def building_area(*, inner_area: Decimal, shared_area: Decimal) -> dict[str, Any]:
    return {"area": round2(inner_area + shared_area)}


def efficiency_rate(*, inner_area: Decimal, building_area: Decimal) -> dict[str, Any]:
    return {"rate": _share(inner_area, "inner_area", building_area, "building_area")}


def area_error_ratio(*, registered_area: Decimal, contract_area: Decimal) -> dict[str, Any]:
    return {"ratio": round4((registered_area - contract_area) / contract_area)}


def plot_ratio(*, total_building_area: Decimal, land_area: Decimal) -> dict[str, Any]:
    return {"ratio": round4(total_building_area / land_area)}


def green_rate(*, green_area: Decimal, land_area: Decimal) -> dict[str, Any]:
    return {"rate": _share(green_area, "green_area", land_area, "land_area")}


def building_density(*, footprint_area: Decimal, land_area: Decimal) -> dict[str, Any]:
    return {"rate": _share(footprint_area, "footprint_area", land_area, "land_area")}
