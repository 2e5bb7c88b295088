"""照猫画虎: a past question of the slice gives the shape — a judge over a modal rule, true or with the modal
turned, told as a case or as the textbook's sentence; a calculation asking one figure — and the recipe writes
the same shape over another fact of the slice, with new numbers and people.

The past question is only a pattern: a rule it already asks is not asked again (a worked example is, with
new figures), and when no fact of the slice fits its shape the recipe declines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from calc.labels import result_label
from graph.authors import scenes
from graph.authors.calc_text import TELLINGS
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.calculation import calculation_question
from graph.authors.recipes.scenario import modal_judge, rule_of
from graph.schemas import BLANK
from retrieval.facts import MODALS, Fact, FactKind
from retrieval.models import MotherQuestion
from vocabulary.kinds import QuestionType

# How much of a past question's wording a fact's sentence may share before it counts as the same fact.
_SAME_FACT = 0.4
# A figure a calculation states or asks: an amount or an area (a rate alone is a threshold's figure).
_FIGURE = re.compile(r"\d[\d,.]*\s*(?:万元|元|平方米|㎡)")
_PERSON = re.compile(rf"[{''.join(scenes.SURNAMES)}](?:某|先生|女士)")


@dataclass(frozen=True)
class Shape:
    """What a past question is: a modal judge or a calculation; told as a case or not; its key for a
    judge; and for a calculation the words of the figure it asks."""

    kind: Literal["modal", "calculation"]
    case: bool
    truth: bool | None
    asked: str = ""


def _bigrams(text: str) -> set[str]:
    plain = re.sub(r"\W", "", text)
    return {plain[i : i + 2] for i in range(len(plain) - 1)}


def _overlap(a: str, b: str) -> float:
    left, right = _bigrams(a), _bigrams(b)
    return len(left & right) / min(len(left), len(right)) if left and right else 0.0


def _calculated(example: MotherQuestion) -> str | None:
    """The words of the figure a calculation asks: the stem before the blank of a single whose options are
    figures, or the last clause of a judge that ends by stating an amount or an area."""
    if example.qtype == "judge":
        last = re.split(r"[，,。；]", example.stem.split(BLANK)[0].rstrip("。 "))[-1]
        figures = list(_FIGURE.finditer(last))
        return last if figures and figures[-1].end() >= len(last.rstrip("。")) - 1 else None
    if example.options and all(_FIGURE.search(option) for option in example.options):
        return example.stem.split(BLANK)[0]
    return None


def shape_of(example: MotherQuestion) -> Shape | None:
    truth = example.answer == "A" if example.qtype == "judge" else None
    case = bool(_PERSON.search(example.stem))
    asked = _calculated(example)
    if asked is not None:
        return Shape("calculation", case, truth, asked)
    if example.qtype == "judge" and any(modal in example.stem for modal in (*MODALS, "应", "不能")):
        return Shape("modal", case, truth)
    return None


def _asked_field(fact: Fact, asked: str) -> str | None:
    """The result of the fact's calculator that the past question asks for, by its label's words."""
    telling = TELLINGS.get(fact.calculator)
    if telling is None:
        return None
    named = [
        (len(label), field)
        for field in telling.fields
        if (label := result_label(fact.calculator, field)[0].removeprefix("应纳").removeprefix("应缴"))
        in asked
    ]
    return max(named)[1] if named else None


def _asks(example: MotherQuestion, fact: Fact) -> bool:
    rule = rule_of(fact)
    return _overlap(example.stem, rule.sentence() if rule else fact.source) >= _SAME_FACT


class Mimic:
    name = "mimic"
    kinds: tuple[FactKind, ...] = ("modal", "example")
    qtypes: tuple[QuestionType, ...] = ("judge", "single")

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        wanted_case = brief.task.mode == "flexible"
        for example in brief.task.examples:
            shape = shape_of(example)
            if example.qtype != brief.task.qtype or shape is None:
                continue
            modal = shape.kind == "modal" and fact.kind == "modal"
            if modal and not shape.case and not wanted_case and not _asks(example, fact):
                written = modal_judge(fact, truth=bool(shape.truth))
            elif shape.kind == "calculation" and fact.kind == "example" and fact.calculator:
                field = _asked_field(fact, shape.asked)
                written = field and calculation_question(fact, brief, field=field, truth=shape.truth)
            else:
                continue
            if written:
                return written
        return None
