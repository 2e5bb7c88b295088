"""The registry describes every calculator truthfully: schemas usable for tool calls, results as declared."""

from __future__ import annotations

from typing import Any

import pytest

import calc

REQUIRED = {
    "deed_tax",
    "resale_vat",
    "personal_income_tax",
    "stamp_duty",
    "registration_fee",
    "equal_installment",
    "equal_principal",
    "loan_amount",
    "down_payment",
    "provident_fund_loan",
    "house_age",
    "max_loan_term",
    "land_remaining_years",
    "building_area",
    "efficiency_rate",
    "area_error_ratio",
    "plot_ratio",
    "green_rate",
    "building_density",
    "price_diff_ratio",
    "land_grant_fee_public_housing",
    "land_grant_fee_affordable",
    "earnest_money",
    "transaction_costs",
}

# One valid call per calculator, so every entry's declared result fields can be checked against a real run.
SAMPLE_ARGS: dict[str, dict[str, Any]] = {
    "deed_tax": {"price": 1_000_000, "area": 90, "home_order": 1},
    "resale_vat": {"price": 1_000_000, "years_held": 1},
    "personal_income_tax": {"price": 1_000_000, "years_held": 1, "only_home": False},
    "stamp_duty": {"price": 1_000_000},
    "registration_fee": {},
    "equal_installment": {"principal": 500_000, "annual_rate": 0.03, "years": 20},
    "equal_principal": {"principal": 500_000, "annual_rate": 0.03, "years": 20},
    "loan_amount": {"appraised_value": 1_000_000, "loan_ratio": 0.6},
    "down_payment": {"price": 1_000_000, "ratio": 0.3},
    "provident_fund_loan": {"balance_applicant": 40_000, "multiple": 15, "year_coefficient": 1},
    "house_age": {"completion_year": 2000, "year": 2026},
    "max_loan_term": {"completion_year": 2000, "year": 2026, "borrower_age": 40},
    "land_remaining_years": {"use": "住宅", "grant_year": 2000, "year": 2026},
    "building_area": {"inner_area": 80, "shared_area": 20},
    "efficiency_rate": {"inner_area": 80, "building_area": 100},
    "area_error_ratio": {"registered_area": 101, "contract_area": 100},
    "plot_ratio": {"total_building_area": 30_000, "land_area": 10_000},
    "green_rate": {"green_area": 3_000, "land_area": 10_000},
    "building_density": {"footprint_area": 2_500, "land_area": 10_000},
    "price_diff_ratio": {"listing_price": 1_000_000, "deal_price": 950_000},
    "land_grant_fee_public_housing": {"area": 50},
    "land_grant_fee_affordable": {"kind": 2, "price": 1_000_000},
    "earnest_money": {"contract_price": 1_000_000, "earnest": 50_000, "defaulting_party": "none"},
    "transaction_costs": {
        "price": 1_000_000,
        "area": 90,
        "home_order": 1,
        "years_held": 3,
        "only_home": True,
    },
}


def test_every_required_calculator_is_registered() -> None:
    assert set(calc.REGISTRY) >= REQUIRED
    assert set(SAMPLE_ARGS) == set(calc.REGISTRY)


@pytest.mark.parametrize("name", sorted(SAMPLE_ARGS))
def test_result_fields_are_the_declared_ones(name: str) -> None:
    result = calc.run(name, SAMPLE_ARGS[name])
    assert tuple(result) == calc.REGISTRY[name].results


@pytest.mark.parametrize("name", sorted(SAMPLE_ARGS))
def test_dropping_any_required_argument_is_reported(name: str) -> None:
    required = set(calc.REGISTRY[name].parameters["required"])
    assert required <= set(SAMPLE_ARGS[name])
    for field in required:
        with pytest.raises(calc.CalcError) as error:
            calc.run(name, {key: value for key, value in SAMPLE_ARGS[name].items() if key != field})
        assert error.value.field == field


def test_tool_schemas_are_openai_function_tools() -> None:
    tools = calc.tool_schemas()
    assert [tool["function"]["name"] for tool in tools] == list(calc.REGISTRY)
    for tool in tools:
        assert tool["type"] == "function"
        function = tool["function"]
        assert function["description"]
        parameters = function["parameters"]
        assert parameters["type"] == "object"
        assert set(parameters["required"]) <= set(parameters["properties"])
        for name, spec in parameters["properties"].items():
            assert spec["description"], name
            assert spec["type"] in ("number", "integer", "boolean", "string") or spec["type"][1] == "null"


def test_describe_is_a_copy_that_callers_cannot_corrupt() -> None:
    described = calc.describe()
    assert [entry["name"] for entry in described] == list(calc.REGISTRY)
    described[0]["parameters"]["properties"].clear()
    calc.tool_schemas()[0]["function"]["parameters"]["required"].clear()
    assert calc.run("deed_tax", SAMPLE_ARGS["deed_tax"])["tax"] == 10000.0
    with pytest.raises(calc.CalcError):
        calc.run("deed_tax", {})


def test_rates_are_fractions_with_four_places_and_money_has_two() -> None:
    result = calc.run("efficiency_rate", {"inner_area": 2, "building_area": 3})
    assert result == {"rate": 0.6667}
    vat = calc.run("resale_vat", {"price": 1_000_001, "years_held": 1, "date": "2026-03-01"})
    assert vat["vat"] == 29126.24  # 1,000,001 / 1.03 = 970,874.76 (to the cent); × 3% = 29,126.2428
    assert vat["rate"] == 0.03
