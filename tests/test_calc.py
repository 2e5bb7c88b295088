"""Each calculator against figures worked out by hand from the facts file, across the policy regimes."""

from __future__ import annotations

import datetime as dt

import pytest

import calc

D2026 = "2026-03-01"


def test_vat_and_deemed_pit_match_the_facts_file_check_in_2026() -> None:
    vat = calc.run("resale_vat", {"price": 3_000_000, "years_held": 1, "date": D2026})
    # 3,000,000 / 1.03 = 2,912,621.36; × 3% = 87,378.64; surcharges half of 12% = 6% of VAT.
    assert vat == {"vat": 87378.64, "surcharges": 5242.72, "total": 92621.36, "rate": 0.03}
    pit = calc.run(
        "personal_income_tax", {"price": 3_000_000, "years_held": 1, "only_home": False, "date": D2026}
    )
    assert pit == {"method": "deemed", "base": 2912621.36, "tax": 29126.21}


def test_vat_rate_changes_from_5_to_3_percent_on_2026_01_01() -> None:
    args = {"price": 2_100_000, "years_held": 1}
    old = calc.run("resale_vat", args | {"date": "2025-12-31"})
    assert old == {"vat": 100000.0, "surcharges": 6000.0, "total": 106000.0, "rate": 0.05}
    new = calc.run("resale_vat", args | {"date": "2026-01-01"})
    assert new["rate"] == 0.03
    assert new["vat"] == 61165.05  # 2,100,000 / 1.03 = 2,038,834.95; × 3%


@pytest.mark.parametrize("date", ["2019-06-01", "2025-06-01", D2026])
def test_vat_exempt_after_two_years_in_an_ordinary_city(date: str) -> None:
    result = calc.run("resale_vat", {"price": 3_000_000, "years_held": 2, "city": "杭州", "date": date})
    assert result == {"vat": 0.0, "surcharges": 0.0, "total": 0.0, "rate": 0.0}


def test_tier1_non_ordinary_home_paid_vat_on_the_gain_only_before_2024_12_01() -> None:
    args = {
        "price": 3_150_000,
        "years_held": 3,
        "original_price": 2_100_000,
        "ordinary": False,
        "city": "北京",
    }
    before = calc.run("resale_vat", args | {"date": "2024-11-30"})
    # (3,150,000 − 2,100,000) / 1.05 × 5% = 50,000; surcharges 6% (halved) = 3,000.
    assert before == {"vat": 50000.0, "surcharges": 3000.0, "total": 53000.0, "rate": 0.05}
    after = calc.run("resale_vat", args | {"date": "2024-12-01"})
    assert after["vat"] == 0.0
    ordinary = calc.run("resale_vat", args | {"ordinary": True, "date": "2024-11-30"})
    assert ordinary["vat"] == 0.0


def test_surcharges_follow_city_tax_rate_and_the_2023_relief() -> None:
    args = {"price": 2_100_000, "years_held": 1}  # VAT 100,000 under the 5% rule
    assert calc.run("resale_vat", args | {"date": "2022-12-31"})["surcharges"] == 12000.0
    assert calc.run("resale_vat", args | {"date": "2023-01-01"})["surcharges"] == 6000.0
    assert calc.run("resale_vat", args | {"date": "2025-01-01", "urban_rate": 0.05})["surcharges"] == 5000.0
    assert calc.run("resale_vat", args | {"date": "2025-01-01", "urban_rate": 0.01})["surcharges"] == 3000.0


def test_non_residential_vat_is_on_the_gain_and_needs_the_original_price() -> None:
    args = {"price": 2_100_000, "years_held": 5, "residential": False, "date": "2025-06-01"}
    assert calc.run("resale_vat", args | {"original_price": 1_050_000})["vat"] == 50000.0
    with pytest.raises(calc.CalcError) as error:
        calc.run("resale_vat", args)
    assert error.value.field == "original_price"


def test_deed_tax_first_home_of_100_sqm_costs_less_under_the_2024_rule() -> None:
    args = {"price": 3_000_000, "area": 100, "home_order": 1}
    assert calc.run("deed_tax", args | {"date": "2023-06-01"}) == {
        "rate": 0.015,
        "base": 3000000.0,
        "tax": 45000.0,
    }
    assert calc.run("deed_tax", args | {"date": D2026}) == {"rate": 0.01, "base": 3000000.0, "tax": 30000.0}


def test_deed_tax_tier1_second_home_3_percent_only_before_2024_12_01() -> None:
    args = {"price": 3_000_000, "area": 120, "home_order": 2}
    assert calc.run("deed_tax", args | {"city": "深圳", "date": "2024-11-30"})["tax"] == 90000.0
    assert calc.run("deed_tax", args | {"city": "上海市", "date": "2024-12-01"})["tax"] == 30000.0
    # Elsewhere, before the change: second home over 90 ㎡ paid 2%.
    assert calc.run("deed_tax", args | {"city": "成都", "date": "2024-11-30"})["tax"] == 60000.0


