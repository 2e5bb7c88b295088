"""Easy seeded defects: faults a question shows on its face (an emptied option, a removed blank, 是/否 as
true/false options, a key the explanation's conclusion contradicts). Consistency checks alone catch them."""

from __future__ import annotations

import re
from collections.abc import Callable

from graph.format import numbers_in
from graph.schemas import BLANK
from vocabulary.records import Question

EasyDefect = Callable[[Question], Question | None]


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


EASY: dict[str, EasyDefect] = {
    "answer_changed": change_answer,
    "correct_option_duplicated": duplicate_correct_option,
    "option_emptied": empty_option,
    "calculation_altered": alter_calculation,
    "blank_removed": remove_blank,
    "answer_in_stem": answer_in_stem,
    "judge_options_not_true_false": judge_wrong_options,
    "single_with_two_answers": single_two_answers,
}
