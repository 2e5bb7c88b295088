"""A light restatement of an option — the same fact in other words, as two options of a careless paper state
it (D8): list items reordered, a word for its synonym, a figure in another notation (20万元 as 200000元,
十五日 as 15日). Never the identical text."""

from __future__ import annotations

import re
from decimal import Decimal

from calc.reading import parse_number

# Words and the plainer or more formal word a paper uses for the same thing.
_SYNONYMS: tuple[tuple[str, str], ...] = (
    ("应当", "应"),
    ("必须", "须"),
    ("不得", "不能"),
    ("可以", "可"),
    ("或者", "或"),
    ("以及", "和"),
    ("并且", "且"),
    ("取得", "获得"),
    ("缴纳", "交纳"),
    ("需要", "需"),
    ("已经", "已"),
    ("按照", "依照"),
    ("根据", "依据"),
    ("全部", "所有"),
)
_CN_DIGITS = "零一二三四五六七八九"
# Three or more listed items: the first two change places ("商业、旅游、娱乐用地" → "旅游、商业、娱乐用地").
_LIST = re.compile(r"([\u4e00-\u9fff]{1,8})、([\u4e00-\u9fff]{1,8})(?=、)")
_TEN_THOUSANDS = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)万元")
_GROUPED = re.compile(r"(?<![\d.])\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_COUNTED = re.compile(r"(?<![\d.年月])(\d{1,2})(日|天|个月|年|个工作日)(?![\d])")
_CN_COUNTED = re.compile(r"(?<![第一二三四五六七八九十])([一二三四五六七八九十]{1,3})(日|天|个月|个工作日)")


def _chinese(value: int, unit: str) -> str:
    """1–99 written out as a paper writes a period: 十五日, 三十日, 两年."""
    if value == 2 and unit != "日":
        return "两"
    tens, units = divmod(value, 10)
    head = "" if tens == 0 else ("十" if tens == 1 else _CN_DIGITS[tens] + "十")
    return head + (_CN_DIGITS[units] if units else "")


def _in_words(match: re.Match[str]) -> str:
    value, unit = int(match.group(1)), match.group(2)
    return _chinese(value, unit) + unit if 0 < value < 100 else match.group()


def _figures(text: str) -> str:
    """万元 in 元, 2,700 as 2700; a period in Chinese numerals if the option writes it in digits, else in
    digits."""
    text = _TEN_THOUSANDS.sub(lambda m: f"{int(Decimal(m.group(1)) * 10_000)}元", text)
    text = _GROUPED.sub(lambda m: m.group().replace(",", ""), text)
    if _COUNTED.search(text):
        return _COUNTED.sub(_in_words, text)
    return _CN_COUNTED.sub(lambda m: f"{parse_number(m.group(1))}{m.group(2)}", text)


def restate(option: str) -> str | None:
    """The option restated, or None when none of the restatements applies."""
    text = _LIST.sub(lambda m: f"{m.group(2)}、{m.group(1)}", option, count=1)
    for word, synonym in _SYNONYMS:
        if word in text:
            text = text.replace(word, synonym, 1)
            break
    text = _figures(text)
    return text if text != option else None
