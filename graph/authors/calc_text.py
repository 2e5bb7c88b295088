"""How each calculator's situation is told in an exam question: the story that states every input the
answer depends on without naming the rule that decides it, the working with the actual numbers, and the
mistakes examinees really make, each as a mistaken input the calculator recomputes.

These are the calculators' own words (taxes, loans, areas), kept in one table per calculator so the recipe
that assembles a question stays subject-neutral; a calculator without a telling is never asked offline.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, ClassVar

from calc import policy
from calc.labels import AREA, MONEY, RATE, YEARS, value_words
from calc.land import LAND_USE_TERMS
from calc.reading import LOWEST_DOWN_PAYMENT
from graph.authors.scenes import day_in, month_text

Args = dict[str, Any]


@dataclass(frozen=True)
class Case:
    """One varied instance: the calculator's arguments, and what only the story shows (the VAT-inclusive
    price a buyer signed, the higher of two prices, the years a seller bought in)."""

    args: Args
    extras: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Names:
    """Who the case is about; `flexible` for a 灵活 case, which leaves a figure the situation decides (the
    down-payment ratio of a buyer paying the least allowed) for the learner to know."""

    buyer: str
    seller: str
    flexible: bool = False


@dataclass(frozen=True)
class Mistake:
    """A real mistake: `why` in the subject's terms, the input it amounts to, and — when the mistake is a
    forgotten step or a confused method — the figure or calculator it reads instead."""

    why: str
    args: Args
    field: str | None = None
    calculator: str | None = None


# ---- how numbers read -------------------------------------------------------------------------------


def _trim(text: str) -> str:
    return text.rstrip("0").rstrip(".") if "." in text else text


def yuan(value: float) -> str:
    """A sum in a working: 3,000,000 or 29,126.21."""
    return _trim(f"{value:,.2f}")


def money(value: float) -> str:
    """A sum as a stem states it: 300万元, 257.5万元, 2,912,621.36元."""
    if value and round(value) % 100 == 0 and abs(value - round(value)) < 1e-9:
        return f"{value / 10000:g}万元"
    return f"{yuan(value)}元"


def percent(value: float) -> str:
    return _trim(f"{value * 100:.4f}") + "%"


def _decimals(values: list[float], scale: float, most: int) -> int:
    def needed(value: float) -> int:
        for places in range(most + 1):
            if abs(round(value * scale, places) - value * scale) < 1e-9:
                return places
        return most

    return max(needed(v) for v in values)


def option_texts(values: list[float], unit: str) -> list[str]:
    """All options of one question in one style and one precision, as a paper prints them."""
    if unit == MONEY:
        if all(v % 10000 == 0 for v in values):
            return [f"{v / 10000:g}万元" if v else "0元" for v in values]
        places = 2 if _decimals(values, 1, 2) else 0
        return [f"{v:,.{places}f}元" if v else "0元" for v in values]
    if unit == RATE:
        places = _decimals(values, 100, 2)
        return [f"{v * 100:.{places}f}%" for v in values]
    if unit == AREA:
        places = _decimals(values, 1, 2)
        return [f"{v:.{places}f}平方米" for v in values]
    if unit == YEARS:
        return [f"{v:g}年" for v in values]
    places = _decimals(values, 1, 2)
    return [f"{v:.{places}f}{unit}" for v in values]


# ---- shared wording and varying ---------------------------------------------------------------------

ORDER = {1: "首套", 2: "第二套", 3: "第三套"}
HOLDINGS = {1: "没有住房", 2: "已有一套住房", 3: "已有两套住房"}
LOCATION = {0.07: "市区", 0.05: "县城", 0.01: "乡村（不在市区、县城或镇）"}
AREAS = (60, 72, 76, 85, 89, 95, 98, 105, 110, 118, 120, 128, 135, 138, 145, 150, 160, 180)
LAND_USES = {"residential": "居住", "industrial": "工业", "commercial": "商业"}
PLACES = {"residential": "一套住宅", "commercial": "一间临街商铺", "industrial": "一处工业厂房"}
_HELD = {0.5: "半年", 1: "1年", 1.5: "1年半"}
_OLD_DEED_DAY = "2024-11-15"
_NEW_DEED_DAY = "2025-03-15"
_OLD_VAT_DAY = "2025-06-15"
_NEW_VAT_DAY = "2026-03-15"
_FULL_SURCHARGE_DAY = "2028-03-15"
_FIRST_GRANT = 1990


def held_words(years: float) -> str:
    return _HELD.get(years) or f"{years:g}年"


def scaled(value: float, rng: random.Random, low: float = 0.7, high: float = 1.4) -> float:
    """A realistic new sum near `value`: rounded to 10万 above 1,000,000 yuan, to 万 above 100,000."""
    raw = value * rng.uniform(low, high)
    step = 100_000 if raw >= 1_000_000 else 10_000 if raw >= 100_000 else 1_000
    return float(max(step, round(raw / step) * step))


def day_of(args: Args) -> dt.date:
    return dt.date.fromisoformat(str(args["date"]))


def moved_day(args: Args, rng: random.Random, today: dt.date) -> str:
    """Another day of the example's year (never in the future), so the same policy applies."""
    day = day_of(args)
    if day.year > today.year:
        return day.isoformat()
    return day_in(rng, day.year, today).isoformat()


def vat_rate(args: Args) -> float:
    return float(policy.in_force(policy.RESALE_VAT_RULES, day_of(args), "resale VAT").rate)


def surcharge_share(args: Args) -> float:
    return float(policy.in_force(policy.SURCHARGE_RULES, day_of(args), "VAT surcharge").share)


def _same_bracket(years: float, rng: random.Random) -> float:
    """Years held that fall under the same rules as `years`: under 2, 2 to 5, or 5 and more."""
    if years < 2:
        return rng.choice((0.5, 1, 1.5))
    if years < 5:
        return rng.choice((2, 3, 4))
    return rng.choice((5, 6, 8))


def _gross(net: float, rate: float) -> float:
    return float(round(Decimal(str(net)) * (1 + Decimal(str(rate))), 2))


def _net(gross: float, rate: float) -> float:
    return float(round(Decimal(str(gross)) / (1 + Decimal(str(rate))), 2))


def _when(args: Args) -> str:
    return month_text(day_of(args))


def _method(args: Args) -> str:
    if args.get("original_price") is not None:
        costs = args.get("costs") or 0
        extra = f"，另有原契税、贷款利息和装修费等合理费用{money(costs)}" if costs else ""
        return f"能够提供原购房价款{money(args['original_price'])}的凭证{extra}"
    return f"无法提供房屋原值凭证，当地按转让收入的{percent(args.get('deemed_rate', 0.01))}核定征收个人所得税"


def _own_home(args: Args) -> str:
    return "其家庭名下只有这一套住房" if args["only_home"] else "其家庭名下另有一套住房"


def _pit_base(args: Args, base: float) -> str:
    if args["years_held"] < 2 and vat_rate(args):
        rate = vat_rate(args)
        return f"持有不满2年需缴纳增值税，计税收入={yuan(args['price'])}÷(1+{percent(rate)})={yuan(base)}元"
    return f"持有满2年免征增值税，计税收入即成交价{yuan(base)}元"


