"""The rule a question's 教材原文 quotes: the textbook's formula for the very figure it asks, for
calculation questions and case sub-questions alike.

A worked example's section often states a neighbouring formula first (the surcharges beside the VAT, the
first month beside the total interest), so quoting the section's opening formulas cites the wrong rule. The
formula is chosen by what its left-hand side names; of equally well-named ones the example's own section
goes first, then its chapter, then the rest of the book.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from retrieval.models import Slice

_SIDES = re.compile(r"\s*[=＝]\s*")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
# the period a formula holds for, written before its name ("2026年起增值税", "2025年及以前增值税")
_PERIOD = re.compile(r"^\d[\d年月日起及以前后至—\-－]*")
# textbooks call a monthly repayment 月供 in formulas and 月还款额 in prose
_SHORT_FORMS = (("月供", "月还款额"),)
_LEAST_SHARE = 0.5
# when a formula holds: "2026年起", "2024年12月1日以前", "2016-05-01至2025-12-31"
_DATE = r"((?:19|20)\d{2})(?:年(?:\d{1,2}月(?:\d{1,2}日)?)?|-\d{2}-\d{2})"
_SPAN = re.compile(rf"{_DATE}至{_DATE}")
_SINCE = re.compile(rf"{_DATE}(?:及以后|以后|起)")
_UNTIL = re.compile(rf"{_DATE}(?:及以前|以前|前)")
_NOTE = re.compile(r"（([^）]*)）")
_TOLD_YEAR = re.compile(r"((?:19|20)\d{2})年")
# the figures a working arrives at ("增值税=48,000元", "附加税费随之为0"): its last is the key
_RESULT = re.compile(r"[=＝为]\s*(\d[\d,]*(?:\.\d+)?)")


def _han(text: str) -> str:
    """The Han text in its long forms, anything else a space."""
    for short, long in _SHORT_FORMS:
        text = text.replace(short, long)
    return re.sub(r"[^\u4e00-\u9fff]", " ", text)


def _pairs(text: str) -> set[str]:
    """Character bigrams of the Han text: how a formula's name is compared with the figure asked."""
    return {word[i : i + 2] for word in _han(text).split() for i in range(len(word) - 1)}


def _named(formula: str) -> str:
    """What a formula works out: its left-hand side without the condition a textbook puts before a colon."""
    left = _SIDES.split(formula, maxsplit=1)[0]
    return _PERIOD.sub("", re.split(r"[：:]", left)[-1].strip())


def _window(formula: str) -> tuple[int, int]:
    """The years a formula holds for, from its qualifier or its note; open ends are 0 and 9999."""
    span = _SPAN.search(formula)
    if span:
        return int(span[1]), int(span[2])
    since, until = _SINCE.search(formula), _UNTIL.search(formula)
    return int(since[1]) if since else 0, int(until[1]) if until else 9999


def _holds(formula: str, year: int | None) -> bool:
    """Whether a formula holds in the year of the deal: a formula valid until 2025 is not the rule of a
    2026 sale, nor one valid from 2026 the rule of a 2025 sale."""
    since, until = _window(formula)
    return year is None or since <= year <= until


def _owes(told: str) -> bool:
    """Whether the key's working comes to a sum: its last result is not 0 (a working may well say 免征增值税
    on its way to an income tax)."""
    results = _RESULT.findall(told)
    return not results or float(results[-1].replace(",", "")) != 0


def _exempts(formula: str) -> bool:
    """A formula stating that nothing is owed ("增值税 = 0（持有满2年）"): the rule of a case only when the
    key's working comes to nothing too, whatever its name shares with the figure asked."""
    right = _NOTE.sub("", _SIDES.split(formula, maxsplit=1)[-1]).strip()
    return (
        len(_SIDES.split(formula, maxsplit=1)) == 2 and re.fullmatch(r"0(?:\.0+)?\s*元?", right) is not None
    )