@pytest.mark.parametrize(
    ("area", "home_order", "residential", "rate"),
    [
        (140, 1, True, 0.01),
        (140.01, 1, True, 0.015),
        (150, 2, True, 0.02),
        (80, 3, True, 0.03),
        (80, 1, False, 0.03),
    ],
)
def test_deed_tax_rates_in_2026(area: float, home_order: int, residential: bool, rate: float) -> None:
    args = {
        "price": 1_000_000,
        "area": area,
        "home_order": home_order,
        "residential": residential,
        "date": D2026,
    }
    result = calc.run("deed_tax", args)
    assert result["rate"] == rate
    assert result["tax"] == round(1_000_000 * rate, 2)


def test_pit_methods() -> None:
    base = {"price": 3_000_000, "date": D2026}
    exempt = calc.run("personal_income_tax", base | {"years_held": 5, "only_home": True})
    assert exempt == {"method": "exempt", "base": 3000000.0, "tax": 0.0}
    gain = base | {"years_held": 3, "only_home": False, "original_price": 2_000_000, "costs": 100_000}
    assert calc.run("personal_income_tax", gain) == {"method": "gain", "base": 3000000.0, "tax": 180000.0}
    loss = base | {"years_held": 3, "only_home": False, "original_price": 3_200_000}
    assert calc.run("personal_income_tax", loss)["tax"] == 0.0
    not_only = base | {"years_held": 6, "only_home": False, "deemed_rate": 0.02}
    assert calc.run("personal_income_tax", not_only) == {
        "method": "deemed",
        "base": 3000000.0,
        "tax": 60000.0,
    }


def test_pit_base_uses_the_vat_rate_in_force() -> None:
    args = {"price": 2_100_000, "years_held": 1, "only_home": False, "date": "2025-06-01"}
    assert calc.run("personal_income_tax", args) == {"method": "deemed", "base": 2000000.0, "tax": 20000.0}


def test_stamp_duty_and_registration_fee() -> None:
    assert calc.run("stamp_duty", {"price": 3_000_000}) == {"tax": 0.0}
    assert calc.run("stamp_duty", {"price": 3_000_000, "individual_housing": False}) == {"tax": 1500.0}
    assert calc.run("registration_fee", {}) == {"fee": 80.0}
    assert calc.run("registration_fee", {"residential": False}) == {"fee": 550.0}
    assert calc.run("registration_fee", {"extra_certificates": 2}) == {"fee": 100.0}


@pytest.mark.parametrize(
    ("rate", "monthly", "interest"), [(0.0305, 4243.05, 527499.59), (0.026, 4003.40, 441222.96)]
)
def test_equal_installment_matches_the_facts_file(rate: float, monthly: float, interest: float) -> None:
    result = calc.run("equal_installment", {"principal": 1_000_000, "annual_rate": rate, "years": 30})
    assert result["monthly_payment"] == monthly
    assert result["total_interest"] == interest
    assert result["total_payment"] == round(1_000_000 + interest, 2)


def test_equal_installment_at_zero_rate_repays_principal_evenly() -> None:
    result = calc.run("equal_installment", {"principal": 120_000, "annual_rate": 0, "years": 10})
    assert result == {"monthly_payment": 1000.0, "total_interest": 0.0, "total_payment": 120000.0}


def test_equal_principal_matches_the_facts_file() -> None:
    result = calc.run("equal_principal", {"principal": 1_000_000, "annual_rate": 0.0305, "years": 30})
    assert result == {
        "first_month": 5319.44,
        "monthly_decrease": 7.06,
        "last_month": 2784.84,  # 2,777.78 principal + one month's interest on it
        "total_interest": 458770.83,
        "total_payment": 1458770.83,
    }


def test_loan_sizes() -> None:
    assert calc.run("loan_amount", {"appraised_value": 2_000_000, "loan_ratio": 0.7}) == {"loan": 1400000.0}
    assert calc.run("down_payment", {"price": 3_000_000, "ratio": 0.15}) == {
        "down_payment": 450000.0,
        "loan": 2550000.0,
    }
    fund = {
        "balance_applicant": 50_000,
        "balance_co_applicant": 30_000,
        "multiple": 10,
        "year_coefficient": 1.5,
    }
    assert calc.run("provident_fund_loan", fund) == {"loan": 1200000.0}
    assert calc.run("provident_fund_loan", fund | {"cap": 1_000_000}) == {"loan": 1000000.0}


def test_house_age_and_max_loan_term() -> None:
    assert calc.run("house_age", {"completion_year": 1990, "year": 2017}) == {"age": 27}
    built_1990 = {"completion_year": 1990, "year": 2017}
    assert calc.run("max_loan_term", built_1990 | {"borrower_age": 35}) == {
        "years": 23,
        "binding_rule": "house_age_50",
    }
    new_house = {"completion_year": 2015, "year": 2026}
    assert calc.run("max_loan_term", new_house | {"borrower_age": 50}) == {
        "years": 20,
        "binding_rule": "borrower_age_70",
    }
    assert calc.run("max_loan_term", new_house | {"borrower_age": 30}) == {
        "years": 30,
        "binding_rule": "term_cap_30",
    }
    fund = built_1990 | {"borrower_age": 35, "rule": "provident_fund"}
    assert calc.run("max_loan_term", fund) == {"years": 30, "binding_rule": "term_cap_30"}
    too_old = {"completion_year": 1960, "year": 2026, "borrower_age": 30}
    assert calc.run("max_loan_term", too_old) == {"years": 0, "binding_rule": "house_age_50"}