def _pit_working(args: Args, result: dict, base: float) -> str:
    if result["method"] == "exempt":
        return "该住房持有满5年且是家庭唯一住房，免征个人所得税，应纳税额为0"
    if result["method"] == "gain":
        costs = args.get("costs") or 0
        gain = base - args["original_price"] - costs
        deductions = f"−{yuan(args['original_price'])}" + (f"−{yuan(costs)}" if costs else "")
        return (
            f"{_pit_base(args, base)}；应纳税所得额={yuan(base)}{deductions}={yuan(gain)}元，"
            f"个人所得税={yuan(gain)}×20%={yuan(result['tax'])}元"
        )
    rate = args.get("deemed_rate", 0.01)
    return f"{_pit_base(args, base)}；个人所得税={yuan(base)}×{percent(rate)}={yuan(result['tax'])}元"


def _pit_tax(args: Args, tax: float, base: float) -> str:
    """The seller's income tax in one clause, its base already worked."""
    if args["years_held"] >= 5 and args["only_home"]:
        return "持有满5年且是家庭唯一住房，免征个人所得税"
    if args.get("original_price") is not None:
        costs = args.get("costs") or 0
        deductions = f"−{yuan(args['original_price'])}" + (f"−{yuan(costs)}" if costs else "")
        return f"个人所得税=({yuan(base)}{deductions})×20%={yuan(tax)}元"
    rate = args.get("deemed_rate", 0.01)
    return f"个人所得税按核定征收：{yuan(base)}×{percent(rate)}={yuan(tax)}元"


def _pit_mistakes(args: Args) -> list[Mistake]:
    held, found = args["years_held"], []
    if args.get("original_price") is not None:
        if args.get("costs"):
            found.append(Mistake("漏扣了合理费用", {**args, "costs": 0}))
        found.append(Mistake("误按1%核定征收计算", {**args, "original_price": None, "costs": 0}))
        found.append(
            Mistake("没有扣除房屋原值，直接以转让收入乘以20%", {**args, "original_price": 0, "costs": 0})
        )
    else:
        found.append(
            Mistake("误按财产转让所得20%的税率计算全部转让收入", {**args, "original_price": 0, "costs": 0})
        )
    if held < 2 and vat_rate(args):
        found.append(Mistake("直接以含税成交价计算，没有做价税分离", {**args, "years_held": 2}))
        if day_of(args) >= dt.date(2026, 1, 1):
            old = {**args, "date": _OLD_VAT_DAY}
            found.append(Mistake("按2025年底以前5%的征收率做了价税分离", old))
    elif args.get("original_price") is None:
        exempt = "没有注意到卖方持有满2年免征增值税而多做了一次价税分离"
        found.append(Mistake(exempt, {**args, "price": _net(args["price"], 0.03)}))
    if held >= 5 and not args["only_home"]:
        found.append(Mistake("没有核实是否为家庭唯一住房，误以为可以免征", {**args, "only_home": True}))
    if 2 <= held < 5 and args["only_home"]:
        found.append(Mistake("把增值税满2年免征的规定套用到了个人所得税上", {**args, "years_held": 5}))
    return found


# ---- one telling per calculator ---------------------------------------------------------------------


class Telling(ABC):
    """How one calculator's situation is told; `fields` are the results a question may ask, best first."""

    calculator: ClassVar[str]
    fields: ClassVar[tuple[str, ...]]

    @abstractmethod
    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        """New realistic inputs for the example's situation; None when the example cannot be retold."""

    @abstractmethod
    def story(self, case: Case, names: Names, field: str) -> str:
        """Every input the asked figure depends on, as one or two sentences of a case."""

    @abstractmethod
    def ask(self, case: Case, names: Names, field: str) -> str:
        """The words before the blank: "周某应缴纳的契税为"."""

    @abstractmethod
    def working(self, case: Case, result: dict, field: str) -> str:
        """The formula with the case's numbers, down to the asked figure."""

    @abstractmethod
    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        """The real mistakes for this case, most telling first; `quoted` are the rates the section quotes."""

    # words of the sentences whose rates are this figure's siblings ("首付"), none when any rate is
    quoted_about: ClassVar[tuple[str, ...]] = ()

    def first_step(self, case: Case, names: Names, field: str) -> str:
        """The working of a figure a 灵活 case leaves to the learner before the formula ("贷款本金=…；")."""
        return ""

    def decides(self, case: Case) -> bool:
        """Whether the 灵活 telling of the case leaves something for the learner to work out that the stem
        does not state: which rate, base or limit applies, or a step to take first. Examiners strike a
        灵活 question that is the 严谨 frame with a name."""
        return True


class DeedTax(Telling):
    calculator = "deed_tax"
    fields = ("tax",)

    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        varied = {**args, "price": scaled(args["price"], rng), "date": moved_day(args, rng, today)}
        residential = args.get("residential", True)
        limit = float(policy.in_force(policy.DEED_TAX_RULES, day_of(varied), "deed tax").area_threshold)
        larger = args["area"] > limit  # the same side of the area limit keeps the example's rate
        varied["area"] = rng.choice(
            [a for a in AREAS if (a > limit) == larger] if residential else (45, 60, 80, 120)
        )
        extras: dict[str, Any] = {}
        # a seller of housing held under 2 years pays VAT on the whole price (shops follow other rules)
        if residential and rng.random() < 0.5 and vat_rate(varied):
            extras = {"gross": _gross(varied["price"], vat_rate(varied)), "held": rng.choice((0.5, 1, 1.5))}
        return Case(varied, extras)

    def story(self, case: Case, names: Names, field: str) -> str:
        args, extras = case.args, case.extras
        where = f"在{args['city']}" if args.get("city") else ""
        if args.get("residential", True):
            order = args["home_order"]
            again = "又" if order > 1 else ""
            bought = f"{names.buyer}家庭名下{HOLDINGS[order]}，{again}{where}购买一套建筑面积"
            bought += f"{args['area']}平方米的住宅"
        else:
            bought = f"{names.buyer}{where}购买一间建筑面积{args['area']}平方米的临街商铺"
        if extras:
            price = (
                f"卖方持有该房{held_words(extras['held'])}，合同成交价（含增值税）为{money(extras['gross'])}"
            )
        else:
            price = f"不含增值税的成交价格为{money(args['price'])}"
        return f"{_when(args)}，{bought}，{price}。"

    def ask(self, case: Case, names: Names, field: str) -> str:
        return f"{names.buyer}应缴纳的契税为"

    def working(self, case: Case, result: dict, field: str) -> str:
        args, extras = case.args, case.extras
        rule = policy.in_force(policy.DEED_TAX_RULES, day_of(args), "deed tax")
        rate = percent(result["rate"])
        steps = []
        if extras:
            steps.append(
                f"卖方持有不满2年需缴纳增值税，计税依据={yuan(extras['gross'])}÷(1+{percent(vat_rate(args))})"
                f"={yuan(args['price'])}元"
            )
        order = args["home_order"]
        if not args.get("residential", True):
            steps.append(f"商铺属于非住宅，适用税率{rate}")
        elif order >= 3:
            steps.append(f"这是家庭第三套住房，不论面积适用税率{rate}")
        elif order == 2 and rule.second_home_tier1 is not None and policy.is_tier1(args.get("city")):
            steps.append(f"2024年12月1日以前{args['city']}的家庭第二套住房不享受优惠，适用税率{rate}")
        else:
            limit = f"{rule.area_threshold:g}"
            side = "未超过" if Decimal(str(args["area"])) <= rule.area_threshold else "超过"
            steps.append(
                f"这是家庭{ORDER[order]}住房，建筑面积{args['area']}平方米{side}{limit}平方米，适用税率{rate}"
            )
        steps.append(f"契税=计税依据×税率={yuan(args['price'])}×{rate}={yuan(result['tax'])}元")
        return "；".join(steps)

    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        args, extras = case.args, case.extras
        found = []
        if extras:
            found.append(Mistake("直接以含增值税的成交价作为计税依据", {**args, "price": extras["gross"]}))
        if args.get("residential", True):
            found += [
                Mistake(f"误按家庭{ORDER[other]}住房的税率计算", {**args, "home_order": other})
                for other in ORDER
                if other != args["home_order"]
            ]
            found.append(Mistake("误按非住宅3%的税率计算", {**args, "residential": False}))
        else:
            found += [
                Mistake(
                    f"误把商铺当作家庭{ORDER[order]}住房，套用了住房的优惠税率",
                    {**args, "residential": True, "home_order": order},
                )
                for order in (1, 2)
            ]
        if day_of(args) >= dt.date(2024, 12, 1):
            found.append(
                Mistake("误用2024年12月1日以前以90平方米为界的旧政策", {**args, "date": _OLD_DEED_DAY})
            )
        else:
            found.append(
                Mistake("误用2024年12月1日起以140平方米为界的新政策", {**args, "date": _NEW_DEED_DAY})
            )
        if extras and vat_rate(args) != 0.05:
            old = _net(extras["gross"], 0.05)
            found.append(Mistake("按2025年底以前5%的征收率做了价税分离", {**args, "price": old}))
        return found


