"""How each numeric result is named and measured in a question: the label a stem asks for and the unit an
option states. Kept beside the calculators so a question author in graph/ needs no domain words of its own."""

from __future__ import annotations

from calc.registry import REGISTRY

MONEY, RATE, AREA, YEARS, COUNT = "元", "比例", "㎡", "年", ""

# (label, unit) per result field, with per-calculator entries where one field name means different things.
_BY_FIELD: dict[str, tuple[str, str]] = {
    "tax": ("应纳税额", MONEY),
    "base": ("计税依据", MONEY),
    "rate": ("适用税率", RATE),
    "vat": ("应纳增值税", MONEY),
    "surcharges": ("增值税附加税费", MONEY),
    "total": ("合计应纳税费", MONEY),
    "fee": ("应缴费用", MONEY),
    "monthly_payment": ("每月还款额", MONEY),
    "total_interest": ("总利息", MONEY),
    "total_payment": ("还款总额", MONEY),
    "first_month": ("首月还款额", MONEY),
    "monthly_decrease": ("每月递减额", MONEY),
    "last_month": ("末月还款额", MONEY),
    "loan": ("可贷款额", MONEY),
    "down_payment": ("首付款", MONEY),
    "age": ("房龄", YEARS),
    "years": ("最长贷款年限", YEARS),
    "total_years": ("土地使用权出让最高年限", YEARS),
    "remaining": ("土地使用权剩余年限", YEARS),
    "area": ("建筑面积", AREA),
    "ratio": ("比值", RATE),
    "cap": ("定金上限", MONEY),
    "effective_earnest": ("具有定金效力的金额", MONEY),
    "refund": ("付定金一方可收回的金额", MONEY),
}
_BY_CALCULATOR: dict[tuple[str, str], tuple[str, str]] = {
    ("deed_tax", "tax"): ("应纳契税", MONEY),
    ("deed_tax", "rate"): ("适用契税税率", RATE),
    ("resale_vat", "rate"): ("增值税征收率", RATE),
    ("personal_income_tax", "tax"): ("应纳个人所得税", MONEY),
    ("stamp_duty", "tax"): ("应纳印花税", MONEY),
    ("registration_fee", "fee"): ("不动产登记费", MONEY),
    ("efficiency_rate", "rate"): ("得房率", RATE),
    ("green_rate", "rate"): ("绿地率", RATE),
    ("building_density", "rate"): ("建筑密度", RATE),
    ("plot_ratio", "ratio"): ("容积率", COUNT),
    ("area_error_ratio", "ratio"): ("面积误差比", RATE),
    ("price_diff_ratio", "ratio"): ("成交价与挂牌价的差价率", RATE),
    ("land_grant_fee_public_housing", "fee"): ("应缴土地出让金", MONEY),
    ("land_grant_fee_affordable", "fee"): ("应缴土地出让金（综合地价款）", MONEY),
    ("provident_fund_loan", "loan"): ("公积金可贷额度", MONEY),
    ("loan_amount", "loan"): ("可贷款额", MONEY),
}


def result_label(calculator: str, field: str) -> tuple[str, str]:
    """(label, unit) for a result field; unit is 元, 比例 (a fraction shown as %), ㎡, 年 or empty."""
    return _BY_CALCULATOR.get((calculator, field)) or _BY_FIELD.get(field, (field, COUNT))


# Argument values a stem shows in words rather than as the code a calculator takes.
_VALUE_WORDS: dict[str, str] = {
    "residential": "住宅",
    "industrial": "工业",
    "education": "教育",
    "science": "科技",
    "culture": "文化",
    "health": "卫生",
    "sports": "体育",
    "commercial": "商业",
    "tourism": "旅游",
    "entertainment": "娱乐",
    "mixed": "综合",
    "other": "其他",
    "provident_fund": "公积金贷款",
    "payer": "交付定金方",
    "recipient": "收受定金方",
    "none": "无人违约",
}


def value_words(value: str) -> str:
    """The Chinese a learner reads for a coded argument value ("commercial" → "商业")."""
    return _VALUE_WORDS.get(value, value)


def final_figure(calculator: str, result: dict) -> str:
    """The result a calculation question asks for by default: the last non-zero figure the calculator lists
    (the tax rather than the rate or base it is computed from)."""
    order = list(REGISTRY[calculator].results)
    numeric = [
        f for f in order if isinstance(result.get(f), int | float) and not isinstance(result.get(f), bool)
    ]
    if not numeric:
        raise ValueError(f"{calculator} has no numeric result")
    return next((f for f in reversed(numeric) if result[f]), numeric[-1])