def _applies(formula: str, told: str, year: int | None, owed: bool) -> bool:
    """Whether a formula can be the rule of the case: it holds in the year of the deal, it is no exemption
    when something is owed, and every rate and fixed sum it states is one the case applies (the 20% of the
    gain is not the rule of a sale taxed at 1% of its price, nor 80元/件 that of a shop's registration)."""
    rates = re.findall(r"\d+(?:\.\d+)?%", _NOTE.sub("", formula))
    # a fixed charge ("住宅登记费 = 80元/件") is the rule only of a case charged that sum (a shop pays 550)
    sums = re.findall(r"(?<![\d.])(\d+(?:\.\d+)?)\s*元", _NOTE.sub("", _SIDES.split(formula, maxsplit=1)[-1]))
    figures = set(_NUMBER.findall(told.replace(",", "")))
    return (
        _holds(formula, year)
        and not (owed and _exempts(formula))
        and all(rate in told for rate in rates)
        and all(amount in figures for amount in sums)
    )


def _deal_year(told: str) -> int | None:
    """The year the deal is made: the latest year the case tells (a home bought in 2019 is sold later)."""
    years = [int(year) for year in _TOLD_YEAR.findall(told)]
    return max(years) if years else None


def _right(formula: str) -> tuple[set[float], list[str]]:
    """What a formula's right-hand side works with outside its note: its figures, "(1 + 5%)" read as the
    1.05 it is, and its terms in order."""
    right = _NOTE.sub("", _SIDES.split(formula, maxsplit=1)[-1]).replace(" ", "")
    right = re.sub(r"\(1\+(\d+(?:\.\d+)?)%\)", lambda m: f"{1 + float(m[1]) / 100:g}", right)
    return {float(n) for n in _NUMBER.findall(right)}, re.findall(r"[\u4e00-\u9fff]+", right)


def _same_rule(one: str, other: str) -> bool:
    """Two statements of one rule: the same name, figures and terms, a term perhaps said more fully
    (成交价, 含税成交价)."""
    (figures, terms), (other_figures, other_terms) = _right(one), _right(other)
    return (
        _named(one) == _named(other)
        and figures == other_figures
        and len(terms) == len(other_terms)
        and all(a in b or b in a for a, b in zip(terms, other_terms, strict=True))
    )


def _with_condition(formula: str, shelves: Sequence[Sequence[str]], year: int | None) -> str:
    """The formula as the book states it with its condition: a bare "2025年及以前增值税 = 成交价 ÷ 1.05 × 5%"
    gives way to the same rule written with when and to whom it applies ("（2016-05-01至2025-12-31，持有
    不满2年）"), so the explanation says why the sale is taxed at all."""
    if _NOTE.search(formula):
        return formula
    stated = [
        other
        for formulas in shelves
        for other in formulas
        if _NOTE.search(other) and _same_rule(formula, other) and _holds(other, year)
    ]
    return stated[0] if stated else formula


def _likeness(formula: str, label: str, stem: str, told: str) -> tuple[int, int, float, float]:
    """How much of the formula's name the figure's label names; how many of its characters neither the
    question nor the case knows (首月 is not 每月; 核定 is, when the situation says 核定征收), and of its
    rates the case does not apply (20% of the gain in a 核定 sale, 3% in a 2023 one) and of the terms
    on its right it never speaks of (建筑密度 for a plot ratio worked from areas); what share of
    the name the question names; and how the rest fits the case as `told` (核定 or 据实 as the situation
    says, the 3% formula for a 2026 sale, the 5% one for a 2023 sale)."""
    if len(_SIDES.split(formula, maxsplit=1)) < 2:
        return 0, 0, 0.0, 0.0
    named = _named(formula)
    name = _pairs(named)
    if not name:
        return 0, 0, 0.0, 0.0
    stranger = len(set(_han(named)) - set(_han(label + stem + told)))
    share = round(len(name & (_pairs(label) | _pairs(stem))) / len(name), 2)
    rest = _pairs(formula) - name
    numbers = {float(n) for n in _NUMBER.findall(formula)}
    told = told.replace(",", "")
    stated = {float(n) for n in _NUMBER.findall(told)}
    # a rate applied as a divisor: 1+5% is the formula's 1.05
    stated |= {round(1 + float(n) / 100, 4) for n in re.findall(r"(\d+(?:\.\d+)?)%", told)}
    fits = (len(rest & _pairs(told)) / len(rest) if rest else 0.0) + (
        len(numbers & stated) / len(numbers) if numbers else 0.0
    )
    clashes = sum(rate not in told for rate in re.findall(r"\d+(?:\.\d+)?%", formula))
    right = re.sub(r"（[^）]*）", "", _SIDES.split(formula, maxsplit=1)[1])
    unknown = sum(
        _han(term).strip() not in _han(label + stem + told)
        for term in re.findall(r"[\u4e00-\u9fff]{2,}", right)
    )
    return len(name & _pairs(label)), -stranger - clashes - unknown, share, fits