class ResaleVat(Telling):
    calculator = "resale_vat"
    fields = ("total", "vat", "surcharges")

    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        if not args.get("residential", True):
            return None
        varied = {**args, "date": moved_day(args, rng, today)}
        varied["years_held"] = _same_bracket(args["years_held"], rng)
        rate = vat_rate(varied) if varied["years_held"] < 2 else 0
        varied["price"] = _gross(scaled(_net(args["price"], rate), rng), rate)
        varied["urban_rate"] = args.get("urban_rate") or rng.choice((0.07, 0.07, 0.05))
        return Case(varied)

    def story(self, case: Case, names: Names, field: str) -> str:
        args = case.args
        where = "" if field == "vat" else f"，该房位于{LOCATION[args['urban_rate']]}"
        return (
            f"{_when(args)}，{names.seller}出售一套持有{held_words(args['years_held'])}的住房，"
            f"合同成交价（含增值税）为{money(args['price'])}{where}。"
        )

    def ask(self, case: Case, names: Names, field: str) -> str:
        asked = {"vat": "增值税", "surcharges": "增值税附加税费", "total": "增值税及附加税费合计"}[field]
        return f"{names.seller}应缴纳的{asked}为"

    def working(self, case: Case, result: dict, field: str) -> str:
        args = case.args
        if not result["vat"]:
            return "个人出售持有满2年的住房免征增值税，附加税费随之为0"
        rate = result["rate"]
        net = _net(args["price"], rate)
        steps = [
            f"不含税销售额={yuan(args['price'])}÷(1+{percent(rate)})={yuan(net)}元",
            f"增值税={yuan(net)}×{percent(rate)}={yuan(result['vat'])}元",
        ]
        if field != "vat":
            half = "×50%" if surcharge_share(args) < 1 else ""
            steps.append(
                f"附加税费={yuan(result['vat'])}×({percent(args['urban_rate'])}+3%+2%){half}"
                f"={yuan(result['surcharges'])}元"
            )
        if field == "total":
            steps.append(f"合计={yuan(result['vat'])}+{yuan(result['surcharges'])}={yuan(result['total'])}元")
        return "；".join(steps)

    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        args = case.args
        if args["years_held"] >= 2:
            return [Mistake("误以为持有满2年的住房仍需全额缴纳增值税", {**args, "years_held": 1})]
        rate = vat_rate(args)
        found = [
            Mistake(
                "没有做价税分离，直接用含税成交价乘以征收率", {**args, "price": _gross(args["price"], rate)}
            )
        ]
        if field == "total":
            found.append(Mistake("漏算了附加税费", args, field="vat"))
        new_rules = day_of(args) >= dt.date(2026, 1, 1)
        if new_rules:
            found.append(Mistake("误用2025年底以前5%的征收率", {**args, "date": _OLD_VAT_DAY}))
        else:
            found.append(Mistake("误用2026年起3%的征收率", {**args, "date": _NEW_VAT_DAY}))
        if field != "vat":
            if new_rules and surcharge_share(args) < 1:
                found.append(Mistake("附加税费没有按规定减半征收", {**args, "date": _FULL_SURCHARGE_DAY}))
            found += [
                Mistake(
                    f"误按{LOCATION[other]}{percent(other)}的城市维护建设税税率计算",
                    {**args, "urban_rate": other},
                )
                for other in LOCATION
                if other != args["urban_rate"]
            ]
        found.append(Mistake("误以为该住房已满2年可以免征", {**args, "years_held": 2}))
        return found


class PersonalIncomeTax(Telling):
    calculator = "personal_income_tax"
    fields = ("tax",)

    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        varied = {**args, "date": moved_day(args, rng, today)}
        varied["years_held"] = _same_bracket(args["years_held"], rng)
        rate = vat_rate(varied) if varied["years_held"] < 2 else 0
        net = scaled(_net(args["price"], rate), rng)
        varied["price"] = _gross(net, rate)
        if args.get("original_price") is not None:
            varied["original_price"] = float(round(net * rng.uniform(0.55, 0.8) / 10_000) * 10_000)
            if args.get("costs"):
                varied["costs"] = float(
                    round(varied["original_price"] * rng.uniform(0.04, 0.1) / 10_000) * 10_000
                )
        return Case(varied)

    def story(self, case: Case, names: Names, field: str) -> str:
        args = case.args
        return (
            f"{_when(args)}，{names.seller}出售一套持有{held_words(args['years_held'])}的住房，{_own_home(args)}，"
            f"合同成交价（含增值税）为{money(args['price'])}，{_method(args)}。"
        )

    def ask(self, case: Case, names: Names, field: str) -> str:
        return f"{names.seller}应缴纳的个人所得税为"

    def working(self, case: Case, result: dict, field: str) -> str:
        return _pit_working(case.args, result, result["base"])

    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        return _pit_mistakes(case.args)


