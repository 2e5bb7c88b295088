"""Taxes and fees on a second-hand home sale, each applying the policy rule in force on the transaction date.

The VAT-exclusive price is the base of deed tax and personal income tax alike; `_resale_vat` is the one place
that derives it, so the single-tax calculators and `transaction_costs` can never disagree.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from calc import policy
from calc.errors import CalcError
from calc.rounding import ZERO, round2

STAMP_DUTY_RATE = Decimal("0.0005")  # 产权转移书据; individuals buying or selling housing are exempt
PIT_GAIN_RATE = Decimal("0.20")
PIT_EXEMPT_YEARS = Decimal("5")  # 满五唯一
REGISTRATION_FEE_RESIDENTIAL = Decimal("80")
REGISTRATION_FEE_NON_RESIDENTIAL = Decimal("550")
REGISTRATION_FEE_PER_EXTRA_CERTIFICATE = Decimal("10")


@dataclass(frozen=True)
class _Vat:
    rate: Decimal  # the VAT rate applied; 0 when exempt
    vat: Decimal
    exclusive_price: Decimal  # the sale price less this VAT, to the cent


def _vat_on_gain(price: Decimal, original_price: Decimal | None, rate: Decimal, why: str) -> _Vat:
    if original_price is None:
        raise CalcError(
            f"required: {why} pays VAT on the gain over the original price", field="original_price"
        )
    gain_base = round2(max(price - original_price, ZERO) / (1 + rate))
    vat = round2(gain_base * rate)
    return _Vat(rate, vat, round2(price) - vat)


def _resale_vat(
    price: Decimal,
    years_held: Decimal,
    original_price: Decimal | None,
    residential: bool,
    ordinary: bool,
    city: str | None,
    date: dt.date,
) -> _Vat:
    rule = policy.in_force(policy.RESALE_VAT_RULES, date, "resale VAT")
    if not residential:
        if rule.non_residential_gain_rate is None:
            raise CalcError(
                f"the policy table has no VAT rule for an individual selling non-residential property from "
                f"{rule.start.isoformat()} ({rule.source} covers housing only)",
                field="residential",
            )
        return _vat_on_gain(price, original_price, rule.non_residential_gain_rate, "non-residential property")
    if years_held < rule.exempt_years:
        # one rounding at the end, as the chain price ÷ (1 + rate) × rate is worked on paper
        exclusive = price / (1 + rule.rate)
        return _Vat(rule.rate, round2(exclusive * rule.rate), round2(exclusive))
    if rule.tier1_non_ordinary_on_gain and not ordinary and policy.is_tier1(city):
        return _vat_on_gain(
            price, original_price, rule.rate, f"a non-ordinary home in {city} before 2024-12-01"
        )
    return _Vat(Decimal("0"), ZERO, round2(price))


def _surcharges(vat: Decimal, urban_rate: Decimal, date: dt.date) -> Decimal:
    share = policy.in_force(policy.SURCHARGE_RULES, date, "VAT surcharge").share
    rate = urban_rate + policy.EDUCATION_SURCHARGE + policy.LOCAL_EDUCATION_SURCHARGE
    return round2(vat * rate * share)


def _deed_tax_rate(
    rule: policy.DeedTaxRule, area: Decimal, home_order: int, residential: bool, city: str | None
) -> Decimal:
    if not residential:
        return rule.non_residential
    if home_order >= 3:
        return rule.third_home
    if home_order == 2 and rule.second_home_tier1 is not None and policy.is_tier1(city):
        return rule.second_home_tier1
    small, large = rule.first_home if home_order == 1 else rule.second_home
    return small if area <= rule.area_threshold else large


def _pit(
    base: Decimal,
    years_held: Decimal,
    only_home: bool,
    original_price: Decimal | None,
    costs: Decimal,
    deemed_rate: Decimal,
) -> tuple[str, Decimal]:
    if years_held >= PIT_EXEMPT_YEARS and only_home:
        return "exempt", ZERO
    if original_price is not None:
        return "gain", round2(PIT_GAIN_RATE * max(base - original_price - costs, ZERO))
    return "deemed", round2(base * deemed_rate)


def deed_tax(
    *, price: Decimal, area: Decimal, home_order: int, residential: bool, city: str | None, date: dt.date
) -> dict[str, Any]:
    rule = policy.in_force(policy.DEED_TAX_RULES, date, "deed tax")
    rate = _deed_tax_rate(rule, area, home_order, residential, city)
    base = round2(price)
    return {"rate": rate, "base": base, "tax": round2(base * rate)}


def resale_vat(
    *,
    price: Decimal,
    years_held: Decimal,
    original_price: Decimal | None,
    residential: bool,
    ordinary: bool,
    city: str | None,
    urban_rate: Decimal,
    date: dt.date,
) -> dict[str, Any]:
    vat = _resale_vat(price, years_held, original_price, residential, ordinary, city, date)
    surcharges = _surcharges(vat.vat, urban_rate, date)
    return {"vat": vat.vat, "surcharges": surcharges, "total": vat.vat + surcharges, "rate": vat.rate}


def personal_income_tax(
    *,
    price: Decimal,
    years_held: Decimal,
    only_home: bool,
    original_price: Decimal | None,
    costs: Decimal,
    deemed_rate: Decimal,
    city: str | None,
    ordinary: bool,
    date: dt.date,
) -> dict[str, Any]:
    base = _resale_vat(price, years_held, original_price, True, ordinary, city, date).exclusive_price
    method, tax = _pit(base, years_held, only_home, original_price, costs, deemed_rate)
    return {"method": method, "base": base, "tax": tax}


def stamp_duty(*, price: Decimal, individual_housing: bool) -> dict[str, Any]:
    return {"tax": ZERO if individual_housing else round2(price * STAMP_DUTY_RATE)}


def registration_fee(*, residential: bool, extra_certificates: int) -> dict[str, Any]:
    base = REGISTRATION_FEE_RESIDENTIAL if residential else REGISTRATION_FEE_NON_RESIDENTIAL
    return {"fee": round2(base + REGISTRATION_FEE_PER_EXTRA_CERTIFICATE * extra_certificates)}


def transaction_costs(
    *,
    price: Decimal,
    area: Decimal,
    home_order: int,
    years_held: Decimal,
    only_home: bool,
    original_price: Decimal | None,
    city: str | None,
    ordinary: bool,
    costs: Decimal,
    deemed_rate: Decimal,
    urban_rate: Decimal,
    date: dt.date,
) -> dict[str, Any]:
    vat = _resale_vat(price, years_held, original_price, True, ordinary, city, date)
    base = vat.exclusive_price
    deed = deed_tax(price=base, area=area, home_order=home_order, residential=True, city=city, date=date)
    buyer = {
        "deed_tax": deed["tax"],
        "stamp_duty": stamp_duty(price=base, individual_housing=True)["tax"],
        "registration_fee": registration_fee(residential=True, extra_certificates=0)["fee"],
    }
    _, pit = _pit(base, years_held, only_home, original_price, costs, deemed_rate)
    seller = {
        "vat": vat.vat,
        "surcharges": _surcharges(vat.vat, urban_rate, date),
        "personal_income_tax": pit,
    }
    buyer["total"] = sum(buyer.values(), ZERO)
    seller["total"] = sum(seller.values(), ZERO)
    return {"base": base, "buyer": buyer, "seller": seller, "total": buyer["total"] + seller["total"]}
