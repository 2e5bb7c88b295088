"""The dated policy table: every tax rule that changed over time, with the day it took effect.

A rule stays in force until the next rule of the same table starts, so older transaction dates keep their
older rules. A date before a table's first rule is refused: the table does not know what applied then, and a
guess would put a wrong number into an exam question. Each rule cites the announcement it comes from.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TypeVar

from calc.errors import CalcError

POLICY_START = dt.date(2016, 2, 22)

# 北上广深 had their own deed-tax and VAT rules before 2024-12-01; English spellings are accepted too.
TIER1_CITIES = frozenset({"北京", "上海", "广州", "深圳", "beijing", "shanghai", "guangzhou", "shenzhen"})

# The two education levies on VAT, as fractions of the VAT (the city maintenance rate is the caller's input).
EDUCATION_SURCHARGE = Decimal("0.03")
LOCAL_EDUCATION_SURCHARGE = Decimal("0.02")


@dataclass(frozen=True)
class DatedRule:
    start: dt.date
    source: str


@dataclass(frozen=True)
class DeedTaxRule(DatedRule):
    """Deed-tax rates for an individual buyer; a home of at most `area_threshold` ㎡ gets the small rate."""

    area_threshold: Decimal
    first_home: tuple[Decimal, Decimal]  # (small, large)
    second_home: tuple[Decimal, Decimal]
    second_home_tier1: Decimal | None  # 北上广深 second home; None when they follow the national rates
    third_home: Decimal
    non_residential: Decimal


@dataclass(frozen=True)
class ResaleVatRule(DatedRule):
    """VAT on an individual's resale: `rate` on the VAT-inclusive price if held under `exempt_years`."""

    rate: Decimal
    exempt_years: Decimal
    tier1_non_ordinary_on_gain: bool  # 北上广深 non-ordinary homes past exempt_years pay `rate` on the gain
    non_residential_gain_rate: Decimal | None  # None: the table has no rule for non-residential property


@dataclass(frozen=True)
class SurchargeRule(DatedRule):
    """`share` of the statutory surcharge rates an individual (small-scale taxpayer) pays."""

    share: Decimal


DEED_TAX_RULES: tuple[DeedTaxRule, ...] = (
    DeedTaxRule(
        start=POLICY_START,
        source="财税〔2016〕23号",
        area_threshold=Decimal("90"),
        first_home=(Decimal("0.01"), Decimal("0.015")),
        second_home=(Decimal("0.01"), Decimal("0.02")),
        second_home_tier1=Decimal("0.03"),
        third_home=Decimal("0.03"),
        non_residential=Decimal("0.03"),
    ),
    DeedTaxRule(
        start=dt.date(2024, 12, 1),
        source="财政部 税务总局 住房城乡建设部公告2024年第16号",
        area_threshold=Decimal("140"),
        first_home=(Decimal("0.01"), Decimal("0.015")),
        second_home=(Decimal("0.01"), Decimal("0.02")),
        second_home_tier1=None,
        third_home=Decimal("0.03"),
        non_residential=Decimal("0.03"),
    ),
)

RESALE_VAT_RULES: tuple[ResaleVatRule, ...] = (
    ResaleVatRule(
        start=dt.date(2016, 5, 1),
        source="财税〔2016〕36号",
        rate=Decimal("0.05"),
        exempt_years=Decimal("2"),
        tier1_non_ordinary_on_gain=True,
        non_residential_gain_rate=Decimal("0.05"),
    ),
    ResaleVatRule(
        start=dt.date(2024, 12, 1),
        source="财政部 税务总局 住房城乡建设部公告2024年第16号",
        rate=Decimal("0.05"),
        exempt_years=Decimal("2"),
        tier1_non_ordinary_on_gain=False,
        non_residential_gain_rate=Decimal("0.05"),
    ),
    ResaleVatRule(
        start=dt.date(2026, 1, 1),
        source="财政部 税务总局公告2025年第17号",
        rate=Decimal("0.03"),
        exempt_years=Decimal("2"),
        tier1_non_ordinary_on_gain=False,
        non_residential_gain_rate=None,
    ),
)

SURCHARGE_RULES: tuple[SurchargeRule, ...] = (
    SurchargeRule(start=POLICY_START, source="城市维护建设税、教育费附加、地方教育附加", share=Decimal("1")),
    SurchargeRule(start=dt.date(2023, 1, 1), source="财政部 税务总局公告2023年第12号", share=Decimal("0.5")),
    SurchargeRule(
        start=dt.date(2028, 1, 1), source="公告2023年第12号 relief ended 2027-12-31", share=Decimal("1")
    ),
)

Rule = TypeVar("Rule", bound=DatedRule)


def in_force(rules: Sequence[Rule], on: dt.date, topic: str) -> Rule:
    """The rule of `rules` (sorted by start) that applies on `on`; CalcError on `date` when none does yet."""
    current = [rule for rule in rules if rule.start <= on]
    if not current:
        first = rules[0]
        raise CalcError(
            f"{on.isoformat()} is before {first.start.isoformat()}, when the earliest {topic} rule in the "
            f"policy table ({first.source}) took effect; give a date on or after it",
            field="date",
        )
    return current[-1]


def is_tier1(city: str | None) -> bool:
    """Whether `city` is one of 北上广深 ("北京", "北京市" and "Beijing" all count)."""
    if not city:
        return False
    return city.strip().lower().removesuffix("市") in TIER1_CITIES