class TransactionCosts(Telling):
    calculator = "transaction_costs"
    fields = ("total",)

    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        case = PersonalIncomeTax().vary(args, rng, today)
        if case is None:
            return None
        varied = {**case.args, "area": rng.choice(AREAS)}
        varied["urban_rate"] = args.get("urban_rate") or rng.choice((0.07, 0.07, 0.05))
        return Case(varied)

    def story(self, case: Case, names: Names, field: str) -> str:
        args = case.args
        order = args["home_order"]
        return (
            f"{_when(args)}，{names.buyer}家庭名下{HOLDINGS[order]}，从{names.seller}处购买一套建筑面积"
            f"{args['area']}平方米的住宅，合同成交价（含增值税）为{money(args['price'])}。{names.seller}持有该房"
            f"{held_words(args['years_held'])}，{_own_home(args)}，{_method(args)}；该房位于"
            f"{LOCATION[args['urban_rate']]}。"
        )

    def ask(self, case: Case, names: Names, field: str) -> str:
        return "不考虑经纪服务费，买卖双方应缴纳的税费合计为"

    def working(self, case: Case, result: dict, field: str) -> str:
        """Each tax worked from the case's facts, as examiners asked (206万÷1.03, 150㎡>140㎡ → 1.5%, the
        surcharges at 6%), then the two sides' sums."""
        args, buyer, seller, base = case.args, result["buyer"], result["seller"], result["base"]
        deed = DeedTax().working(
            Case({**args, "price": base}),
            {"rate": buyer["deed_tax"] / base if base else 0, "tax": buyer["deed_tax"]},
            "tax",
        )
        sold = ResaleVat().working(Case(args), {**seller, "rate": vat_rate(args)}, "surcharges")
        if seller["vat"] and sold.startswith("不含税销售额"):
            sold = sold.replace("不含税销售额", "计税价格（不含税销售额）", 1)
        else:
            sold = f"{sold}；计税价格即成交价{yuan(base)}元"
        return (
            f"卖方：{sold}；{_pit_tax(args, seller['personal_income_tax'], base)}；卖方合计="
            f"{yuan(seller['vat'])}+{yuan(seller['surcharges'])}+{yuan(seller['personal_income_tax'])}"
            f"={yuan(seller['total'])}元。买方：{deed}；个人购买住房免征印花税，登记费{yuan(buyer['registration_fee'])}元；"
            f"买方合计={yuan(buyer['deed_tax'])}+{yuan(buyer['registration_fee'])}={yuan(buyer['total'])}元。"
            f"税费合计={yuan(buyer['total'])}+{yuan(seller['total'])}={yuan(result['total'])}元"
        )

    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        args = case.args
        held = args["years_held"]
        found = [
            Mistake(f"把买方这套住房误当作家庭{ORDER[other]}住房计算契税", {**args, "home_order": other})
            for other in ORDER
            if other != args["home_order"]
        ]
        if held < 2:
            found.append(Mistake("误以为卖方持有已满2年，漏算了增值税及附加", {**args, "years_held": 2}))
        else:
            found.append(Mistake("误以为卖方仍需缴纳增值税及附加", {**args, "years_held": 1}))
        if args.get("original_price") is not None:
            found.append(
                Mistake("卖方个人所得税误按1%核定征收计算", {**args, "original_price": None, "costs": 0})
            )
        if held >= 5:
            flipped = not args["only_home"]
            why = "误以为符合满五唯一，免掉了个人所得税" if flipped else "没有注意到满五唯一免征个人所得税"
            found.append(Mistake(why, {**args, "only_home": flipped}))
        elif args["only_home"]:
            found.append(Mistake("误以为持有满2年也免征个人所得税", {**args, "years_held": 5}))
        found.append(Mistake("误用了2024年12月1日以前的旧政策", {**args, "date": _OLD_DEED_DAY}))
        return found


class RegistrationFee(Telling):
    calculator = "registration_fee"
    fields = ("fee",)

    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        return Case({**args, "extra_certificates": rng.choice((1, 2, 3))})

    def story(self, case: Case, names: Names, field: str) -> str:
        owners = case.args["extra_certificates"] + 1
        bought = "一套住宅" if case.args.get("residential", True) else "一间商铺"
        return (
            f"{names.buyer}等{owners}人按份共同购买{bought}，办理转移登记时，{owners}位共有人要求各自持有一本"
            "不动产权证书。"
        )

    def ask(self, case: Case, names: Names, field: str) -> str:
        return "应缴纳的不动产登记费（含证书工本费）合计为"

    def working(self, case: Case, result: dict, field: str) -> str:
        residential = case.args.get("residential", True)
        base, extra = (80, "住宅") if residential else (550, "非住宅")
        count = case.args["extra_certificates"]
        return (
            f"{extra}登记费按件收取{base}元，第一本证书免收工本费，每加发一本收10元：{base}+{count}×10"
            f"={yuan(result['fee'])}元"
        )

    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        args = case.args
        residential = args.get("residential", True)
        kind = "误按非住宅550元/件收取登记费" if residential else "误按住宅80元/件收取登记费"
        return [
            Mistake(
                "把第一本证书也计收了工本费", {**args, "extra_certificates": args["extra_certificates"] + 1}
            ),
            Mistake(kind, {**args, "residential": not residential}),
            Mistake("漏收了加发证书的工本费", {**args, "extra_certificates": 0}),
        ]


def lender(example: str) -> str:
    """How the case's borrower applies, as the worked example's loan is: a provident-fund rate told with
    a bank loan is a case no examiner signs."""
    return "申请住房公积金贷款" if "公积金" in example else "向银行申请商业性个人住房贷款"


def _price_as_principal(case: Case) -> list[Mistake]:
    """Borrowing the whole price: the slip a reader makes who overlooks the down payment the case tells."""
    price = case.extras.get("price")
    return [Mistake("误把房屋总价当作贷款本金", {**case.args, "principal": price})] if price else []


# Down payments as buyers make them: three to four tenths of the price.
_DOWN_SHARES = (0.3, 0.35, 0.4)


def _shares(ratio: float) -> str:
    """A share as buyers and banks say it: 三成, else 35%."""
    tenths = round(ratio * 10)
    if abs(ratio * 10 - tenths) < 1e-9:
        return "一二三四五六七八九"[tenths - 1] + "成"
    return percent(ratio)


def _loan_story(case: Case, names: Names, method: str) -> str:
    """The purchase the loan pays for, so the figures are a buyer's and not a formula's: the price, the
    down payment and the rest borrowed. A 灵活 case tells the down payment as the share of the price it
    is, leaving the sum borrowed for the learner to work out first."""
    args, extras = case.args, case.extras
    if names.flexible:
        paid = f"按{_shares(extras['share'])}的比例支付首付款，其余"
    else:
        paid = f"首付{money(extras['down'])}，其余{money(args['principal'])}"
    return (
        f"{names.buyer}购买一套总价{money(extras['price'])}的存量住房，{paid}"
        f"{extras.get('lender', lender(''))}，期限{args['years']}年，"
        f"年利率{percent(args['annual_rate'])}，采用{method}方式还款。"
    )


def _principal_working(case: Case, names: Names) -> str:
    """The sum borrowed, worked from the price and the down payment share a 灵活 case tells."""
    if not names.flexible:
        return ""
    extras = case.extras
    return (
        f"贷款本金P=总价×(1−首付款比例)={yuan(extras['price'])}×(1−{percent(extras['share'])})"
        f"={yuan(case.args['principal'])}元；"
    )


def _loan_vary(args: Args, rng: random.Random) -> Case:
    """A price in 10万 steps and a down payment of three to four tenths of it, so the sum borrowed is
    exact whether the case tells the down payment in yuan or as a share."""
    years = args["years"] if rng.random() < 0.5 else rng.choice((10, 15, 20, 25, 30))
    share = rng.choice(_DOWN_SHARES)
    target = scaled(args["principal"], rng, 0.5, 1.5) / (1 - share)
    price = float(max(100_000, round(target / 100_000) * 100_000))
    down = float(round(Decimal(str(price)) * Decimal(str(share)), 2))
    principal = price - down
    extras = {"price": price, "down": down, "share": share}
    return Case({**args, "principal": principal, "years": years}, extras)


