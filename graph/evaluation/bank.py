"""Bank questions as the critic sees them: the writer's canonical form, with the calculation a stem rests on —
the bank's own 计算校验 when it has one, else the call read from the stem itself (a prose bank has none)."""

from __future__ import annotations

import re
from typing import Any

import calc
from calc.labels import result_label
from calc.reading import read_arguments
from graph.format import numbers_in, same_number
from graph.nodes.writer import write_question
from retrieval.models import MotherQuestion, Slice
from vocabulary.records import Calculation, Question

# What a result label says beyond the thing it names ("应纳契税" names 契税).
_LABEL_LEAD = re.compile(r"^(?:应纳|应缴|适用|可|每月|合计应纳|具有定金效力的|付定金一方可收回的)")
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


def read_calculation(question: Question) -> Calculation | None:
    """The calculator call whose result, from the figures the stem states, is the keyed option's figure and
    no other option's. Only a complete reading counts (nothing missing, open or contradicted), and among
    several calls the one whose result the stem names; none when that leaves more or fewer than one."""
    if question.qtype != "single" or not question.answer:
        return None
    keyed = question.correct_indexes[0]
    if keyed >= len(question.options) or not numbers_in(question.options[keyed]):
        return None
    found: list[Calculation] = []
    for name in calc.REGISTRY:
        try:
            reading = read_arguments(name, question.stem)
            if reading.missing or reading.unstated or reading.conflicts or len(reading.args) < _MIN_READ:
                continue
            args = reading.call_args()
            result = calc.run(name, args)
        except Exception:  # a stem this calculator cannot read is not its calculation
            continue
        for field, value in result.items():
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue
            others = (o for i, o in enumerate(question.options) if i != keyed)
            if _states(question.options[keyed], value) and not any(_states(o, value) for o in others):
                found.append(Calculation(calculator=name, args=args, field=field, value=float(value)))
    named = [c for c in found if _named(c.calculator, c.field, question.stem)]
    chosen = named if len(found) > 1 else found
    return chosen[0] if len(chosen) == 1 else None
