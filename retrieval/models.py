"""The two kinds of source material every other layer consumes: knowledge slices and mother questions.

Both are immutable and carry their origin (`file:row`) so any later message can point back at the input.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from vocabulary.kinds import QuestionType

Mastery = Literal["掌握", "熟悉", "了解"]
MASTERY_LEVELS: tuple[Mastery, ...] = ("掌握", "熟悉", "了解")
JUDGE_OPTIONS: tuple[str, str] = ("正确", "错误")
PATH_SEPARATOR = " > "


@dataclass(frozen=True)
class KeyParam:
    name: str
    value: float | str
    unit: str = ""


@dataclass(frozen=True)
class CalcExample:
    """A worked example a calculator can recompute: `calc.run(calculator, args)` must give `expected`."""

    calculator: str
    args: dict
    expected: dict


@dataclass(frozen=True)
class Slice:
    """One knowledge point of the textbook, addressed by its normalised path (篇 > 章 > 节 > 点)."""

    id: str
    path: tuple[str, ...]
    mastery: Mastery
    text: str
    tables: tuple[str, ...] = ()
    formulas: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    key_params: tuple[KeyParam, ...] = ()
    rules: tuple[str, ...] = ()
    calc_examples: tuple[CalcExample, ...] = ()
    source: str = ""

    @property
    def path_text(self) -> str:
        return PATH_SEPARATOR.join(self.path)

    @property
    def chapter(self) -> tuple[str, ...]:
        """篇 and 章: the unit a learner picks in /quiz."""
        return self.path[:2]

    @property
    def title(self) -> str:
        return self.path[-1]

    @property
    def is_calculation(self) -> bool:
        return bool(self.formulas or self.calc_examples)


@dataclass(frozen=True)
class MotherQuestion:
    """A past exam question, normalised: options without letters, answer as letters ("A", "BD")."""

    id: str
    part: str
    chapter: str
    section: str
    name: str
    qtype: QuestionType
    stem: str
    options: tuple[str, ...]
    answer: str
    explanation: str = ""
    point: str = ""
    mastery: Mastery | None = None
    difficulty: float | None = None
    case_text: str | None = None
    kb_chapter: tuple[str, ...] | None = field(default=None, compare=False)
    source: str = ""

    @property
    def answer_indexes(self) -> tuple[int, ...]:
        return tuple(ord(letter) - ord("A") for letter in self.answer)
