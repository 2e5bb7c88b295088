"""Every calculator with its Chinese description, argument schema and result fields, and the public entry
points: `run` (validate, compute, return plain JSON values), `describe` and `tool_schemas` (for tool calling).

Results are JSON-ready: money and areas are floats to 2 places, rates and ratios float fractions to 4 places
(see calc/rounding.py), years and counts ints, methods and rule names strings; transaction_costs nests dicts.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from calc import areas, deal, land, loans, taxes
from calc.errors import CalcError
from calc.land import LAND_USE_TERMS
from calc.schema import (
    boolean,
    fraction,
    integer,
    money,
    number,
    parameters,
    positive,
    string,
    transaction_date,
    validate,
)


@dataclass(frozen=True)
class Calculator:
    name: str
    description: str
    parameters: dict[str, Any]
    results: tuple[str, ...]
    function: Callable[..., dict[str, Any]]

    def tool_schema(self) -> dict[str, Any]:
        """The OpenAI function-tool form; a copy, so callers may edit it freely."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": copy.deepcopy(self.parameters),
            },
        }


# Arguments shared by several calculators, defined once so their meaning and limits cannot drift apart.
PRICE = positive("成交价（含增值税），元")
PRICE_EXCL_VAT = positive("计税价格（不含增值税的成交价），元")
AREA = positive("建筑面积，㎡")
HOME_ORDER = integer("买方家庭购买的第几套住房：1 首套，2 二套，3 三套及以上", enum=[1, 2, 3])
YEARS_HELD = number("卖方持有年限（年），自契税完税凭证与不动产权证登记日较早者起算", minimum=0)
ONLY_HOME = boolean("是否为卖方家庭唯一住房")
ORIGINAL_PRICE = money("房屋原值（原购置价），元；未知时为 null", nullable=True, default=None)
RESIDENTIAL = boolean("是否为住宅", default=True)
ORDINARY = boolean("是否为普通住宅", default=True)
CITY = string("城市名，如 北京；只影响 2024-12-01 前北上广深的特殊规则", nullable=True, default=None)
URBAN_RATE = number(
    "城市维护建设税税率：市区 0.07，县城或镇 0.05，其他 0.01", enum=[0.07, 0.05, 0.01], default=0.07
)
COSTS = money("可扣除的合理费用（原契税、贷款利息、装修费等），元", default=0)
DEEMED_RATE = fraction("个税核定征收率，1%–3%，多数城市 1%", minimum=0.01, maximum=0.03, default=0.01)
PRINCIPAL = positive("贷款本金，元")
ANNUAL_RATE = fraction("贷款年利率")
LOAN_YEARS = integer("贷款年限（年）", minimum=1, maximum=30)
COMPLETION_YEAR = integer("房屋竣工年份", minimum=1900)
YEAR = integer("交易（当前）年份", minimum=1900)
LAND_AREA = positive("用地面积，㎡")
DATE = transaction_date()

