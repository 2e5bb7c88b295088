"""Bank questions as the critic sees them: the writer's canonical form, with the calculation a stem rests on —
the bank's own 计算校验 when it has one, else the call read from the stem itself (a prose bank has none)."""

from __future__ import annotations

import re
from typing import Any

import calc
from calc.labels import AREA, MONEY, RATE, YEARS, result_label
from calc.reading import read_arguments
from graph.format import numbers_in, same_number
from graph.nodes.writer import write_question
from retrieval.models import MotherQuestion, Slice
from vocabulary.records import Calculation, Question

# What a result label says beyond the thing it names ("应纳契税" names 契税).
_LABEL_LEAD = re.compile(r"^(?:应纳|应缴|适用|可|每月|合计应纳|具有定金效力的|付定金一方可收回的)")
_BLANK = re.compile(r"[（(]\s*[）)]")
# A figure in a result's unit, as a statement states it: "86.80平方米", "1,092元", "23年", "1.5%".
_FIGURE_IN = {
    MONEY: r"\d[\d,.]*\s*万?元",
    YEARS: r"\d+(?:\.\d+)?\s*年",
    AREA: r"\d[\d,.]*\s*(?:平方米|㎡)",
    RATE: r"\d+(?:\.\d+)?\s*%",
}
# A stem read for a calculator must yield this many of its arguments: one figure binds too loosely.
_MIN_READ = 2


def as_question(mother: MotherQuestion, check: dict[str, Any] | None) -> Question:
    """A bank question in canonical form, as the writer would hand it to the critic."""
    calculation = None
    if check:
        calculation = Calculation(
            calculator=check["calculator"],
            args=check["args"],
            field=check["field"],
            value=check.get("expected"),
        )
    context = f"{mother.case_text}\n" if mother.case_text else ""
    authored = {
        "draft": {
            "stem": context + mother.stem,
            "options": list(mother.options),
            "answer": mother.answer,
            "explanation": mother.explanation,
            "difficulty": mother.difficulty if mother.difficulty is not None else 0.5,
        },
        "qtype": mother.qtype,
        "calculation": calculation.model_dump() if calculation else None,
    }
    path = tuple(p for p in (mother.part, mother.chapter, mother.section) if p) or (mother.id,)
    origin = Slice(id=mother.id, path=path, mastery=mother.mastery or "掌握", text="")
    question = write_question(authored, origin, "strict")
    if question.calculation is None:
        found = read_calculation(question)
        if found is not None:
            question = question.model_copy(update={"calculation": found})
    return question


def _states(option: str, value: float) -> bool:
    return any(same_number(n, value) for n in numbers_in(option))


def _named(calculator: str, field: str, stem: str) -> bool:
    return _LABEL_LEAD.sub("", result_label(calculator, field)[0]) in stem


def _claimed(calculator: str, field: str, stem: str) -> bool:
    """The judge statement's claim is this result: its last clause names the result and states a figure
    after the name ("该住宅的房龄为26年"); a result named only in the scene ("房龄与贷款期限之和不超过50年
    …贷款期限最长可以为30年") is not what the statement asserts."""
    claim = re.split(r"[，。；;]|,(?!\d)", _BLANK.sub("", stem).strip().rstrip("。.").strip())[-1]
    label, unit = result_label(calculator, field)
    label = _LABEL_LEAD.sub("", label)
    at = claim.find(label)
    return at >= 0 and re.search(_FIGURE_IN.get(unit, r"\d"), claim[at + len(label) :]) is not None


def _candidates(stem: str) -> list[tuple[str, dict[str, Any], str, float]]:
    """(calculator, arguments, field, value) for each numeric result of each calculator that reads the stem
    completely: nothing missing, open or contradicted, and at least `_MIN_READ` arguments."""
    found = []
    for name in calc.REGISTRY:
        try:
            reading = read_arguments(name, stem)
            if reading.missing or reading.unstated or reading.conflicts or len(reading.args) < _MIN_READ:
                continue
            args = reading.call_args()
            result = calc.run(name, args)
        except Exception:  # a stem this calculator cannot read is not its calculation
            continue
        for field, value in result.items():
            if not isinstance(value, bool) and isinstance(value, int | float):
                found.append((name, args, field, float(value)))
    return found


def read_calculation(question: Question) -> Calculation | None:
    """The calculator call a single-choice or judge question rests on, from the figures the stem states.
    Single choice: the call whose result is the keyed option's figure and no other option's, among several
    the one whose result the stem names. Judge: the one call whose result the statement names, when the
    statement's truth by it (the figure it states is the result) is what the key says; a reading that
    disagrees with the key is taken for a misreading, as a single choice's reading that no option states.
    None when that leaves more or fewer than one."""
    if question.qtype == "judge" and question.answer:
        named = [c for c in _candidates(question.stem) if _claimed(c[0], c[2], question.stem)]
        if len(named) != 1:
            return None
        name, args, field, value = named[0]
        if _states(question.stem, value) != (question.answer == ["A"]):
            return None
        return Calculation(calculator=name, args=args, field=field, value=value)
    if question.qtype != "single" or not question.answer:
        return None
    keyed = question.correct_indexes[0]
    if keyed >= len(question.options) or not numbers_in(question.options[keyed]):
        return None
    others = [o for i, o in enumerate(question.options) if i != keyed]
    found = [
        Calculation(calculator=name, args=args, field=field, value=value)
        for name, args, field, value in _candidates(question.stem)
        if _states(question.options[keyed], value) and not any(_states(o, value) for o in others)
    ]
    named = [c for c in found if _named(c.calculator, c.field, question.stem)]
    chosen = named if len(found) > 1 else found
    return chosen[0] if len(chosen) == 1 else None
