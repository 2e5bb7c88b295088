"""The critic's reading of a calculation stem: recompute from the figures a learner sees, not from the
author's own arguments, and ask whether the stem states every assumption the answer depends on.

A stem whose price was edited while the key stayed, or one that never says which home the buyer is buying,
passes a re-run of the author's call; it does not pass this check.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import calc
from calc.labels import AREA, MONEY, RATE, YEARS, result_label, value_words
from calc.reading import Reading, argument_label, read_arguments
from graph.format import numbers_in, same_number
from graph.schemas import Issue
from vocabulary.records import Calculation, Question

RunCalculator = Callable[[str, dict[str, Any]], dict[str, Any]]


@dataclass
class StemCheck:
    """`evidence` says what was recomputed from the stem and what could not be read, for the report."""

    issues: list[Issue] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)


def _issue(kind: str, detail: str) -> Issue:
    return Issue(type=kind, severity="major", detail=detail, source="rule")


def _figure(value: float, unit: str) -> str:
    """A result as an option states it: 30000元, 1.5%, 22年, 87.95㎡."""
    if unit == RATE:
        return f"{value * 100:.4f}".rstrip("0").rstrip(".") + "%"
    shown = f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
    return shown + (unit if unit in (MONEY, YEARS, AREA) else "")


def _argument(value: Any) -> str:
    if isinstance(value, float):
        return format(Decimal(str(value)).normalize(), "f")
    return "null" if value is None else str(value)


def _call(calculator: str, args: dict[str, Any]) -> str:
    listed = ", ".join(f"{name}={_argument(value)}" for name, value in args.items())
    return f"{calculator}({listed})"


def _authored(calculator: str, args: dict[str, Any], name: str) -> Any:
    """The author's value of an argument, the schema default standing in for one left out."""
    if name in args:
        return args[name]
    return calc.REGISTRY[calculator].parameters["properties"][name].get("default")


def _keyed_value_holds(question: Question, value: float, authored: float | None) -> bool:
    """Whether the key still fits a recomputed value: the single key states it, a judge statement's truth
    matches its key, and a multiple-choice question keeps the author's figure."""
    if question.qtype == "single":
        letter = question.answer[0] if question.answer else "A"
        index = ord(letter) - 65
        option = question.options[index] if 0 <= index < len(question.options) else ""
        return any(same_number(n, value) for n in numbers_in(option))
    if question.qtype == "judge":
        stated = any(same_number(n, value) for n in numbers_in(question.stem))
        return stated == (question.answer == ["A"])
    return authored is None or same_number(authored, value)


def _differences(reading: Reading, calculator: str, args: dict[str, Any]) -> list[str]:
    return [name for name in reading.args if not reading.agrees(name, _authored(calculator, args, name))]


def _stated(value: Any) -> str:
    """An argument value as a reader of the report says it: 是/否, 未给出, 住宅 rather than residential."""
    if isinstance(value, bool):
        return "是" if value else "否"
    if value is None:
        return "未给出"
    return value_words(value) if isinstance(value, str) else _argument(value)


def _mismatch(
    question: Question, calculation: Calculation, reading: Reading, differing: list[str], value: float
) -> str:
    name = calculation.calculator
    label, unit = result_label(name, calculation.field)
    changes = "；".join(
        f"{argument_label(name, arg)}题干为{_stated(reading.args[arg])}，"
        f"计算参数为{_stated(_authored(name, calculation.args, arg))}"
        for arg in differing
    )
    keyed = {"single": f"正确选项{question.answer_text}", "judge": "所给判断"}.get(
        question.qtype, "原计算结果"
    )
    return f"按题干数据复核：{changes}；按题干计算{label}应为{_figure(value, unit)}，与{keyed}不符"


def check_stem_calculation(question: Question, run_calculator: RunCalculator) -> StemCheck:
    """Read the calculator's arguments from the stem (a case question's stem carries its situation), recompute
    with those that differ from the author's, and report a key the stem's own figures no longer give and an
    assumption the stem leaves open. Never raises: a calculator refusing the stem's figures is a finding."""
    calculation = question.calculation
    if calculation is None or calculation.calculator not in calc.REGISTRY:
        return StemCheck()
    name = calculation.calculator
    try:
        reading = read_arguments(name, question.stem, defaults=calculation.args, field=calculation.field)
    except Exception as exc:  # the reader must never take the critic down with it
        return StemCheck(evidence=[f"按题干复核未完成：{exc}"])
    result = StemCheck()
    result.issues += [_issue("calculation_error", f"按题干数据复核：{c}") for c in reading.conflicts]
    if reading.unstated:
        result.issues.append(_issue("ambiguity", f"题干未说明{'、'.join(reading.unstated)}，答案不唯一"))
    differing = _differences(reading, name, calculation.args)
    args = {**calculation.args, **{arg: reading.args[arg] for arg in differing}}
    value: float | None = None
    try:
        value = float(run_calculator(name, args)[calculation.field])
    except Exception as exc:  # a calculator refusing the stem's own figures is itself the finding
        if differing:
            detail = f"按题干数据复核：计算器{name}不接受题干中的数据（{exc}）"
            result.issues.append(_issue("calculation_error", detail))
    if value is not None:
        unit = result_label(name, calculation.field)[1]
        result.evidence.append(f"按题干复核：{_call(name, args)} → {_figure(value, unit)}")
    if reading.missing:
        unread = "、".join(argument_label(name, arg) for arg in reading.missing)
        result.evidence.append(f"题干中未能读出{unread}，沿用计算参数")
    if value is not None and differing and not _keyed_value_holds(question, value, calculation.value):
        result.issues.append(
            _issue("calculation_error", _mismatch(question, calculation, reading, differing, value))
        )
    return result
