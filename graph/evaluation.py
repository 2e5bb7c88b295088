"""Measuring the critic: how often its deterministic checks reject known-good bank questions, and how many
seeded defects of each kind they catch. `python -m bot critic-eval` and `make bench` print it."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import calc
from graph.checks import run_checks
from graph.format import numbers_in
from graph.nodes.writer import write_question
from graph.schemas import BLANK, Calculation, Question
from retrieval.models import MotherQuestion, Slice
from retrieval.sources import Sources

Defect = Callable[[Question], Question | None]


def _recompute(calculation: Calculation) -> float:
    return float(calc.run(calculation.calculator, calculation.args)[calculation.field])


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
    return write_question(authored, origin, "strict")


def _letters(q: Question) -> list[str]:
    return [chr(65 + i) for i in range(len(q.options))]


def change_answer(q: Question) -> Question | None:
    wrong = [letter for letter in _letters(q) if letter not in q.answer]
    if not wrong:
        return None
    answer = [wrong[0]] if q.qtype != "multi" else sorted([*q.answer[1:], wrong[0]])
    return q.model_copy(update={"answer": answer})


def duplicate_correct_option(q: Question) -> Question | None:
    if q.qtype == "judge":
        return None
    distractors = [i for i in range(len(q.options)) if chr(65 + i) not in q.answer]
    if not distractors:
        return None
    options = list(q.options)
    options[distractors[0]] = options[q.correct_indexes[0]]
    return q.model_copy(update={"options": options})


def empty_option(q: Question) -> Question | None:
    distractors = [i for i in range(len(q.options)) if chr(65 + i) not in q.answer]
    options = list(q.options)
    options[distractors[0] if distractors else 0] = ""
    return q.model_copy(update={"options": options})


def alter_calculation(q: Question) -> Question | None:
    if q.calculation is None or q.qtype != "single":
        return None
    index = q.correct_indexes[0]
    option = q.options[index]
    numbers = re.findall(r"\d[\d,]*(?:\.\d+)?", option)
    if not numbers or not numbers_in(option):
        return None
    target = max(numbers, key=len)
    value = float(target.replace(",", ""))
    altered = f"{value * 1.1:,.2f}".rstrip("0").rstrip(".") if value else "1"
    options = list(q.options)
    options[index] = option.replace(target, altered, 1)
    return q.model_copy(update={"options": options})


def remove_blank(q: Question) -> Question | None:
    return q.model_copy(update={"stem": q.stem.replace(BLANK, "")}) if BLANK in q.stem else None


def answer_in_stem(q: Question) -> Question | None:
    if q.qtype == "judge":
        return None
    option = q.options[q.correct_indexes[0]]
    return q.model_copy(update={"stem": f"{q.stem}（提示：{option}）"}) if len(option) >= 4 else None


def judge_wrong_options(q: Question) -> Question | None:
    return q.model_copy(update={"options": ["是", "否"]}) if q.qtype == "judge" else None


def single_two_answers(q: Question) -> Question | None:
    if q.qtype != "single":
        return None
    extra = next(letter for letter in _letters(q) if letter not in q.answer)
    return q.model_copy(update={"answer": sorted([*q.answer, extra])})


DEFECTS: dict[str, Defect] = {
    "answer_changed": change_answer,
    "correct_option_duplicated": duplicate_correct_option,
    "option_emptied": empty_option,
    "calculation_altered": alter_calculation,
    "blank_removed": remove_blank,
    "answer_in_stem": answer_in_stem,
    "judge_options_not_true_false": judge_wrong_options,
    "single_with_two_answers": single_two_answers,
}


@dataclass
class Evaluation:
    bank_size: int
    false_rejections: list[tuple[str, str]] = field(default_factory=list)
    caught: dict[str, list[int]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "false_rejections": len(self.false_rejections),
            "bank_size": self.bank_size,
            "caught": self.caught,
            "rejected": [{"question": q, "reason": r} for q, r in self.false_rejections],
        }

    @property
    def catch_rate(self) -> float:
        caught = sum(c for c, _ in self.caught.values())
        total = sum(t for _, t in self.caught.values())
        return caught / total if total else 1.0

    @property
    def false_rejection_rate(self) -> float:
        return len(self.false_rejections) / self.bank_size if self.bank_size else 0.0


def evaluate(sources: Sources) -> Evaluation:
    """Defects are seeded only into questions the critic accepts, so a catch is the defect's doing."""
    result = Evaluation(bank_size=len(sources.questions), caught={name: [0, 0] for name in DEFECTS})
    for mother in sources.questions:
        question = as_question(mother, sources.calc_checks.get(mother.id))
        issues = run_checks(question, mother.qtype, recompute=_recompute)
        if issues:
            result.false_rejections.append((mother.source or mother.id, issues[0].detail))
            continue
        for name, defect in DEFECTS.items():
            broken = defect(question)
            if broken is None:
                continue
            result.caught[name][1] += 1
            if run_checks(broken, mother.qtype, recompute=_recompute):
                result.caught[name][0] += 1
    return result
