"""Bad calculator input is refused with a message that names the field and what was expected."""

from __future__ import annotations

from typing import Any

import pytest

import calc

DEED = {"price": 3_000_000, "area": 100, "home_order": 1, "date": "2026-03-01"}
LOAN = {"principal": 1_000_000, "annual_rate": 0.0305, "years": 30}


@pytest.mark.parametrize(
    ("name", "args", "field", "words"),
    [
        ("deed_tax", DEED | {"price": -1}, "price", "> 0"),
        ("deed_tax", DEED | {"price": "3000000"}, "price", "expected a number"),
        ("deed_tax", DEED | {"price": True}, "price", "expected a number"),
        ("deed_tax", DEED | {"home_order": 4}, "home_order", "one of 1, 2, 3"),
        ("deed_tax", DEED | {"home_order": 1.5}, "home_order", "an integer"),
        ("deed_tax", DEED | {"date": "2015-12-31"}, "date", "2016-02-22"),
        ("deed_tax", DEED | {"date": "2026/03/01"}, "date", "ISO date"),
        ("deed_tax", DEED | {"residential": "yes"}, "residential", "true or false"),
        ("deed_tax", DEED | {"area": None}, "area", "got null"),
        ("deed_tax", {"price": 1, "area": 100}, "home_order", "required"),
        ("deed_tax", DEED | {"prise": 1}, "prise", "unknown argument"),
        ("resale_vat", {"price": 1_000_000, "years_held": 1, "date": "2016-04-30"}, "date", "2016-05-01"),
        ("resale_vat", {"price": 1_000_000, "years_held": -1}, "years_held", "≥ 0"),
        ("resale_vat", {"price": 1_000_000, "years_held": 1, "urban_rate": 0.06}, "urban_rate", "one of"),
        ("resale_vat", {"price": 1, "years_held": 3, "residential": False, "date": "2026-03-01"},
         "residential", "no VAT rule"),
        ("personal_income_tax", {"price": 1, "years_held": 1, "only_home": True, "deemed_rate": 1},
         "deemed_rate", "≤ 0.03"),
        ("equal_installment", LOAN | {"years": 0}, "years", "≥ 1"),
        ("equal_installment", LOAN | {"annual_rate": 3.05}, "annual_rate", "≤ 1"),
        ("equal_principal", LOAN | {"principal": 0}, "principal", "> 0"),
        ("house_age", {"completion_year": 2020, "year": 2017}, "year", "completion_year"),
        ("max_loan_term", {"completion_year": 2000, "year": 2026, "borrower_age": 30, "rule": "bank"},
         "rule", "commercial"),
        ("land_remaining_years", {"grant_year": 2000, "year": 2026}, "use", "total_years"),
        ("land_remaining_years", {"use": "住宅", "total_years": 40, "grant_year": 2000, "year": 2026},
         "total_years", "conflicts"),
        ("efficiency_rate", {"inner_area": 120, "building_area": 100}, "inner_area", "building_area"),
        ("green_rate", {"green_area": 1, "land_area": 0}, "land_area", "> 0"),
        ("land_grant_fee_affordable", {"kind": 1, "price": 1_000_000}, "original_price", "required"),
        ("earnest_money", {"contract_price": 1, "earnest": 1, "defaulting_party": "buyer"},
         "defaulting_party", "payer"),
    ],
)  # fmt: skip
def test_bad_input_names_the_field(name: str, args: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(calc.CalcError) as error:
        calc.run(name, args)
    assert error.value.field == field
    message = str(error.value)
    assert message.startswith(f"{name}: {field}: ")
    assert words in message


def test_unknown_calculator_lists_valid_names() -> None:
    with pytest.raises(calc.CalcError) as error:
        calc.run("deed_taxes", {})
    assert "deed_taxes" in str(error.value)
    assert "deed_tax," in str(error.value)
    assert "transaction_costs" in str(error.value)


def test_arguments_must_be_an_object() -> None:
    with pytest.raises(calc.CalcError, match="JSON object"):
        calc.run("stamp_duty", [3_000_000])  # type: ignore[arg-type]


def test_integral_float_is_accepted_as_integer_and_input_is_not_mutated() -> None:
    args = LOAN | {"years": 30.0}
    assert calc.run("equal_installment", args)["monthly_payment"] == 4243.05
    assert args == LOAN | {"years": 30.0}
