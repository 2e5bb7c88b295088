"""Worked examples (【例】…【解】…, in `slice.examples` or in the prose) and the calculators that redo them.

A `calc_examples` entry names its calculator and arguments; it is kept only when `calc.run` still gives the
stated result, and it is paired with the example text that quotes the most of its figures, so the fact's
source is the worked example a learner reads. A prose example with no such entry is read with
`calc.reading`: it is bound to the one calculator that, from the example's own figures, recomputes the
figure it states; otherwise it stays an example without a calculator, since a binding that does not
recompute the book's figure would make a wrong question.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from calc import REGISTRY, CalcError, run
from calc.labels import result_label
from calc.reading import read_arguments
from retrieval.compiler.clauses import bracket_depths
from retrieval.compiler.quantities import find_quantities, number
from retrieval.facts import Fact
from retrieval.models import CalcExample

_INLINE = re.compile(r"【例[^】]*】[^\n]*")
_OPENING = re.compile(r"^(?:【例[^】]*】|(?:例如|比如|譬如|举例来说)[，,]?)")
_MISTAKE = re.compile(r"误按|误用|误将|误以为|若误|错误地|会多算|会少算|常见错误")
_ILLUSTRATION = re.compile(r"^(?:例如|比如|譬如|举例来说|以[^，。]{2,30}为例)")
_SOLUTION = re.compile(r"【解[^】]*】|【答[^】]*】")
_WORKING = re.compile(r"[=＝×÷]|^(?:适用|因此|所以|则|故|即|解|计算)")
_FIGURE = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
_TOLERANCE = 0.01
_UNIT_IN_BRACKETS = re.compile(r"(\d)\s*[（(](元|万元|平方米|㎡|%|年)[）)]")  # "=936（元）"
_LABEL_LEAD = re.compile(r"^(?:应纳|应缴|适用|可|每月|合计应纳|具有定金效力的|付定金一方可收回的)")


def is_illustration(sentence: str) -> bool:
    """ "例如，李某…", "以…为例": a worked case inside the prose, whose figures are no rule of the book."""
    return bool(_ILLUSTRATION.match(sentence.strip()))


def is_working(sentence: str) -> bool:
    """A sentence that computes ("增值税=成交价÷(1+3%)×3%") or shows a mistake ("若误按妻子的年龄计算，会
    得出27年"): its figures are arithmetic, not thresholds of the book."""
    return "=" in sentence or "＝" in sentence or bool(_MISTAKE.search(sentence))


def illustration_fact(sentence: str) -> Fact:
    return _fact(sentence)


def split_examples(text: str) -> tuple[str, list[str]]:
    """(the prose without its worked examples, the examples): each runs from 【例】 to the end of its line."""
    found = [match.group().strip() for match in _INLINE.finditer(text)]
    return _INLINE.sub("", text), found


def _question(example: str) -> str:
    """The problem an example poses: up to 【解】, or its clauses before the first working step."""
    body = _OPENING.sub("", example).strip()
    solution = _SOLUTION.search(body)
    if solution:
        return body[: solution.start()].strip().rstrip("。")
    depths = bracket_depths(body)
    clauses, start = [], 0
    for index, char in enumerate(body):
        if char in "，。；" and depths[index] == 0:
            clauses.append(body[start:index].strip())
            start = index + 1
    clauses.append(body[start:].strip())
    taken = []
    for clause in clauses:
        if _WORKING.search(clause):
            break
        if clause:
            taken.append(clause)
    return "，".join(taken)


def _stated_result(example: str) -> str:
    """The example's result as written: the last quantity after "=" (else its last quantity), read before
    any mistake it goes on to show ("若误用其他区的成本价，得774元" is not the result)."""
    mistake = _MISTAKE.search(example)
    text = _UNIT_IN_BRACKETS.sub(r"\1\2", example[: mistake.start()] if mistake else example)
    quantities = find_quantities(text)
    after_equals = [q for q in quantities if "=" in text[max(q.start - 3, 0) : q.start]]
    chosen = after_equals or quantities
    return chosen[-1].text if chosen else ""


def _matches(expected: Any, actual: Any) -> bool:
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(_matches(v, actual.get(k)) for k, v in expected.items())
    if isinstance(expected, int | float) and not isinstance(expected, bool):
        return (
            isinstance(actual, int | float)
            and not isinstance(actual, bool)
            and math.isclose(expected, actual, abs_tol=_TOLERANCE)
        )
    return expected == actual


def reproduces(example: CalcExample) -> bool:
    try:
        return _matches(example.expected, run(example.calculator, example.args))
    except CalcError:
        return False


def _figures(value: Any) -> set[float]:
    """The numbers a text would show for a result or argument: 0.02 also as 2 (a rate written "2%")."""
    if isinstance(value, dict):
        return {figure for item in value.values() for figure in _figures(item)}
    if isinstance(value, bool) or not isinstance(value, int | float):
        return set()
    return {round(float(value), 2), round(float(value) * 100, 2)}


def _quoted(example: CalcExample, text: str) -> int:
    shown = {round(v, 2) for v in (number(m.group()) for m in _FIGURE.finditer(text)) if v is not None}
    wanted = _figures(example.expected) | _figures(example.args)
    return len(wanted & shown)


def _candidates(text: str) -> list[str]:
    """Calculators whose result the text names ("应缴契税" → deed_tax): the only ones worth reading for."""
    return [
        name
        for name, calculator in REGISTRY.items()
        if any(_LABEL_LEAD.sub("", result_label(name, f)[0]) in text for f in calculator.results)
    ]


def _stated_value(text: str) -> tuple[float, str] | None:
    """The stated result as a number in the calculators' terms: 8万元 is 80000, 2% is 0.02."""
    result = _stated_result(text)
    found = find_quantities(result)
    if not found:
        return None
    value, unit = found[0].value, found[0].unit
    return {"万元": (value * 10_000, "元"), "亿元": (value * 100_000_000, "元"), "%": (value / 100, "%")}.get(
        unit, (value, unit)
    )


def _read_binding(text: str) -> CalcExample | None:
    """The calculator that, reading the example's own figures, recomputes its stated result, if exactly one
    result field of one calculator does; a reading that leaves an argument open or missing binds nothing."""
    stated = _stated_value(text)
    if stated is None:
        return None
    matches = []
    for name in _candidates(text):
        try:
            reading = read_arguments(name, text)
            if reading.missing or reading.unstated or reading.conflicts:
                continue
            args = reading.call_args()
            result = run(name, args)
        except (CalcError, ArithmeticError, ValueError):
            continue  # a text the reader cannot read binds nothing
        fields = [f for f, v in result.items() if _matches(v, stated[0]) and not isinstance(v, bool)]
        matches.extend(CalcExample(name, args, {f: result[f]}) for f in fields[:1])
    return matches[0] if len(matches) == 1 else None


def _fact(source: str, calc: CalcExample | None = None) -> Fact:
    return Fact(
        id="",
        kind="example",
        slice_id="",
        source=source,
        subject=_question(source),
        calculator=calc.calculator if calc else "",
        args=dict(calc.args) if calc else {},
        expected=dict(calc.expected) if calc else {},
        value_text=_stated_result(source),
    )


def example_facts(texts: Sequence[str], calc_examples: Sequence[CalcExample]) -> list[Fact]:
    facts: list[Fact] = []
    bound: set[int] = set()
    for calc in calc_examples:
        if not texts or not reproduces(calc):
            continue
        scores = [_quoted(calc, text) for text in texts]
        best = max(range(len(texts)), key=scores.__getitem__)
        if scores[best]:
            bound.add(best)
            facts.append(_fact(texts[best], calc))
    facts.extend(_fact(text, _read_binding(text)) for index, text in enumerate(texts) if index not in bound)
    return facts