class EqualInstallment(Telling):
    calculator = "equal_installment"
    fields = ("monthly_payment", "total_interest")

    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        return _loan_vary(args, rng)

    def first_step(self, case: Case, names: Names, field: str) -> str:
        return _principal_working(case, names)

    def story(self, case: Case, names: Names, field: str) -> str:
        return _loan_story(case, names, "等额本息")

    def ask(self, case: Case, names: Names, field: str) -> str:
        return (
            f"{names.buyer}每月的还款额为"
            if field == "monthly_payment"
            else "按未取整的月还款额计算，整个还款期内支付的利息总额为"
        )

    def working(self, case: Case, result: dict, field: str) -> str:
        args = case.args
        months = args["years"] * 12
        unrounded = (result["total_interest"] + args["principal"]) / months
        monthly = (
            f"月利率r={percent(args['annual_rate'])}÷12，还款月数n={args['years']}×12={months}，"
            f"月还款额=P×r×(1+r)^n÷[(1+r)^n−1]={yuan(result['monthly_payment'])}元"
        )
        if field == "monthly_payment":
            return monthly
        return (
            f"{monthly}；利息总额=n×月还款额−P，月还款额取未取整的{unrounded:.4f}元："
            f"{months}×{unrounded:.4f}−{yuan(args['principal'])}≈{yuan(result['total_interest'])}元"
        )

    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        args = case.args
        if field == "monthly_payment":
            found = [
                Mistake("误按等额本金方式计算，得到的是首月还款额", args, "first_month", "equal_principal"),
                Mistake("只计算了每月应还的本金，漏算了利息", {**args, "annual_rate": 0}),
            ]
        else:
            found = [
                Mistake("误按等额本金方式计算利息总额", args, "total_interest", "equal_principal"),
                Mistake("把还款总额当作了利息总额，没有减去本金", args, "total_payment"),
            ]
        return found + _price_as_principal(case)


class EqualPrincipal(Telling):
    calculator = "equal_principal"
    fields = ("first_month", "total_interest")

    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        return _loan_vary(args, rng)

    def first_step(self, case: Case, names: Names, field: str) -> str:
        return _principal_working(case, names)

    def story(self, case: Case, names: Names, field: str) -> str:
        return _loan_story(case, names, "等额本金")

    def ask(self, case: Case, names: Names, field: str) -> str:
        return (
            f"{names.buyer}第一个月的还款额为" if field == "first_month" else "整个还款期内支付的利息总额为"
        )

    def working(self, case: Case, result: dict, field: str) -> str:
        args = case.args
        principal, months, rate = args["principal"], args["years"] * 12, args["annual_rate"]
        if field == "first_month":
            return (
                f"首月还款额=贷款本金÷还款月数+贷款本金×月利率；每月应还本金={yuan(principal)}÷{months}"
                f"={yuan(principal / months)}元，首月利息={yuan(principal)}×{percent(rate)}÷12"
                f"={yuan(principal * rate / 12)}元，首月还款额={yuan(result['first_month'])}元"
            )
        return (
            f"利息总额=本金×月利率×(还款月数+1)÷2={yuan(principal)}×{percent(rate)}÷12×{months + 1}÷2"
            f"={yuan(result['total_interest'])}元"
        )

    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        args = case.args
        if field == "first_month":
            found = [
                Mistake("误按等额本息方式计算了月还款额", args, "monthly_payment", "equal_installment"),
                Mistake("只计算了每月应还的本金，漏加了首月利息", {**args, "annual_rate": 0}),
            ]
        else:
            found = [
                Mistake("误按等额本息方式计算利息总额", args, "total_interest", "equal_installment"),
                Mistake("把还款总额当作了利息总额，没有减去本金", args, "total_payment"),
            ]
        return found + _price_as_principal(case)


class LoanAmount(Telling):
    calculator = "loan_amount"
    fields = ("loan",)
    quoted_about = ("成数",)

    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        lower = scaled(args["appraised_value"], rng)
        higher = float(round(lower * rng.uniform(1.04, 1.12) / 10_000) * 10_000)
        deal, appraisal = (higher, lower) if rng.random() < 0.6 else (lower, higher)
        return Case(
            {**args, "appraised_value": lower}, {"deal": deal, "appraisal": appraisal, "higher": higher}
        )

    def story(self, case: Case, names: Names, field: str) -> str:
        extras = case.extras
        return (
            f"{names.buyer}购买一套存量住房，成交价为{money(extras['deal'])}，银行认可的评估价为"
            f"{money(extras['appraisal'])}，贷款成数为{_shares(case.args['loan_ratio'])}。"
        )

    def ask(self, case: Case, names: Names, field: str) -> str:
        return f"{names.buyer}最多可获得的贷款为"

    def working(self, case: Case, result: dict, field: str) -> str:
        args = case.args
        lower = "评估价" if case.extras["appraisal"] <= case.extras["deal"] else "成交价"
        return (
            f"贷款以评估价与成交价中的较低者为基数，本题较低的是{lower}：可贷金额={yuan(args['appraised_value'])}"
            f"×{percent(args['loan_ratio'])}={yuan(result['loan'])}元"
        )

    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        """The higher price as the base, and the other loan ratios the section states (八五成 beside 八成);
        never the stated 八成 read as 20%, which no reader does."""
        args, higher = case.args, case.extras["higher"]
        which = "评估价" if case.extras["appraisal"] > case.extras["deal"] else "成交价"
        others = [r for r in quoted if 0.5 <= r <= 0.9 and abs(r - args["loan_ratio"]) > 1e-9]
        return [
            Mistake(f"以较高的{which}作为基数", {**args, "appraised_value": higher}),
            *(Mistake(f"误按{_shares(r)}的贷款成数计算", {**args, "loan_ratio": r}) for r in others),
            *(
                Mistake(
                    f"以较高的{which}为基数，又误按{_shares(r)}的贷款成数计算",
                    {"appraised_value": higher, "loan_ratio": r},
                )
                for r in others
            ),
        ]


class DownPayment(Telling):
    calculator = "down_payment"
    fields = ("down_payment", "loan")
    quoted_about = ("首付",)

    def decides(self, case: Case) -> bool:
        return abs(case.args["ratio"] - LOWEST_DOWN_PAYMENT) < 1e-9  # only the least allowed is left untold

    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        return Case({**args, "price": scaled(args["price"], rng)}, {"owns": rng.random() < 0.5})

    def story(self, case: Case, names: Names, field: str) -> str:
        """A 灵活 buyer paying the least allowed is told so, not given the ratio: knowing the minimum (and
        that a second home no longer pays more) is what the case asks; a first or second home is told to
        tempt the learner who remembers the older, higher ratio of a second home."""
        args = case.args
        if names.flexible and abs(args["ratio"] - LOWEST_DOWN_PAYMENT) < 1e-9:
            home = "家庭名下已有一套住房" if case.extras.get("owns") else "家庭名下没有住房"
            return (
                f"{names.buyer}{home}，购买一套总价{money(args['price'])}的住房，所在城市未另行提高首付款比例"
                f"下限，{names.buyer}按商业性个人住房贷款的最低首付款比例支付首付款，其余申请商业贷款。"
            )
        return (
            f"{names.buyer}购买一套总价{money(args['price'])}的住房，首付款比例为{percent(args['ratio'])}，"
            "其余申请商业贷款。"
        )

    def ask(self, case: Case, names: Names, field: str) -> str:
        return (
            f"{names.buyer}应支付的首付款为" if field == "down_payment" else f"{names.buyer}需要申请的贷款为"
        )

    def working(self, case: Case, result: dict, field: str) -> str:
        args = case.args
        down = f"首付款={yuan(args['price'])}×{percent(args['ratio'])}={yuan(result['down_payment'])}元"
        if (
            abs(args["ratio"] - LOWEST_DOWN_PAYMENT) < 1e-9
        ):  # where the ratio comes from, first or second home
            down = (
                f"商业性个人住房贷款的最低首付款比例为{percent(args['ratio'])}，不区分首套和二套住房；{down}"
            )
        if field == "down_payment":
            return down
        return f"{down}，贷款额={yuan(args['price'])}−{yuan(result['down_payment'])}={yuan(result['loan'])}元"

    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        args = case.args
        other = "loan" if field == "down_payment" else "down_payment"
        why = "把贷款额当作了首付款" if field == "down_payment" else "把首付款当作了贷款额"
        return [Mistake(why, args, other)] + [
            Mistake(f"误按{percent(ratio)}的首付款比例计算", {**args, "ratio": ratio})
            for ratio in quoted
            if 0.1 <= ratio <= 0.8 and abs(ratio - args["ratio"]) > 1e-9
        ]


