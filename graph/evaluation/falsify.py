"""Falsifying a true statement the way the field's papers do, for seeded defects: a figure replaced by a
sibling figure of the same slice or table (居住70年 → 50年), a comparator turned round (以上 → 以下,
不超过 → 超过), or a modal turned round (应当 → 无需, 不得 → 可以). Never an arbitrary edit (15 → 16)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from calc.reading import parse_number

_CN = "零〇一二两三四五六七八九十百千"
_UNIT_WORDS = "个工作日|工作日|个月|平方米|㎡|万元|亿元|元|年|日|天|%|％|倍|层|米|岁|成|周"
_AMOUNT = rf"\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?|[{_CN}]+"
# A figure followed by 期 names a product ("5年期LPR"), not a threshold.
_FIGURE = re.compile(rf"(?<![\d.,第{_CN}])(?P<num>{_AMOUNT})(?P<unit>{_UNIT_WORDS})(?!期)")
# One spelling per unit, so that 15天 and 三十日 are figures of one kind.
_SAME_UNIT = {"天": "日", "平方米": "㎡", "％": "%", "个工作日": "工作日"}
# A figure that bounds from below may only move down to become false ("满2年免征" holds at 满4年), one that
# bounds from above only up ("15日内起诉" holds at 10日).
_LOWER_BEFORE = ("不低于", "不少于", "超过", "高于", "至少", "满")
_UPPER_BEFORE = (
    "不得超过",
    "不超过",
    "不高于",
    "不满",
    "未满",
    "不足",
    "低于",
    "少于",
    "最高",
    "最多",
    "最长",
)
_LOWER_AFTER = ("及以上", "以上")
_UPPER_AFTER = ("及以下", "以下", "以内", "之内", "内")
# What may stand beside the figure of an option that is only a figure.
_BESIDE = re.compile(
    r"[\s（）()含约]|" + "|".join((*_LOWER_BEFORE, *_UPPER_BEFORE, *_LOWER_AFTER, *_UPPER_AFTER))
)
# Comparators and their opposites. A comparator counts only where it bounds a figure: next to a number.
_COMPARATORS = {
    "不超过": "超过",
    "超过": "不超过",
    "不低于": "低于",
    "低于": "不低于",
    "不少于": "少于",
    "少于": "不少于",
    "不满": "满",
    "满": "不满",
    "及以上": "及以下",
    "及以下": "及以上",
    "以上": "以下",
    "以下": "以上",
}
_BEFORE_FIGURE = re.compile(
    rf"(?<![未不已])(?<!不得)(不超过|超过|不低于|低于|不少于|少于|不满|满)(?=\s*[\d{_CN}])"
)
_AFTER_FIGURE = re.compile(rf"(?<=[\d{_CN}年月日元%㎡米层岁])(及以上|及以下|以上|以下)")
# Modals and the opposite a falsifier puts in their place; an obligation is denied (应当 → 无需) rather
# than forbidden, which reads as an exam statement does.
_MODALS = {"应当": "无需", "必须": "无需", "不得": "可以", "可以": "不得", "无需": "应当", "无须": "应当"}
_MODAL = re.compile(r"(?<![相不])(应当|必须|不得|可以|无需|无须)(?!事人)")
# A modal before a negation would make a doubled negation ("无需不予登记"), not a false rule.
_NEGATED = re.compile(r"^\s*[不未无非没]")


@dataclass(frozen=True)
class Figure:
    text: str
    value: float
    unit: str
    start: int
    end: int


@dataclass(frozen=True)
class Falsehood:
    """`kind` is value, comparator or modal; `was` and `now` the words changed."""

    text: str
    kind: str
    was: str
    now: str


def figures(text: str) -> list[Figure]:
    """Figures with a unit, dates left out (2010年, 9月24日 and 1日 of a date are not thresholds)."""
    found = []
    for match in _FIGURE.finditer(text):
        number, unit = match["num"], match["unit"]
        value = parse_number(number)
        if value is None:
            continue
        is_year = unit == "年" and len(number) == 4 and number.startswith(("19", "20"))
        is_day = unit == "日" and text[max(0, match.start() - 1) : match.start()] == "月"
        if is_year or is_day:
            continue
        found.append(
            Figure(match.group(), float(value), _SAME_UNIT.get(unit, unit), match.start(), match.end())
        )
    return found


def only_figure(text: str) -> bool:
    """The text is a figure and nothing else but its bound ("50%", "不超过20%", "3年以上（含）")."""
    rest = _FIGURE.sub("", text, count=1)
    return len(figures(text)) == 1 and not _BESIDE.sub("", rest)


def _direction(text: str, figure: Figure) -> str:
    before, after = text[max(0, figure.start - 4) : figure.start], text[figure.end : figure.end + 3]
    if before.endswith(_UPPER_BEFORE) or after.startswith(_UPPER_AFTER):
        return "up"
    if before.endswith(_LOWER_BEFORE) or after.startswith(_LOWER_AFTER):
        return "down"
    return ""


def _of_unit(texts: Iterable[str], figure: Figure, seen: set[float]) -> list[Figure]:
    """Figures of the texts in the figure's unit with a value not yet `seen` (each value once)."""
    found = []
    for text in texts:
        for other in figures(text):
            if other.unit == figure.unit and other.value not in seen and other.value > 0:
                seen.add(other.value)
                found.append(other)
    return found


