"""Mortgage arithmetic: repayment schedules, loan sizes and the longest term a bank will grant."""

from __future__ import annotations

from decimal import Decimal, localcontext
from typing import Any

from calc.land import house_age
from calc.rounding import round2

MAX_TERM_YEARS = 30
HOUSE_AGE_PLUS_TERM = 50  # common Beijing bank rule for commercial loans
BORROWER_AGE_PLUS_TERM = 70
# (1 + r)^360 needs more than the default 28 digits to keep the textbook's cents exact.
_LOAN_PRECISION = 50


def equal_installment(*, principal: Decimal, annual_rate: Decimal, years: int) -> dict[str, Any]:
    months = years * 12
    with localcontext() as ctx:
        ctx.prec = _LOAN_PRECISION
        monthly_rate = annual_rate / 12
        if monthly_rate == 0:
            payment = principal / months
        else:
            growth = (1 + monthly_rate) ** months
            payment = principal * monthly_rate * growth / (growth - 1)
        total = payment * months
    return {
        "monthly_payment": round2(payment),
        "total_interest": round2(total - principal),
        "total_payment": round2(total),
    }


def equal_principal(*, principal: Decimal, annual_rate: Decimal, years: int) -> dict[str, Any]:
    months = years * 12
    with localcontext() as ctx:
        ctx.prec = _LOAN_PRECISION
        monthly_rate = annual_rate / 12
        repaid_each_month = principal / months
        interest = principal * monthly_rate * (months + 1) / 2
        decrease = repaid_each_month * monthly_rate
        return {
            "first_month": round2(repaid_each_month + principal * monthly_rate),
            "monthly_decrease": round2(decrease),
            "last_month": round2(repaid_each_month + decrease),
            "total_interest": round2(interest),
            "total_payment": round2(principal + interest),
        }


def loan_amount(*, appraised_value: Decimal, loan_ratio: Decimal) -> dict[str, Any]:
    return {"loan": round2(appraised_value * loan_ratio)}


def down_payment(*, price: Decimal, ratio: Decimal) -> dict[str, Any]:
    down = round2(price * ratio)
    return {"down_payment": down, "loan": round2(price) - down}


def provident_fund_loan(
    *,
    balance_applicant: Decimal,
    balance_co_applicant: Decimal,
    multiple: Decimal,
    year_coefficient: Decimal,
    cap: Decimal | None,
) -> dict[str, Any]:
    loan = round2((balance_applicant + balance_co_applicant) * multiple * year_coefficient)
    return {"loan": loan if cap is None else min(loan, round2(cap))}


def max_loan_term(*, completion_year: int, year: int, borrower_age: int, rule: str) -> dict[str, Any]:
    """Ties name the case-specific limit (house age, then borrower age) before the general 30-year cap."""
    limits: dict[str, int] = {}
    if rule == "commercial":
        age = house_age(completion_year=completion_year, year=year)["age"]
        limits["house_age_50"] = HOUSE_AGE_PLUS_TERM - age
    limits["borrower_age_70"] = BORROWER_AGE_PLUS_TERM - borrower_age
    limits["term_cap_30"] = MAX_TERM_YEARS
    binding = min(limits, key=lambda name: limits[name])
    return {"years": max(limits[binding], 0), "binding_rule": binding}
