"""Land and building terms: a building's age, what is left of its land-use right, and Beijing's legacy
land-grant fees that older exam items still ask about."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from calc.errors import CalcError
from calc.rounding import ZERO, round2

# Statutory maximum land-use terms in years, keyed by the English and the Chinese name of each use.
LAND_USE_TERMS: dict[str, int] = {
    "residential": 70,
    "住宅": 70,
    "居住": 70,
    "industrial": 50,
    "工业": 50,
    "education": 50,
    "教育": 50,
    "science": 50,
    "科技": 50,
    "culture": 50,
    "文化": 50,
    "health": 50,
    "卫生": 50,
    "sports": 50,
    "体育": 50,
    "commercial": 40,
    "商业": 40,
    "tourism": 40,
    "旅游": 40,
    "entertainment": 40,
    "娱乐": 40,
    "mixed": 50,
    "综合": 50,
    "other": 50,
    "其他": 50,
}

PUBLIC_HOUSING_COST_PRICE_CORE = Decimal("1560")  # yuan/㎡, Beijing's six core districts
PUBLIC_HOUSING_COST_PRICE_OTHER = Decimal("1290")
PUBLIC_HOUSING_FEE_RATE = Decimal("0.01")
AFFORDABLE_TYPE1_EARLY_RATE = Decimal("0.10")  # bought before 2008-04-11: share of the price
AFFORDABLE_TYPE1_GAIN_RATE = Decimal("0.70")  # bought later: share of the gain
AFFORDABLE_TYPE2_RATE = Decimal("0.03")


def _years_since(start: int, start_field: str, year: int) -> int:
    if year < start:
        raise CalcError(f"must not be earlier than {start_field} ({start}), got {year}", field="year")
    return year - start


def house_age(*, completion_year: int, year: int) -> dict[str, Any]:
    return {"age": _years_since(completion_year, "completion_year", year)}


def land_remaining_years(
    *, use: str | None, total_years: int | None, grant_year: int, year: int
) -> dict[str, Any]:
    if use is None:
        if total_years is None:
            raise CalcError(
                "required: give the land use (e.g. residential / 住宅) or total_years", field="use"
            )
        total = total_years
    else:
        total = LAND_USE_TERMS[use]
        if total_years is not None and total_years != total:
            raise CalcError(
                f"{total_years} conflicts with use {use!r} ({total} years); give only one of them",
                field="total_years",
            )
    used = _years_since(grant_year, "grant_year", year)
    return {"total_years": total, "remaining": max(total - used, 0)}


def land_grant_fee_public_housing(*, area: Decimal, core_district: bool) -> dict[str, Any]:
    cost_price = PUBLIC_HOUSING_COST_PRICE_CORE if core_district else PUBLIC_HOUSING_COST_PRICE_OTHER
    return {"fee": round2(area * cost_price * PUBLIC_HOUSING_FEE_RATE)}


def land_grant_fee_affordable(
    *, kind: int, price: Decimal, original_price: Decimal | None, bought_before_2008_04_11: bool
) -> dict[str, Any]:
    if kind == 2:
        return {"fee": round2(price * AFFORDABLE_TYPE2_RATE)}
    if bought_before_2008_04_11:
        return {"fee": round2(price * AFFORDABLE_TYPE1_EARLY_RATE)}
    if original_price is None:
        raise CalcError(
            "required: type-1 affordable housing bought on or after 2008-04-11 pays 70% of the gain",
            field="original_price",
        )
    return {"fee": round2(max(price - original_price, ZERO) * AFFORDABLE_TYPE1_GAIN_RATE)}