def _siblings(figure: Figure, listed: Iterable[str], material: Iterable[str]) -> list[Figure]:
    """Other values of the figure's unit: those `listed` as its siblings in their order, then those of the
    material, the closest in size first (a 10万元 trap for 12万元, not 80元)."""
    seen = {figure.value}
    first = _of_unit(listed, figure, seen)
    rest = _of_unit(material, figure, seen)
    if figure.value > 0:
        rest.sort(key=lambda f: abs(math.log(f.value / figure.value)))
    return first + rest


def _replaced(text: str, was: str, now: str) -> str:
    """Every mention of the figure `was` replaced ("3%以内（含3%）" moves as one)."""
    parts, at = [], 0
    for figure in figures(text):
        if figure.text == was:
            parts += [text[at : figure.start], now]
            at = figure.end
    return "".join(parts) + text[at:]


def _with_sibling(
    text: str, listed: Iterable[str], material: Iterable[str], taken: Iterable[str] = ()
) -> list[Falsehood]:
    """`text` with one figure (every mention of it) replaced by a sibling figure; a bounded figure only
    moves the way that makes the statement false, and no sibling already stated in `taken` (another
    option) is used."""
    listed, material = list(listed), list(material)
    used = {(f.unit, f.value) for t in (text, *taken) for f in figures(t)}
    found = []
    for figure in figures(text):
        direction = _direction(text, figure)
        for sibling in _siblings(figure, listed, material):
            if (sibling.unit, sibling.value) in used:
                continue
            if (direction == "up" and sibling.value < figure.value) or (
                direction == "down" and sibling.value > figure.value
            ):
                continue
            found.append(
                Falsehood(_replaced(text, figure.text, sibling.text), "value", figure.text, sibling.text)
            )
            break
    return found


def _comparator_flips(text: str) -> list[Falsehood]:
    found = []
    for pattern in (_BEFORE_FIGURE, _AFTER_FIGURE):
        for match in pattern.finditer(text):
            word = match.group(1)
            opposite = _COMPARATORS[word]
            changed = text[: match.start(1)] + opposite + text[match.end(1) :]
            found.append(Falsehood(changed, "comparator", word, opposite))
    return found


def _modal_flips(text: str) -> list[Falsehood]:
    found = []
    for match in _MODAL.finditer(text):
        word = match.group(1)
        if _NEGATED.match(text[match.end() :]):
            continue
        opposite = _MODALS[word]
        changed = text[: match.start()] + opposite + text[match.end() :]
        found.append(Falsehood(changed, "modal", word, opposite))
    return found


def falsehoods(
    text: str, listed: Iterable[str], material: Iterable[str], taken: Iterable[str] = ()
) -> list[Falsehood]:
    """Every single change that falsifies `text`: sibling figures first, then comparators, then modals."""
    return _with_sibling(text, listed, material, taken) + _comparator_flips(text) + _modal_flips(text)