_CALCULATORS = (
    Calculator(
        "deed_tax",
        "契税（买方缴纳）。计税依据为不含增值税的成交价；税率取交易日有效的政策：2024-12-01 起个人购买住房"
        "首套 ≤140㎡ 1%、>140㎡ 1.5%，二套 ≤140㎡ 1%、>140㎡ 2%（北上广深相同），三套及以上 3%；"
        "2016-02-22 至 2024-11-30 面积界限为 90㎡，且北上广深二套为 3%。非住宅 3%。",
        parameters(
            price=PRICE_EXCL_VAT,
            area=AREA,
            home_order=HOME_ORDER,
            residential=RESIDENTIAL,
            city=CITY,
            date=DATE,
        ),
        ("rate", "base", "tax"),
        taxes.deed_tax,
    ),
    Calculator(
        "resale_vat",
        "个人出售住房的增值税及附加（卖方缴纳）。2026-01-01 起持有不满 2 年按 3% 全额计征（成交价÷1.03×3%），"
        "满 2 年免征；2016-05-01 至 2025-12-31 为 5%（成交价÷1.05×5%），其中 2024-12-01 前北上广深"
        "非普通住宅满 2 年按（成交价−原值）÷1.05×5%。个人出售非住宅按差额÷1.05×5%（仅至 2025-12-31）。"
        "附加为城建税（7%/5%/1%）+教育费附加 3%+地方教育附加 2%，2023-01-01 至 2027-12-31 减半。"
        "rate 为适用的增值税征收率，免征时为 0。",
        parameters(
            price=PRICE,
            years_held=YEARS_HELD,
            original_price=ORIGINAL_PRICE,
            residential=RESIDENTIAL,
            ordinary=ORDINARY,
            city=CITY,
            urban_rate=URBAN_RATE,
            date=DATE,
        ),
        ("vat", "surcharges", "total", "rate"),
        taxes.resale_vat,
    ),
    Calculator(
        "personal_income_tax",
        "个人所得税（卖方缴纳）。满五唯一免征（method=exempt）；提供原值时按（不含增值税成交价−原值−合理费用）"
        "×20% 计征（gain，不低于 0）；否则按不含增值税成交价×核定征收率（deemed，默认 1%）。"
        "base 为不含增值税的成交价：卖方需缴增值税（持有不满 2 年）时为成交价÷(1+征收率)。",
        parameters(
            price=PRICE,
            years_held=YEARS_HELD,
            only_home=ONLY_HOME,
            original_price=ORIGINAL_PRICE,
            costs=COSTS,
            deemed_rate=DEEMED_RATE,
            city=CITY,
            ordinary=ORDINARY,
            date=DATE,
        ),
        ("method", "base", "tax"),
        taxes.personal_income_tax,
    ),
    Calculator(
        "stamp_duty",
        "印花税。个人买卖住房免征（为 0）；其他不动产产权转移按成交价的 0.05%（万分之五）计征。",
        parameters(price=PRICE, individual_housing=boolean("是否为个人买卖住房", default=True)),
        ("tax",),
        taxes.stamp_duty,
    ),
    Calculator(
        "registration_fee",
        "不动产登记费，按件收取，与面积和价格无关：住宅 80 元/件，非住宅 550 元/件"
        "（车库、车位、储藏室按 80 元，请按住宅计）；第一本证书免费，每增加一本 10 元。",
        parameters(
            residential=RESIDENTIAL,
            extra_certificates=integer("第一本之外加发的证书本数", minimum=0, default=0),
        ),
        ("fee",),
        taxes.registration_fee,
    ),
    Calculator(
        "equal_installment",
        "等额本息还款。月利率 r=年利率÷12，期数 n=年数×12，月供 M=P·r·(1+r)^n÷((1+r)^n−1)，"
        "总利息=n·M−P（用未取整的月供计算）。",
        parameters(principal=PRINCIPAL, annual_rate=ANNUAL_RATE, years=LOAN_YEARS),
        ("monthly_payment", "total_interest", "total_payment"),
        loans.equal_installment,
    ),
    Calculator(
        "equal_principal",
        "等额本金还款。首月还款=P÷n+P·r，每月递减=(P÷n)·r，末月还款=P÷n+(P÷n)·r，总利息=P·r·(n+1)÷2。",
        parameters(principal=PRINCIPAL, annual_rate=ANNUAL_RATE, years=LOAN_YEARS),
        ("first_month", "monthly_decrease", "last_month", "total_interest", "total_payment"),
        loans.equal_principal,
    ),
    Calculator(
        "loan_amount",
        "可贷金额=评估价×贷款成数（评估价与成交价孰低时，传入较低者）。",
        parameters(appraised_value=positive("房屋评估价，元"), loan_ratio=fraction("贷款成数")),
        ("loan",),
        loans.loan_amount,
    ),
    Calculator(
        "down_payment",
        "首付款=成交价×首付比例，贷款=成交价−首付款。商业贷款最低首付比例 15%，城市可定更高。",
        parameters(price=PRICE, ratio=fraction("首付比例")),
        ("down_payment", "loan"),
        loans.down_payment,
    ),
    Calculator(
        "provident_fund_loan",
        "公积金贷款额度=（借款人账户余额+共同借款人账户余额）×倍数×缴存年限系数，且不超过城市最高限额 cap。",
        parameters(
            balance_applicant=money("借款人公积金账户余额，元"),
            balance_co_applicant=money("共同借款人公积金账户余额，元；没有则为 0", default=0),
            multiple=positive("余额倍数"),
            year_coefficient=positive("缴存年限系数"),
            cap=money("最高贷款限额，元；不限则为 null", nullable=True, default=None),
        ),
        ("loan",),
        loans.provident_fund_loan,
    ),
    Calculator(
        "house_age",
        "房龄=交易年份−竣工年份。",
        parameters(completion_year=COMPLETION_YEAR, year=YEAR),
        ("age",),
        land.house_age,
    ),
    Calculator(
        "max_loan_term",
        "最长贷款年限。商业贷款（commercial）：min(30, 50−房龄, 70−借款人年龄)；"
        "公积金贷款（provident_fund）：min(30, 70−借款人年龄)。binding_rule 为起约束作用的规则 "
        "house_age_50 / borrower_age_70 / term_cap_30（并列时先报房龄，再报年龄）；years 不低于 0。",
        parameters(
            completion_year=COMPLETION_YEAR,
            year=YEAR,
            borrower_age=integer("借款人年龄（周岁）", minimum=18),
            rule=string("贷款类型", enum=["commercial", "provident_fund"], default="commercial"),
        ),
        ("years", "binding_rule"),
        loans.max_loan_term,
    ),
    Calculator(
        "land_remaining_years",
        "土地使用权剩余年限=出让最高年限−(当前年份−出让年份)，不低于 0。最高年限：住宅 70 年，工业 50 年，"
        "教育科技文化卫生体育 50 年，商业旅游娱乐 40 年，综合或其他 50 年；也可直接给出 total_years。"
        "住宅用地到期自动续期。",
        parameters(
            use=string("土地用途（英文或中文）", enum=list(LAND_USE_TERMS), nullable=True, default=None),
            total_years=integer(
                "出让年限（年），给出 use 时可省略", minimum=1, maximum=70, nullable=True, default=None
            ),
            grant_year=integer("土地出让年份", minimum=1900),
            year=YEAR,
        ),
        ("total_years", "remaining"),
        land.land_remaining_years,
    ),
    Calculator(
        "building_area",
        "建筑面积=套内建筑面积+分摊的共有建筑面积（公摊）。",
        parameters(inner_area=positive("套内建筑面积，㎡"), shared_area=money("分摊的公摊面积，㎡")),
        ("area",),
        areas.building_area,
    ),
    Calculator(
        "efficiency_rate",
        "得房率=套内建筑面积÷建筑面积。",
        parameters(inner_area=positive("套内建筑面积，㎡"), building_area=AREA),
        ("rate",),
        areas.efficiency_rate,
    ),
    Calculator(
        "area_error_ratio",
        "面积误差比=(产权登记面积−合同约定面积)÷合同约定面积；为正表示实测面积大于合同面积。",
        parameters(registered_area=positive("产权登记面积，㎡"), contract_area=positive("合同约定面积，㎡")),
        ("ratio",),
        areas.area_error_ratio,
    ),
    Calculator(
        "plot_ratio",
        "容积率=地上总建筑面积÷用地面积。",
        parameters(total_building_area=positive("地上总建筑面积，㎡"), land_area=LAND_AREA),
        ("ratio",),
        areas.plot_ratio,
    ),
    Calculator(
        "green_rate",
        "绿地率=绿地面积÷用地面积。",
        parameters(green_area=money("绿地面积，㎡"), land_area=LAND_AREA),
        ("rate",),
        areas.green_rate,
    ),
    Calculator(
        "building_density",
        "建筑密度=建筑基底总面积÷用地面积。",
        parameters(footprint_area=money("建筑基底总面积，㎡"), land_area=LAND_AREA),
        ("rate",),
        areas.building_density,
    ),
    Calculator(
        "price_diff_ratio",
        "议价空间（价差率）=(挂牌价−成交价)÷挂牌价；为负表示成交价高于挂牌价。",
        parameters(listing_price=positive("挂牌价，元"), deal_price=positive("成交价，元")),
        ("ratio",),
        deal.price_diff_ratio,
    ),
    Calculator(
        "land_grant_fee_public_housing",
        "北京已购公房上市出售应缴的土地出让金=建筑面积×成本价（城六区 1560 元/㎡，其他区 1290 元/㎡）×1%。",
        parameters(area=AREA, core_district=boolean("是否位于城六区", default=True)),
        ("fee",),
        land.land_grant_fee_public_housing,
    ),
    Calculator(
        "land_grant_fee_affordable",
        "北京经济适用住房上市出售应缴的土地收益：一类经适房 2008-04-11 前购买的按成交价 10%，"
        "之后购买的按(成交价−原购价)×70%；二类经适房按成交价 3%。",
        parameters(
            kind=integer("经适房类别：1 一类，2 二类", enum=[1, 2]),
            price=PRICE,
            original_price=ORIGINAL_PRICE,
            bought_before_2008_04_11=boolean("是否于 2008-04-11 前购买", default=False),
        ),
        ("fee",),
        land.land_grant_fee_affordable,
    ),
    Calculator(
        "earnest_money",
        "定金罚则（民法典 586–587）。定金不得超过合同标的额的 20%（cap），超出部分不产生定金效力；"
        "refund 为交付定金一方最终收回的金额：给付方违约不得收回定金（超额部分作为一般价款退还），"
        "收受方违约双倍返还定金并退还超额部分，无人违约则全额退还。",
        parameters(
            contract_price=positive("合同总价（标的额），元"),
            earnest=money("约定并交付的定金，元"),
            defaulting_party=string(
                "违约方：payer 交付定金方，recipient 收受定金方，none 无人违约",
                enum=["payer", "recipient", "none"],
            ),
        ),
        ("cap", "effective_earnest", "refund"),
        deal.earnest_money,
    ),
    Calculator(
        "transaction_costs",
        "二手住房交易税费合计，不含中介佣金。买方：契税、印花税（个人住房免征）、登记费 80 元；"
        "卖方：增值税及附加、个人所得税。按交易日有效的政策计算，契税与个税都以不含增值税价 base "
        "为计税依据。home_order 指买方家庭住房套数，years_held 与 only_home 指卖方。",
        parameters(
            price=PRICE,
            area=AREA,
            home_order=HOME_ORDER,
            years_held=YEARS_HELD,
            only_home=ONLY_HOME,
            original_price=ORIGINAL_PRICE,
            city=CITY,
            ordinary=ORDINARY,
            costs=COSTS,
            deemed_rate=DEEMED_RATE,
            urban_rate=URBAN_RATE,
            date=DATE,
        ),
        ("base", "buyer", "seller", "total"),
        taxes.transaction_costs,
    ),
)

