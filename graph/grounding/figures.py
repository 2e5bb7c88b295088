"""Numbers of a statement against a textbook sentence's: which source figure a stated one is (the one in the
same surroundings), and whether they agree, differ, point the other way, or the statement's case lies
outside the sentence's condition (then the sentence does not apply).

Numbers inside a fill-in option are a case ("持有满6年" as an option describes a seller); elsewhere a bounded
number states a rule ("查封期限不得超过一年") and must equal the source's.
"""

from __future__ import annotations

import re

from graph.grounding.text import Number, grams, normalise, numbers

_CONTEXT = 12
# Words that make a stated figure a threshold itself rather than a case's figure.
_THRESHOLD = re.compile(r"最低|最高|上限|下限|至少|至多|最长|最短|起点|比例为|税率为|利率为")
# How close a figure restating the one before it stands to it.
_RESTATED = 5
# Bigrams a number's surroundings must share with the source number's to be taken for the same figure.
_BOUND_WORDS = 2


def _context(text: str, number: Number, found: list[Number], reach: int = _CONTEXT) -> frozenset[str]:
    """The words just before a number (back to the previous number, which counts as a word itself: "5年以上"
    in "5年以上为2.6%") and just after it."""
    previous = max((n for n in found if n.end <= number.start), key=lambda n: n.end, default=None)
    start = previous.end if previous is not None else 0
    following = min((n.start for n in found if n.start >= number.end), default=len(text))
    before = text[max(start, number.start - reach) : number.start]
    after = text[number.end : min(following, number.end + _CONTEXT // 2)]
    words = grams(before) | grams(after)
    return (
        words | {previous.shown}
        if previous is not None and number.start - previous.end <= _CONTEXT
        else words
    )


def same(a: Number, b: Number) -> bool:
    return a.unit == b.unit and abs(a.value - b.value) < 1e-9


def inside(value: float, bound: Number) -> bool:
    """The value lies within the bound (a strict bound leaves its own figure out)."""
    if bound.bound == "lower":
        return value > bound.value if bound.strict else value >= bound.value - 1e-9
    return value < bound.value if bound.strict else value <= bound.value + 1e-9


def _relation(written: Number, said: Number, case: bool, threshold: bool = False) -> str:
    """How a stated number stands to the source's: "agrees" (the same threshold, or a case value inside the
    source's bound: 90㎡ under "140㎡及以下"), "outside" (a case the source's condition does not cover),
    "flipped" (the same threshold bounded the other way) or "differs"."""
    if case and said.bound == written.bound != "" and same(written, said):
        return "agrees"  # the case restates the bound itself ("不足2年的住房")
    if said.bound and not written.bound and not case and not said.superlative:
        return "differs"  # "不超过3年" is not what "3年" says
    if said.bound and not case and written.bound:
        if said.bound != written.bound:
            return "flipped" if same(written, said) else "outside"
        return "agrees" if same(written, said) else "differs"
    if written.bound and (threshold or written.superlative) and not case:  # "最低比例为12%" names the bound
        return "agrees" if same(written, said) else "differs"
    if written.bound:
        return "agrees" if inside(said.value, written) else "outside"
    return "agrees" if same(written, said) else "differs"


def _date_check(number: Number, written_numbers: list[Number]) -> tuple[str, bool]:
    """A date against the source's dates: outside a period the source bounds ("2024年12月1日以前") it
    contradicts; a full date must occur as written; a year alone only dates a scenario."""
    year_only = "月" not in number.text
    for theirs in written_numbers:
        opposite = theirs.bound not in ("", number.bound)
        if theirs.unit == "date" and number.bound and opposite and same(theirs, number):
            return f"时间界限与教材相反：教材为“{theirs.shown}”，题目为“{number.shown}”", False
        if theirs.unit != "date" or not theirs.bound:
            continue
        before = number.value + 1 <= theirs.value if year_only else number.value < theirs.value - 1e-6
        if (theirs.bound == "upper" and number.value > theirs.value + 1e-6) or (
            theirs.bound == "lower" and before
        ):
            return f"时间与教材不符：教材为“{theirs.shown}”，题目为“{number.text}”", False
    if year_only:
        return "", True
    return "", any(n.unit == "date" and abs(n.value - number.value) < 1e-6 for n in written_numbers)


def _restated(number: Number, found: tuple[Number, ...]) -> bool:
    """The figure says again the one just before it ("2年以上（含2年）")."""
    return any(same(other, number) and 0 < number.start - other.end <= _RESTATED for other in found)


def number_check(said: str, written: str, case: str = "") -> tuple[str, bool]:
    """(contradiction or "", whether every number of `said` is attested in `written`).

    A number is compared with the source number in the same surroundings; another source number of the
    stated value in surroundings as close leaves the binding in doubt (unattested, not contradicted).
    Numbers inside `case` (a fill-in option, normalised) describe a case. A case outside the source's
    condition makes the sentence inapplicable — unless everything else the statement states agrees with
    it: then the statement claims the sentence's consequence for a case it does not cover ("持有1年…免征").
    """
    said_numbers, written_numbers = numbers(said), numbers(written)
    at = said.find(case) if case else -1
    cases = range(at, at + len(case)) if at >= 0 else range(0)
    attested, conflict, outside = True, "", ""
    used: set[int] = set()  # source figures already agreed with: in "满2年但不满5年" the 5 is not the 2
    for number in said_numbers:
        if number.unit == "date":
            found, dated = _date_check(number, written_numbers)
            if found:
                return found, False
            attested = attested and dated
            continue
        rivals = [
            n
            for n in written_numbers
            if n.unit == number.unit and (n.start not in used or _restated(number, said_numbers))
        ]
        if not rivals:
            attested = False
            continue
        is_case = number.start in cases
        threshold = bool(_THRESHOLD.search(said[max(0, number.start - 8) : number.start]))
        context = _context(said, number, said_numbers, 2 * _CONTEXT)  # a statement names its subject once
        scored = [
            (
                len(context & _context(written, n, written_numbers)),
                _relation(n, number, is_case, threshold),
                n,
            )
            for n in rivals
        ]
        overlap, relation, best = max(scored, key=lambda item: (item[0], item[1] == "agrees"))
        agreeing = [s for s in scored if s[0] >= max(_BOUND_WORDS, overlap - 1) and s[1] == "agrees"]
        if relation == "agrees" or agreeing:
            used.add((best if relation == "agrees" else agreeing[0][2]).start)
            continue
        attested = False
        if relation == "outside":
            outside = outside or f"题中情形（{number.shown}）不在教材“{best.shown}”的范围内"
            continue
        if relation == "flipped":  # the same threshold bounded as stated elsewhere in the sentence
            doubt = any(s[2].bound == number.bound and same(s[2], number) for s in scored)
        else:  # the stated value elsewhere, in surroundings that share something
            doubt = any(s[0] >= 1 and same(s[2], number) for s in scored)
        if overlap >= _BOUND_WORDS and not doubt and not conflict:
            kind = "界限与教材相反" if relation == "flipped" else "数值与教材不符"
            conflict = f"{kind}：教材为“{best.shown}”，题目为“{number.shown}”"
        elif not conflict:
            conflict = "?"  # differs, but which source figure it is stays in doubt
    if outside:
        return ("", False) if conflict else (outside, False)
    return ("" if conflict == "?" else conflict), attested


def outside_period(whole: str, written: str) -> bool:
    """A date of the statement (its scenario included) falls outside the period the sentence is about."""
    written_numbers = numbers(written)
    return any(_date_check(n, written_numbers)[0] for n in numbers(normalise(whole)) if n.unit == "date")


def other_case(whole: str, written: str) -> bool:
    """Every figure of a statement with several differs from the sentence's: another case, not the same
    rule with one figure changed."""
    said = list({(n.value, n.unit): n for n in numbers(normalise(whole)) if n.unit != "date"}.values())
    theirs = [n for n in numbers(written) if n.unit != "date"]
    return len(said) > 1 and not any(same(a, b) for a in said for b in theirs)