class ProvidentFundLoan(Telling):
    calculator = "provident_fund_loan"
    fields = ("loan",)

    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        varied = {**args, "balance_applicant": scaled(args["balance_applicant"], rng, 0.6, 1.6)}
        if args.get("balance_co_applicant"):
            varied["balance_co_applicant"] = scaled(args["balance_co_applicant"], rng, 0.6, 1.6)
        # the home bought, dear enough that the price less the down payment never binds: a limit the
        # stem left out would leave the key to an assumption (examiners struck that)
        raw = (varied["balance_applicant"] + (varied.get("balance_co_applicant") or 0)) * args["multiple"]
        share = rng.choice(_DOWN_SHARES)
        price = float(
            math.ceil(raw * max(1, args["year_coefficient"]) * 1.2 / (1 - share) / 100_000) * 100_000
        )
        down = float(round(Decimal(str(price)) * Decimal(str(share)), 2))
        return Case(varied, {"price": price, "down": down})

    def story(self, case: Case, names: Names, field: str) -> str:
        args = case.args
        cap = f"，最高贷款额度为{money(args['cap'])}" if args.get("cap") is not None else ""
        rule = f"当地规定可贷额度为账户余额的{args['multiple']:g}倍再乘以缴存年限系数"
        bought = case.extras.get("price")
        home = f"所购住房总价{money(bought)}，首付{money(case.extras['down'])}。" if bought else ""
        if args.get("balance_co_applicant"):
            return (
                f"{names.buyer}夫妇共同申请住房公积金贷款，{names.buyer}的账户余额为"
                f"{money(args['balance_applicant'])}，配偶的账户余额为{money(args['balance_co_applicant'])}。"
                f"{rule}（夫妻余额合并计算），二人的缴存年限系数为{args['year_coefficient']:g}{cap}。{home}"
            )
        return (
            f"{names.buyer}单独申请住房公积金贷款，账户余额为{money(args['balance_applicant'])}。{rule}，"
            f"其缴存年限系数为{args['year_coefficient']:g}{cap}。{home}"
        )

    def ask(self, case: Case, names: Names, field: str) -> str:
        who = f"{names.buyer}夫妇" if case.args.get("balance_co_applicant") else names.buyer
        return f"{who}可申请的公积金贷款额度为"

    def working(self, case: Case, result: dict, field: str) -> str:
        args = case.args
        co = args.get("balance_co_applicant") or 0
        raw = (args["balance_applicant"] + co) * args["multiple"] * args["year_coefficient"]
        balances = (
            f"({yuan(args['balance_applicant'])}+{yuan(co)})" if co else yuan(args["balance_applicant"])
        )
        text = f"可贷额度={balances}×{args['multiple']:g}×{args['year_coefficient']:g}={yuan(raw)}元"
        if args.get("cap") is not None and raw > args["cap"]:
            text += f"，超过最高额度，只能按{yuan(args['cap'])}元发放"
        extras = case.extras
        if extras.get("price"):
            rest = extras["price"] - extras["down"]
            text += (
                f"；房价扣除首付后为{yuan(extras['price'])}−{yuan(extras['down'])}={yuan(rest)}元，不构成限制"
            )
        return text

    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        args, found = case.args, []
        if args.get("balance_co_applicant"):
            found.append(Mistake("漏算了配偶（共同借款人）的账户余额", {**args, "balance_co_applicant": 0}))
        if args["year_coefficient"] != 1:
            found.append(Mistake("漏乘了缴存年限系数", {**args, "year_coefficient": 1}))
        if args.get("cap") is not None:
            found.append(Mistake("忽略了最高贷款额度的限制", {**args, "cap": None}))
        return found


def _asked_year(args: Args, today: dt.date) -> int:
    """The example's year, unless it lies ahead of today."""
    return min(args["year"], today.year)


class HouseAge(Telling):
    calculator = "house_age"
    fields = ("age",)

    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        year = _asked_year(args, today)
        completion = year - rng.randint(12, 32)
        bought = completion + rng.randint(3, 9)
        granted = completion - rng.randint(1, 3)
        return Case({"completion_year": completion, "year": year}, {"bought": bought, "granted": granted})

    def story(self, case: Case, names: Names, field: str) -> str:
        args, extras = case.args, case.extras
        return (
            f"{names.seller}名下的住房位于一栋{args['completion_year']}年竣工的住宅楼内，该楼所在宗地的建设用地使用权"
            f"于{extras['granted']}年出让，{names.seller}于{extras['bought']}年购入该房，{args['year']}年委托出售。"
        )

    def ask(self, case: Case, names: Names, field: str) -> str:
        return "这套住房的房龄为"

    def working(self, case: Case, result: dict, field: str) -> str:
        args = case.args
        return f"房龄=交易年份−竣工年份={args['year']}−{args['completion_year']}={result['age']}年"

    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        args, extras = case.args, case.extras
        return [
            Mistake("把业主的持有年限当作了房龄", {**args, "completion_year": extras["bought"]}),
            Mistake("从土地出让年份起算了房龄", {**args, "completion_year": extras["granted"]}),
            Mistake("把竣工当年也算作了1年", {**args, "completion_year": args["completion_year"] - 1}),
        ]


class MaxLoanTerm(Telling):
    calculator = "max_loan_term"
    fields = ("years",)

    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        year = _asked_year(args, today)
        return Case(
            {
                **args,
                "year": year,
                "completion_year": year - rng.randint(2, 35),
                "borrower_age": rng.randint(25, 55),
            }
        )

    def story(self, case: Case, names: Names, field: str) -> str:
        args = case.args
        bought = f"{args['year']}年，{args['borrower_age']}岁的{names.buyer}"
        bought += f"购买一套{args['completion_year']}年竣工的住房"
        if args.get("rule", "commercial") == "commercial":
            return (
                f"{bought}，申请商业贷款。银行要求贷款期限不超过30年、房龄与贷款期限之和不超过50年、"
                "借款人年龄与贷款期限之和不超过70年。"
            )
        return (
            f"{bought}，申请住房公积金贷款。公积金中心要求贷款期限不超过30年、"
            "借款人年龄与贷款期限之和不超过70年。"
        )

    def ask(self, case: Case, names: Names, field: str) -> str:
        return f"{names.buyer}的最长贷款期限为"

    def working(self, case: Case, result: dict, field: str) -> str:
        args = case.args
        age = args["year"] - args["completion_year"]
        by_age = 70 - args["borrower_age"]
        if args.get("rule", "commercial") == "commercial":
            return (
                f"房龄={args['year']}−{args['completion_year']}={age}年；期限上限为30年，按房龄规则为50−{age}"
                f"={50 - age}年，按年龄规则为70−{args['borrower_age']}={by_age}年，三者取最小值，最长可贷"
                f"{result['years']}年"
            )
        return (
            f"期限上限为30年，按年龄规则为70−{args['borrower_age']}={by_age}年，取较小者，"
            f"最长可贷{result['years']}年"
        )

    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        args = case.args
        if args.get("rule", "commercial") != "commercial":
            return [Mistake("把商业贷款的房龄限制套用到了公积金贷款上", {**args, "rule": "commercial"})]
        return [
            Mistake("只考虑了借款人年龄的限制", {**args, "completion_year": args["year"]}),
            Mistake("只考虑了房龄的限制", {**args, "borrower_age": 18}),
            Mistake("只考虑了30年的期限上限", {**args, "completion_year": args["year"], "borrower_age": 18}),
            Mistake(
                "把房龄当作了可贷年限",
                {"completion_year": args["completion_year"], "year": args["year"]},
                "age",
                "house_age",
            ),
        ]