REGISTRY: Mapping[str, Calculator] = MappingProxyType(
    {calculator.name: calculator for calculator in _CALCULATORS}
)


def _to_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _to_json(item) for key, item in value.items()}
    if isinstance(value, Decimal):
        return float(value) + 0.0  # + 0.0 turns a rounded-away -0.0 into 0.0
    return value


def lookup(name: str) -> Calculator:
    """The registry entry for `name`; an unknown name is an error that lists the valid ones."""
    calculator = REGISTRY.get(name)
    if calculator is None:
        raise CalcError(f"unknown calculator {name!r}; valid names: {', '.join(REGISTRY)}", field="name")
    return calculator


def run(name: str, args: dict[str, Any]) -> dict[str, Any]:
    """Validate `args` against the calculator's schema, compute, and return the result as JSON values."""
    calculator = lookup(name)
    try:
        result = calculator.function(**validate(calculator.parameters, args))
    except CalcError as exc:
        raise exc.within(name) from None
    return _to_json(result)


def describe() -> list[dict[str, Any]]:
    """Every calculator as plain data (name, description, parameters, results), for docs and prompts."""
    return [
        {
            "name": calculator.name,
            "description": calculator.description,
            "parameters": copy.deepcopy(calculator.parameters),
            "results": list(calculator.results),
        }
        for calculator in REGISTRY.values()
    ]


def tool_schemas() -> list[dict[str, Any]]:
    return [calculator.tool_schema() for calculator in REGISTRY.values()]
