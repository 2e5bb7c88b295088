"""Sub-questions of one case that give each other away.

Read together, a case's polls must not answer one another: an option that is another sub-question's key, a
figure its working passes through (the total repaid on the way to the interest) or one step from either (that
total ÷ the 180 months is the monthly payment) hands a reader the other answer without its rule; two
sub-questions with one key, or offering the same distractors, ask one thing twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from graph.format import ANALYSIS, explanation_parts, numbers_in, same_number
from vocabulary.records import Question

# A term in years is a count of months too: 15年 is the 180 a monthly figure is multiplied by.
_MONTHS = 12
_LONGEST_TERM = 50
# what a reader multiplies by is a count, an area or a rate, not a price
_LARGEST_FACTOR = 1000
# a working's own thresholds and counts (满2年, 140平方米) are not sums another figure is found from
_LEAST_SUM = 1000


class _Valued(Protocol):
    @property
    def value(self) -> float: ...


W = TypeVar("W", bound=_Valued)


def operands(situation: str) -> tuple[float, ...]:
    """The numbers of the situation a reader can multiply or divide by in one step (the area, the term
    in years and in months, a rate); 0 and 1 change nothing."""
    stated = [n for n in numbers_in(situation) if 0 < n <= _LARGEST_FACTOR and not same_number(n, 1)]
    months = [n * _MONTHS for n in stated if n.is_integer() and n <= _LONGEST_TERM]
    return tuple(dict.fromkeys([*stated, *months]))


def _close(value: float, figure: float, factor: float) -> bool:
    """`value` × `factor` is `figure`, allowing for `value` having been rounded to the cent."""
    return abs(value * factor - figure) <= 0.006 * max(1.0, factor) + 0.01


def one_step(value: float, figure: float, by: Iterable[float]) -> bool:
    """Whether `value` is `figure`, or becomes it by one × or ÷ of a number in `by` (nil is only nil)."""
    if same_number(value, figure):
        return True
    return bool(value and figure) and any(_close(value, figure, m) or _close(figure, value, m) for m in by)


def working(question: Question, situation: str) -> tuple[float, ...]:
    """The key and the sums its working finds on the way that the situation does not state."""
    given = numbers_in(situation)
    analysis = explanation_parts(question.explanation).get(ANALYSIS, "").split("选项", 1)[0]
    found = [
        figure
        for figure in numbers_in(analysis)
        if figure >= _LEAST_SUM and not any(same_number(figure, g) for g in given)
    ]
    key = question.calculation.value if question.calculation else None
    return tuple(dict.fromkeys([*([key] if key is not None else []), *found]))


def offered(question: Question) -> list[float]:
    """The figures a poll's options offer (a judgement offers the one its stem states)."""
    if question.qtype == "judge":
        return numbers_in(question.stem)[-1:]
    return [numbers[0] for option in question.options if (numbers := numbers_in(option))]


@dataclass(frozen=True)
class Keep:
    """What one sub-question's distractors must keep off: the other sub-questions' keys, one step of `by`
    away, and the sums their workings pass through; of the distractors they already offer, one may be
    offered again."""

    keys: tuple[float, ...]
    sums: tuple[float, ...]
    offers: tuple[float, ...]
    by: tuple[float, ...]

    def gives(self, value: float) -> bool:
        """Whether a distractor of this value would give another sub-question away."""
        return any(one_step(value, key, self.by) for key in self.keys) or any(
            same_number(value, figure) for figure in self.sums
        )

    def kept(self, wrongs: list[W]) -> list[W]:
        """The distractors (in the order given) that give nothing away, with at most one offered already."""
        kept: list[W] = []
        repeated = 0
        for wrong in wrongs:
            if self.gives(wrong.value):
                continue
            again = any(same_number(wrong.value, seen) for seen in self.offers)
            if again and repeated:
                continue
            repeated += again
            kept.append(wrong)
        return kept


def gives_away(question: Question, other: Question, situation: str) -> bool:
    """Whether `question`, read beside `other`, answers it or asks it again: the same key, more than one
    option value in common, or an option of `question` (not its own key) that is a sum `other`'s working
    passes through (and does not offer itself) or one step from `other`'s key."""
    mine, theirs = question.calculation, other.calculation
    if mine is None or theirs is None:
        return False
    if same_number(mine.value, theirs.value):
        return True
    values = [v for v in offered(question) if not same_number(v, mine.value)]
    shared = [v for v in offered(question) if any(same_number(v, w) for w in offered(other))]
    if len(shared) > 1:
        return True
    by = operands(situation)
    # a figure `other` offers itself (每月应还本金 as its own distractor) tells a reader nothing new
    sums = [f for f in working(other, situation) if not any(same_number(f, v) for v in offered(other))]
    return any(one_step(v, theirs.value, by) or any(same_number(v, f) for f in sums) for v in values)
