"""Quantities as textbooks write them: "140平方米", "1%", "满五年", "30个工作日", "1,200,000元", "1%至3%".

A quantity keeps its text as written (a question quotes it) and a canonical unit (㎡ and 平方米 are one
unit, so sibling values can be compared). Percentages keep the number as written: "1.5%" is 1.5 with unit
"%". Calendar dates, document numbers and ordinals are not quantities: "2024年12月1日" is no period of
2024 years, "第二套" no count, so they are masked before matching.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from calc.reading import chinese_number as read_numeral

_FEW = frozenset({"一", "两", "二"})

# Longest spelling first so "个工作日" wins over "日" and "平方米" over "米".
_UNITS: dict[str, str] = {
    "个工作日": "工作日",
    "工作日": "工作日",
    "个百分点": "个百分点",
    "平方米": "平方米",
    "平米": "平方米",
    "㎡": "平方米",
    "m²": "平方米",
    "个月": "个月",
    "周岁": "岁",
    "小时": "小时",
    "万元": "万元",
    "亿元": "亿元",
    "元": "元",
    "年": "年",
    "日": "日",
    "天": "日",
    "岁": "岁",
    "倍": "倍",
    "层": "层",
    "米": "米",
    "%": "%",
    "％": "%",
    "‰": "‰",
    "成": "成",
}
# 成 is a unit only as a share ("七成"), never the first character of 成交, 成本, 成员 …
_UNIT_PATTERN = (
    "|".join(re.escape(unit) for unit in _UNITS if unit != "成") + r"|成(?![交本员立功熟果就品为])"
)
_ARABIC = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_CHINESE = r"[零〇一二两三四五六七八九十百千]+"
# A Chinese numeral glued to a preceding word is part of that word (唯一, 统一, 第二, 每一).
_CN_GUARD = r"(?<![第唯统单同每之万任逐其])"
_RANGE = r"\s*(?:至|到|~|～|-|—|－)\s*"
_QUANTITY = re.compile(
    rf"(?P<low>{_ARABIC}|{_CN_GUARD}{_CHINESE})(?:(?P<low_unit>{_UNIT_PATTERN})?{_RANGE}"
    rf"(?P<high>{_ARABIC}|{_CHINESE}))?\s*(?P<unit>{_UNIT_PATTERN})"
    r"(?<!年(?=[期度代级份底初末报]))"  # 5年期, 上一年度: a name, not a period
)
_MASKS = re.compile(
    r"(?:19|20)\d{2}\s*年(?:\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*日)?)?"  # calendar dates
    r"|\d{1,2}\s*月\s*\d{1,2}\s*日"
    r"|[〔\[［(（]\s*(?:19|20)\d{2}\s*[〕\]］)）]\s*\d+\s*号"  # 财税〔2016〕23号
    r"|第\s*(?:\d+|[零〇一二两三四五六七八九十百千]+)\s*\S"  # ordinals: 第二套, 第3层, 第16号
    r"|《[^》]*》"
    r"|每(?:月|年)\s*\d{1,2}\s*[日月]"  # 每月20日: a day of the month
)


@dataclass(frozen=True)
class Quantity:
    """One number with its unit; `start`/`end` locate `text` in the string it was found in."""

    value: float
    unit: str
    text: str
    start: int
    end: int
    range_part: str = ""  # "low" / "high" for the two ends of "1%至3%"


def chinese_number(text: str) -> float | None:
    """一百四十 → 140, 十五 → 15, 两 → 2; None for anything that is not a plain Chinese numeral ("一二" is a
    list of digits in prose, not a number)."""
    value = read_numeral(text, digit_runs=False)
    return None if value is None else float(value)


def number(text: str) -> float | None:
    """An Arabic ("1,200,000", "1.5") or Chinese ("三") number; None when `text` is neither."""
    cleaned = text.replace(",", "").strip()
    try:
        return float(cleaned)
    except ValueError:
        return chinese_number(cleaned)


def canonical_unit(unit: str) -> str:
    return _UNITS.get(unit, unit)


def _masked(text: str) -> str:
    """Masked spans become spaces, so offsets into the original text stay valid."""
    return _MASKS.sub(lambda m: " " * len(m.group()), text)


@lru_cache(maxsize=8192)
def find_quantities(text: str) -> tuple[Quantity, ...]:
    """Every quantity of `text`; the extractors ask about the same clauses many times, hence the cache."""
    found: list[Quantity] = []
    for match in _QUANTITY.finditer(_masked(text)):
        unit = canonical_unit(match["unit"])
        low = number(match["low"])
        if low is None or (unit == "层" and match["low"] in _FEW):
            continue  # "上下两层楼面", "一层楼": a description, not a count
        if match["high"] is None:
            found.append(Quantity(low, unit, text[match.start() : match.end()], match.start(), match.end()))
            continue
        high = number(match["high"])
        if high is None or (match["low_unit"] and canonical_unit(match["low_unit"]) != unit):
            continue
        low_end = match.end("low_unit") if match["low_unit"] else match.end("low")
        # "1至3%": the low end is 1% although its text, kept verbatim, is "1"
        found.append(Quantity(low, unit, text[match.start() : low_end], match.start(), low_end, "low"))
        start = match.start("high")
        found.append(Quantity(high, unit, text[start : match.end()], start, match.end(), "high"))
    return tuple(found)


def plain_quantity(text: str) -> Quantity | None:
    """The quantity when `text` is nothing but one (a table cell "1%", "70"), else None."""
    stripped = text.strip()
    found = find_quantities(stripped)
    if len(found) == 1 and found[0].start == 0 and found[0].end == len(stripped):
        return found[0]
    return None


def format_value(value: float) -> str:
    """1.0 → "1", 1.5 → "1.5", 1200000.0 → "1200000": how a value reads inside a sentence."""
    return f"{value:.10g}" if value != int(value) else str(int(value))