def _with_definitions(formula: str, section: Sequence[str]) -> list[str]:
    """The formula, after an earlier formula of its section whose name it uses (月供 M before 总利息)."""
    right = _SIDES.split(formula, maxsplit=1)[-1]
    before = section[: section.index(formula)]
    used = [f for f in before if (name := _named(f)) and (name in right or name.split()[-1] in right)]
    return [*used[:1], formula]


def rule_quoted(label: str, stem: str, told: str, section: Slice, book: Iterable[Slice]) -> str | None:
    """The 教材原文 for a sub-question asked on a case from `section`, its formulas sought in `book` too."""
    shelves = [(section.id, section.chapter, section.formulas)]
    shelves += [(s.id, s.chapter, s.formulas) for s in book if s.id != section.id]
    return formula_quoted(label, stem, told, section.chapter, shelves)


def formula_quoted(
    label: str, stem: str, told: str, chapter: object, shelves: Sequence[tuple[str, object, Sequence[str]]]
) -> str | None:
    """The 教材原文 for a figure called `label`, asked by `stem` on a case `told` (its situation and the
    key's working): the formula naming it, with the formula it builds on. `shelves` are the sections'
    (id, chapter, formulas), the example's own first. The figure's label decides first, then a name and
    rates with nothing the case does not know, then the example's own section before its chapter and the
    book, then how much of the name the question names and how the formula fits the case; the section's
    formulas naming other parts of the figure are quoted too when they tie (the buyer's and the seller's
    totals). A formula that does not hold in the year of the deal is never quoted, nor an exemption (= 0)
    when the key's working comes to a sum, nor one stating a rate the case does not apply; one quoted bare is
    quoted as the book states it with its condition when it does. None when no formula names it."""
    wanted = _pairs(label) | _pairs(stem)
    year = _deal_year(told)
    scored = []
    for index, (_, shelf_chapter, formulas) in enumerate(shelves):
        tier = 0 if index == 0 else 1 if shelf_chapter == chapter else 2
        owed = _owes(told)
        for formula in (f for f in formulas if _applies(f, told, year, owed)):
            named, stranger, share, fits = _likeness(formula, label, stem, told)
            name = _pairs(_named(formula))
            if share >= _LEAST_SHARE and len(name & wanted) >= min(2, len(name)):
                scored.append(((named, stranger, -tier, share), fits, formula, formulas))
    if not scored:
        return None
    best = max(scored, key=lambda item: item[:2])
    # a figure the section names under one name (增值税 before and after 2026) is quoted once, as it fits
    tied = [best[2]] + [
        item[2]
        for item in scored
        if item[0] == best[0] and item[3] is best[3] and _named(item[2]) != _named(best[2])
    ]
    books = [formulas for _, _, formulas in shelves]
    quoted = [
        _with_condition(f, books, year) for formula in tied for f in _with_definitions(formula, best[3])
    ]
    return "；".join(dict.fromkeys(quoted)) + "。"