class LandRemainingYears(Telling):
    calculator = "land_remaining_years"
    fields = ("remaining",)

    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        year = _asked_year(args, today)
        total = LAND_USE_TERMS[args["use"]] if args.get("use") else args["total_years"]
        # land-use rights have been granted for a price since about 1990
        return Case(
            {
                **args,
                "year": year,
                "grant_year": year - rng.randint(5, max(5, min(total - 5, year - _FIRST_GRANT))),
            }
        )

    def story(self, case: Case, names: Names, field: str) -> str:
        args = case.args
        if args.get("use"):
            place = PLACES.get(args["use"]) or f"一处{value_words(args['use'])}用途的房产"
            return (
                f"{names.buyer}打算购买{place}，其所在宗地的建设用地使用权于{args['grant_year']}年以出让方式取得，"
                "出让年限为该用途的法定最高年限。"
            )
        return (
            f"{names.buyer}打算购买的房产所在宗地于{args['grant_year']}年以出让方式取得，出让合同约定的使用年限为"
            f"{args['total_years']}年。"
        )

    def ask(self, case: Case, names: Names, field: str) -> str:
        return f"截至{case.args['year']}年，该宗地土地使用权的剩余年限为"

    def working(self, case: Case, result: dict, field: str) -> str:
        args = case.args
        used = args["year"] - args["grant_year"]
        total = result["total_years"]
        which = (
            f"{LAND_USES.get(args['use'], value_words(args['use']))}用地出让最高年限"
            if args.get("use")
            else "出让合同约定的年限"
        )
        return (
            f"{which}为{total}年，已使用{args['year']}−{args['grant_year']}={used}年，剩余年限={total}−{used}"
            f"={result['remaining']}年"
        )

    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        args = case.args
        total = LAND_USE_TERMS[args["use"]] if args.get("use") else args["total_years"]
        found = [
            Mistake(
                f"误按{label}用地{LAND_USE_TERMS[use]}年的最高年限计算",
                {**args, "use": use, "total_years": None},
            )
            for use, label in LAND_USES.items()
            if LAND_USE_TERMS[use] != total
        ]
        used = {"completion_year": args["grant_year"], "year": args["year"]}
        found.append(Mistake("把已使用的年限当作了剩余年限", used, "age", "house_age"))
        return found


def _rooms(rng: random.Random) -> dict[str, float]:
    wall = rng.choice((6.0, 7.0, 8.0, 9.0, 10.0))
    return {
        "use": float(rng.randint(55, 100)) + rng.choice((0.0, 0.5)),
        "wall": wall,
        "balcony": rng.choice([b for b in (3.0, 4.0, 5.0, 6.0) if b != wall]),
        "shared": float(rng.randint(10, 26)) + rng.choice((0.0, 0.5)),
    }


def _rooms_text(rooms: dict[str, float]) -> str:
    return (
        f"套内使用面积{rooms['use']:g}平方米、套内墙体面积{rooms['wall']:g}平方米、阳台建筑面积"
        f"{rooms['balcony']:g}平方米"
    )


def _inner_working(rooms: dict[str, float], inner: float) -> str:
    return f"套内建筑面积={rooms['use']:g}+{rooms['wall']:g}+{rooms['balcony']:g}={inner:g}平方米"


class BuildingArea(Telling):
    calculator = "building_area"
    fields = ("area",)

    def decides(self, case: Case) -> bool:
        return False  # a sum of the areas the record lists: nothing in a story could make it a case

    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        rooms = _rooms(rng)
        inner = rooms["use"] + rooms["wall"] + rooms["balcony"]
        return Case({"inner_area": inner, "shared_area": rooms["shared"]}, rooms)

    def story(self, case: Case, names: Names, field: str) -> str:
        return (
            f"{names.seller}委托出售的住宅，不动产登记资料显示其{_rooms_text(case.extras)}，分摊的共有建筑面积"
            f"{case.extras['shared']:g}平方米。"
        )

    def ask(self, case: Case, names: Names, field: str) -> str:
        return "该住宅的建筑面积为"

    def working(self, case: Case, result: dict, field: str) -> str:
        args = case.args
        return (
            f"{_inner_working(case.extras, args['inner_area'])}，建筑面积=套内建筑面积+分摊的共有建筑面积"
            f"={args['inner_area']:g}+{args['shared_area']:g}={result['area']:g}平方米"
        )

    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        args, rooms = case.args, case.extras
        return [
            Mistake("漏加了分摊的共有建筑面积", {**args, "shared_area": 0}),
            Mistake("漏加了套内墙体面积", {**args, "inner_area": args["inner_area"] - rooms["wall"]}),
            Mistake("漏加了阳台建筑面积", {**args, "inner_area": args["inner_area"] - rooms["balcony"]}),
        ]


class EfficiencyRate(Telling):
    calculator = "efficiency_rate"
    fields = ("rate",)

    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        rooms = _rooms(rng)
        inner = rooms["use"] + rooms["wall"] + rooms["balcony"]
        return Case({"inner_area": inner, "building_area": inner + rooms["shared"]}, rooms)

    def story(self, case: Case, names: Names, field: str) -> str:
        return (
            f"{names.seller}委托出售的住宅建筑面积为{case.args['building_area']:g}平方米，其中"
            f"{_rooms_text(case.extras)}。"
        )

    def ask(self, case: Case, names: Names, field: str) -> str:
        return "该住宅的得房率为"

    def working(self, case: Case, result: dict, field: str) -> str:
        args = case.args
        return (
            f"{_inner_working(case.extras, args['inner_area'])}，得房率=套内建筑面积÷建筑面积="
            f"{args['inner_area']:g}÷{args['building_area']:g}={percent(result['rate'])}"
        )

    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        args, rooms = case.args, case.extras
        return [
            Mistake("只用套内使用面积计算", {**args, "inner_area": rooms["use"]}),
            Mistake("漏加了套内墙体面积", {**args, "inner_area": args["inner_area"] - rooms["wall"]}),
            Mistake("漏加了阳台建筑面积", {**args, "inner_area": args["inner_area"] - rooms["balcony"]}),
        ]