def test_land_remaining_years() -> None:
    assert calc.run("land_remaining_years", {"use": "residential", "grant_year": 2000, "year": 2026}) == {
        "total_years": 70,
        "remaining": 44,
    }
    assert (
        calc.run("land_remaining_years", {"use": "商业", "grant_year": 2010, "year": 2026})["remaining"] == 24
    )
    assert (
        calc.run("land_remaining_years", {"use": "工业", "grant_year": 2010, "year": 2026})["total_years"]
        == 50
    )
    explicit = {"total_years": 50, "grant_year": 1996, "year": 2026}
    assert calc.run("land_remaining_years", explicit) == {"total_years": 50, "remaining": 20}
    expired = {"use": "tourism", "grant_year": 1980, "year": 2026}
    assert calc.run("land_remaining_years", expired)["remaining"] == 0


def test_area_and_site_ratios() -> None:
    assert calc.run("building_area", {"inner_area": 80, "shared_area": 20.5}) == {"area": 100.5}
    assert calc.run("efficiency_rate", {"inner_area": 78.5, "building_area": 100.3}) == {"rate": 0.7827}
    assert calc.run("area_error_ratio", {"registered_area": 103, "contract_area": 100}) == {"ratio": 0.03}
    assert calc.run("area_error_ratio", {"registered_area": 98.5, "contract_area": 100}) == {"ratio": -0.015}
    assert calc.run("plot_ratio", {"total_building_area": 50_000, "land_area": 20_000}) == {"ratio": 2.5}
    assert calc.run("green_rate", {"green_area": 7_000, "land_area": 20_000}) == {"rate": 0.35}
    assert calc.run("building_density", {"footprint_area": 5_000, "land_area": 20_000}) == {"rate": 0.25}
    assert calc.run("price_diff_ratio", {"listing_price": 5_000_000, "deal_price": 4_800_000}) == {
        "ratio": 0.04
    }


def test_beijing_land_grant_fees() -> None:
    assert calc.run("land_grant_fee_public_housing", {"area": 60}) == {"fee": 936.0}
    assert calc.run("land_grant_fee_public_housing", {"area": 60, "core_district": False}) == {"fee": 774.0}
    early = {"kind": 1, "price": 2_000_000, "bought_before_2008_04_11": True}
    assert calc.run("land_grant_fee_affordable", early) == {"fee": 200000.0}
    late = {"kind": 1, "price": 2_000_000, "original_price": 800_000}
    assert calc.run("land_grant_fee_affordable", late) == {"fee": 840000.0}
    assert calc.run("land_grant_fee_affordable", {"kind": 2, "price": 2_000_000}) == {"fee": 60000.0}


@pytest.mark.parametrize(
    ("earnest", "party", "refund"),
    [(250_000, "payer", 50000.0), (250_000, "recipient", 450000.0), (250_000, "none", 250000.0),
     (100_000, "payer", 0.0), (100_000, "recipient", 200000.0)],
)  # fmt: skip
def test_earnest_money_caps_at_20_percent(earnest: int, party: str, refund: float) -> None:
    result = calc.run(
        "earnest_money", {"contract_price": 1_000_000, "earnest": earnest, "defaulting_party": party}
    )
    assert result == {"cap": 200000.0, "effective_earnest": float(min(earnest, 200_000)), "refund": refund}


def test_transaction_costs_share_one_vat_exclusive_base() -> None:
    args = {
        "price": 3_000_000,
        "area": 100,
        "home_order": 1,
        "years_held": 1,
        "only_home": False,
        "date": D2026,
    }
    result = calc.run("transaction_costs", args)
    assert result == {
        "base": 2912621.36,
        "buyer": {"deed_tax": 29126.21, "stamp_duty": 0.0, "registration_fee": 80.0, "total": 29206.21},
        "seller": {
            "vat": 87378.64,
            "surcharges": 5242.72,
            "personal_income_tax": 29126.21,
            "total": 121747.57,
        },
        "total": 150953.78,
    }


def test_transaction_costs_for_a_five_year_only_home() -> None:
    args = {
        "price": 3_000_000,
        "area": 150,
        "home_order": 2,
        "years_held": 6,
        "only_home": True,
        "date": D2026,
    }
    result = calc.run("transaction_costs", args)
    assert result["seller"] == {"vat": 0.0, "surcharges": 0.0, "personal_income_tax": 0.0, "total": 0.0}
    assert result["buyer"]["deed_tax"] == 60000.0
    assert result["total"] == 60080.0


def test_date_defaults_to_today() -> None:
    args = {"price": 1_030_000, "years_held": 1}
    assert calc.run("resale_vat", args) == calc.run(
        "resale_vat", args | {"date": dt.date.today().isoformat()}
    )
