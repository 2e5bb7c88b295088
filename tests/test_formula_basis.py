"""The 教材原文 line of a calculation or case sub-question quotes the rule that governs the deal as told:
never a formula whose dates exclude the year of the sale, and with the condition under which the sale is
taxed at all, so an option testing that condition (0元, 持有满2年) is answered by the quoted rule."""

from __future__ import annotations

from graph.authors.recipes.formula_basis import formula_quoted

_OLD_RATE = "增值税 = 含税成交价 ÷ (1 + 5%) × 5%（2016-05-01至2025-12-31，持有不满2年）"
_NEW_RATE = "增值税 = 成交价 ÷ (1 + 3%) × 3%（2026年1月1日起，持有不满2年）"
_BARE_OLD = "2025年及以前增值税 = 成交价 ÷ 1.05 × 5%"


def _quoted(told: str, *formulas: str) -> str | None:
    stem = "本案中，卖方应缴纳的增值税为（　）"
    return formula_quoted("增值税", stem, told, ("第八章",), [("s1", ("第八章",), list(formulas))])


def test_a_formula_valid_until_2025_is_not_quoted_for_a_2026_sale_nor_one_from_2026_for_a_2025_sale():
    # the working uses both rates' figures, so only the date window can tell the rules apart
    working = "增值税=3,090,000÷1.03×3%=90,000元；旧征收率5%、1.05不再适用"
    sale_2026 = f"2026年3月，甲某出售2019年购入的住房，持有不满2年。{working}"
    assert _quoted(sale_2026, _OLD_RATE) is None
    assert _quoted(sale_2026, _OLD_RATE, _NEW_RATE) == _NEW_RATE + "。"
    sale_2025 = f"2025年11月，甲某出售住房，持有不满2年。{working}"
    assert _quoted(sale_2025, _NEW_RATE) is None
    assert _quoted(sale_2025, _NEW_RATE, _OLD_RATE) == _OLD_RATE + "。"


def test_a_formula_quoted_bare_is_quoted_with_the_condition_the_book_states_for_it():
    told = "2025年11月，乙某出售持有半年的住房，成交价325.5万元。增值税=3,255,000÷1.05×5%=155,000元"
    quoted = _quoted(told, _BARE_OLD, "附加税费 = 增值税 × 6%", _OLD_RATE)
    assert quoted == _OLD_RATE + "。"
    assert "持有不满2年" in quoted


def test_an_exemption_is_quoted_only_when_the_key_comes_to_nothing():
    exempt = "增值税 = 0（持有满2年）"
    taxed = "增值税 = 含税成交价 ÷ (1 + 3%) × 3%（持有不满2年）"
    held_18_months = (
        "2026年10月，邓女士出售持有1年半的住房。不含税销售额=1,648,000÷(1+3%)=1,600,000元；增值税=48,000元"
    )
    assert _quoted(held_18_months, exempt, taxed) == taxed + "。"
    assert _quoted(held_18_months, exempt) is None
    held_3_years = "2026年10月，邓女士出售持有3年的住房，持有满2年免征增值税，附加税费随之为0"
    assert _quoted(held_3_years, exempt, taxed) == exempt + "。"


def test_an_income_tax_worked_past_a_vat_exemption_quotes_the_tax_on_the_gain():
    stem = "陈某应缴纳的个人所得税为112,000元。（　）"
    exempt = "个人所得税 = 0（持有满5年且为家庭唯一生活用房）"
    on_gain = "个人所得税 = (不含增值税成交价 − 原值 − 合理费用) × 20%"
    told = (
        "2026年5月，陈某出售一套持有3年的住房，能够提供原购房价款173万元的凭证。持有满2年免征增值税，"
        "应纳税所得额=2,400,000−1,730,000−110,000=560,000元，个人所得税=560,000×20%=112,000元"
    )
    shelves = [("s1", ("第八章",), [exempt, on_gain])]
    assert formula_quoted("个人所得税", stem, told, ("第八章",), shelves) == on_gain + "。"
