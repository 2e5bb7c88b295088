"""Words and numbers for calculation questions: the known facts of a stem (from the calculator's argument
schema), a result stated with its unit, and wrong answers that come from real mistakes (a wrong category,
the old policy date, a confused unit) rather than random noise."""

from __future__ import annotations

import re
from typing import Any

import calc
from calc.labels import RATE, result_label, value_words
from graph.authors.base import CalcChoice

_OLD_REGIME_DATE = "2023-06-01"
_ARITHMETIC_SLIPS: tuple[tuple[float, str], ...] = (
    (2.0, "重复计算"),
    (0.5, "只计算了一半"),
    (10.0, "小数点位置错误"),
)


def _enum_names(description: str) -> dict[str, str]:
    """`…：1 首套，2 二套` → {"1": "首套", "2": "二套"}: the words a reader knows the codes by."""
    _, _, listing = description.partition("：")
    return dict(re.findall(r"([A-Za-z0-9_]+)\s+([^A-Za-z0-9_，,；;\s]+)", listing))


def _label_and_unit(description: str) -> tuple[str, str]:
    """`成交价（含增值税），元` → ("成交价（含增值税）", "元"); hints for the model such as `（小数，如 …）`
    are dropped, and only a unit the reader needs is kept."""
    plain = re.sub(r"（(小数|英文)[^）]*）", "", description)
    label, _, rest = plain.partition("，")
    unit = re.split(r"[；;（(，]", rest, maxsplit=1)[0].strip()
    label = label.split("：")[0].split("；")[0]
    return label.strip(), unit if unit in ("元", "㎡", "年", "平方米") else ""


def _trim(text: str) -> str:
    return text.rstrip("0").rstrip(".") if "." in text else text


def _format_number(value: float, unit: str) -> str:
    if unit == RATE:
        return _trim(f"{value * 100:.4f}") + "%"
    if unit == "元":
        return _trim(f"{value:,.2f}") + "元"
    return _trim(f"{value:.2f}") + unit


def describe_facts(calculator: str, args: dict[str, Any]) -> str:
    properties = calc.REGISTRY[calculator].parameters["properties"]
    facts = []
    for key, value in args.items():
        if value is None or key not in properties:
            continue
        spec = properties[key]
        label, unit = _label_and_unit(spec["description"])
        if isinstance(value, bool):
            facts.append(f"{label}：{'是' if value else '否'}")
        elif "enum" in spec and str(value) in _enum_names(spec["description"]):
            facts.append(f"{label}：{_enum_names(spec['description'])[str(value)].strip()}")
        elif isinstance(value, int | float):
            is_fraction = spec.get("maximum") == 1 and "小数" in spec["description"]
            facts.append(f"{label}：{_format_number(float(value), RATE if is_fraction else unit)}")
        else:
            facts.append(f"{label}：{value_words(str(value))}")
    return "；".join(facts)


def describe_value(calculator: str, field: str, value: float | None) -> str:
    label, unit = result_label(calculator, field)
    return label if value is None else _format_number(value, unit)


def number_variants(value: float) -> list[float]:
    """Plausible wrong values of a parameter, for distractors."""
    candidates = [value * 2, value / 2, value * 1.5, value + (1 if value < 20 else 10)]
    if value == int(value) and value >= 1:
        candidates = [float(round(c)) for c in candidates]
    return [c for c in dict.fromkeys(candidates) if c > 0 and abs(c - value) > 1e-9]


def _rerun(calculator: str, args: dict[str, Any], field: str) -> float | None:
    try:
        result = calc.run(calculator, args).get(field)
    except calc.CalcError:
        return None
    return float(result) if isinstance(result, int | float) and not isinstance(result, bool) else None


def calc_mistakes(value: float, choice: CalcChoice, field: str) -> list[tuple[float, str]]:
    """Wrong results, each with the mistake that produces it: first the calculator rerun with one argument
    misread, then arithmetic slips. Values equal to the right one (within a cent or 0.1%) are dropped."""
    properties = calc.REGISTRY[choice.calculator].parameters["properties"]
    found: list[tuple[float, str]] = []
    for key, spec in properties.items():
        label, _ = _label_and_unit(spec["description"])
        current = choice.args.get(key, spec.get("default"))
        alternatives: list[tuple[Any, str]] = []
        if "enum" in spec:
            names = _enum_names(spec["description"])
            words = {str(v): names.get(str(v)) or value_words(str(v)) for v in spec["enum"]}
            # a code with no Chinese name (an English land use, say) would leak into the explanation
            alternatives = [
                (v, f"把{label}误作{words[str(v)]}")
                for v in spec["enum"]
                if v != current and not re.fullmatch(r"[A-Za-z_]+", words[str(v)])
            ]
        elif spec.get("type") == "boolean" and isinstance(current, bool):
            alternatives = [(not current, f"把“{label}”判断反了")]
        elif spec.get("format") == "date":
            alternatives = [(_OLD_REGIME_DATE, "误用了旧政策")]
        elif spec.get("type") == "integer" and isinstance(current, int) and 0 < current <= 50:
            alternatives = [(current * 12, f"把{label}按月数代入")] if "年" in label else []
        elif (
            spec.get("type") == "number"
            and spec.get("maximum") != 1
            and isinstance(current, int | float)
            and 0 < current < 10
        ):
            alternatives = [
                (v, f"把{label}误作{v:g}") for v in (current + 1, max(current - 1, 0.5), current + 4)
            ]
        for alternative, mistake in alternatives:
            wrong = _rerun(choice.calculator, {**choice.args, key: alternative}, field)
            if wrong is not None:
                found.append((wrong, mistake))
    found += [(value * factor, mistake) for factor, mistake in _ARITHMETIC_SLIPS]
    distinct: list[tuple[float, str]] = []
    for wrong, mistake in found:
        rounded = round(wrong, 4 if abs(wrong) < 1 else 2)
        if rounded <= 0 or abs(rounded - value) <= max(0.01, abs(value) * 0.001):
            continue
        if all(abs(rounded - seen) > max(0.01, abs(seen) * 0.001) for seen, _ in distinct):
            distinct.append((rounded, mistake))
    return distinct