class PlotRatio(Telling):
    calculator = "plot_ratio"
    fields = ("ratio",)

    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        """Buildings of one height on a share of the land: the above-ground area is the footprint times the
        floors, so a 灵活 case can tell the floors and leave the area to the learner."""
        for _ in range(50):
            land = float(rng.randrange(20_000, 80_001, 2_000))
            floors = rng.choice((6, 8, 9, 10, 11, 12, 15, 18))
            ratio = rng.choice((1.5, 1.8, 2.0, 2.2, 2.4, 2.5, 2.7, 3.0))
            footprint = land * ratio / floors
            if 0.15 <= ratio / floors <= 0.35 and footprint == round(footprint / 100) * 100:
                above = footprint * floors
                under = float(round(above * rng.uniform(0.15, 0.3) / 1_000) * 1_000)
                extras = {"under": under, "footprint": footprint, "floors": floors}
                return Case({"total_building_area": above, "land_area": land}, extras)
        return None

    def story(self, case: Case, names: Names, field: str) -> str:
        args, extras = case.args, case.extras
        if names.flexible:
            return (
                f"{names.buyer}看中的住宅小区用地面积为{args['land_area']:g}平方米，小区内各栋住宅楼地上均为"
                f"{extras['floors']}层、各层建筑面积相同，建筑基底总面积为{extras['footprint']:g}平方米，另有"
                f"地下车库建筑面积{extras['under']:g}平方米。"
            )
        return (
            f"{names.buyer}看中的住宅小区用地面积为{args['land_area']:g}平方米，地上总建筑面积为"
            f"{args['total_building_area']:g}平方米，地下建筑面积为{extras['under']:g}平方米，建筑基底总面积为"
            f"{extras['footprint']:g}平方米。"
        )

    def first_step(self, case: Case, names: Names, field: str) -> str:
        if not names.flexible:
            return ""
        extras = case.extras
        return (
            f"地上总建筑面积=建筑基底总面积×地上层数={extras['footprint']:g}×{extras['floors']}"
            f"={case.args['total_building_area']:g}平方米；"
        )

    def ask(self, case: Case, names: Names, field: str) -> str:
        return "该小区的容积率为"

    def working(self, case: Case, result: dict, field: str) -> str:
        args = case.args
        return (
            f"容积率=地上总建筑面积÷用地面积={args['total_building_area']:g}÷{args['land_area']:g}"
            f"={result['ratio']:g}，地下建筑面积不计入"
        )

    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        args, extras = case.args, case.extras
        above, land = args["total_building_area"], args["land_area"]
        return [
            Mistake("把地下建筑面积也计入了容积率", {**args, "total_building_area": above + extras["under"]}),
            Mistake("把用地面积与建筑面积颠倒相除", {"total_building_area": land, "land_area": above}),
            Mistake(
                "把建筑密度（建筑基底总面积÷用地面积）当作了容积率",
                {**args, "total_building_area": extras["footprint"]},
            ),
        ]


class EarnestMoney(Telling):
    calculator = "earnest_money"
    fields = ("refund",)

    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        if args["defaulting_party"] == "none":
            return None
        price = scaled(args["contract_price"], rng)
        earnest = float(round(price * rng.uniform(0.22, 0.3) / 10_000) * 10_000)
        return Case({**args, "contract_price": price, "earnest": earnest})

    def story(self, case: Case, names: Names, field: str) -> str:
        args = case.args
        signed = (
            f"{names.buyer}与{names.seller}签订房屋买卖合同，约定总价款{money(args['contract_price'])}，"
            f"{names.buyer}向{names.seller}交付定金{money(args['earnest'])}。"
        )
        if args["defaulting_party"] == "recipient":
            return f"{signed}后{names.seller}违约，将房屋另售他人，{names.buyer}选择适用定金罚则。"
        return f"{signed}后{names.buyer}违约，放弃购买，{names.seller}选择适用定金罚则。"

    def ask(self, case: Case, names: Names, field: str) -> str:
        if case.args["defaulting_party"] == "recipient":
            return f"{names.seller}应向{names.buyer}返还"
        return f"{names.buyer}可以收回的款项为"

    def working(self, case: Case, result: dict, field: str) -> str:
        args = case.args
        excess = args["earnest"] - result["effective_earnest"]
        cap = (
            f"定金不得超过合同标的额的20%，即{yuan(args['contract_price'])}×20%={yuan(result['cap'])}元，"
            f"超出的{yuan(excess)}元不产生定金效力，只是普通预付款"
        )
        if args["defaulting_party"] == "recipient":
            doubled = f"{yuan(result['cap'])}×2+{yuan(excess)}={yuan(result['refund'])}元"
            return f"{cap}；收受定金方违约，应双倍返还定金并退还超出部分：{doubled}"
        return f"{cap}；交付定金方违约，无权收回定金，只能收回超出部分{yuan(result['refund'])}元"

    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        args = case.args
        other = "payer" if args["defaulting_party"] == "recipient" else "recipient"
        return [
            Mistake("忽略了定金不得超过合同标的额20%的限制", {**args, "contract_price": args["earnest"] * 5}),
            Mistake("没有适用定金罚则，只退还了已付款项", {**args, "defaulting_party": "none"}),
            Mistake("弄反了违约方", {**args, "defaulting_party": other}),
        ]


class LandGrantFeeAffordable(Telling):
    calculator = "land_grant_fee_affordable"
    fields = ("fee",)

    def vary(self, args: Args, rng: random.Random, today: dt.date) -> Case | None:
        if args["kind"] != 1:
            return None
        price = scaled(args["price"], rng)
        original = float(round(price * rng.uniform(0.3, 0.5) / 10_000) * 10_000)
        early = args.get("bought_before_2008_04_11", False)
        bought = rng.randint(2002, 2007) if early else rng.randint(2009, 2016)
        varied = {**args, "price": price, "original_price": original, "bought_before_2008_04_11": early}
        return Case(varied, {"bought": bought, "sold": today.year})

    def story(self, case: Case, names: Names, field: str) -> str:
        args, extras = case.args, case.extras
        return (
            f"{names.seller}名下的一套北京一类经济适用住房于{extras['bought']}年购入，原购房价款"
            f"{money(args['original_price'])}，{extras['sold']}年以{money(args['price'])}成交出售。"
        )

    def ask(self, case: Case, names: Names, field: str) -> str:
        return f"{names.seller}应缴纳的土地收益等价款为"

    def working(self, case: Case, result: dict, field: str) -> str:
        args = case.args
        if args["bought_before_2008_04_11"]:
            return (
                f"2008年4月11日前购买的一类经济适用住房，按成交价的10%缴纳：{yuan(args['price'])}×10%"
                f"={yuan(result['fee'])}元"
            )
        return (
            f"2008年4月11日及以后购买的，按成交价与原购房价差额的70%缴纳：({yuan(args['price'])}−"
            f"{yuan(args['original_price'])})×70%={yuan(result['fee'])}元"
        )

    def mistakes(self, case: Case, field: str, quoted: tuple[float, ...]) -> list[Mistake]:
        args = case.args
        early = args["bought_before_2008_04_11"]
        found = [Mistake("误按二类经济适用住房成交价的3%计算", {**args, "kind": 2})]
        if early:
            found.append(
                Mistake(
                    "误按2008年4月11日以后购房的规定，以差额的70%计算",
                    {**args, "bought_before_2008_04_11": False},
                )
            )
            found.append(
                Mistake(
                    "误以成交价全额乘以70%", {**args, "bought_before_2008_04_11": False, "original_price": 0}
                )
            )
        else:
            found.append(
                Mistake(
                    "误按2008年4月11日前购房的规定，以成交价的10%计算",
                    {**args, "bought_before_2008_04_11": True},
                )
            )
            found.append(Mistake("没有扣除原购房价款，以成交价全额乘以70%", {**args, "original_price": 0}))
        return found


TELLINGS: dict[str, Telling] = {
    telling.calculator: telling
    for telling in (
        DeedTax(),
        ResaleVat(),
        PersonalIncomeTax(),
        TransactionCosts(),
        RegistrationFee(),
        EqualInstallment(),
        EqualPrincipal(),
        LoanAmount(),
        DownPayment(),
        ProvidentFundLoan(),
        HouseAge(),
        MaxLoanTerm(),
        LandRemainingYears(),
        BuildingArea(),
        EfficiencyRate(),
        PlotRatio(),
        EarnestMoney(),
        LandGrantFeeAffordable(),
    )
}
