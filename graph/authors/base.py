"""What every author (offline or model-backed) provides to the nodes, and the task objects they receive.

Nodes decide *what* happens (which slice, which calculator result counts, when to fix or reroute);
authors only write text. An author that cannot do its job raises AuthorError with a reason the critic
turns into a fatal report — never an exception out of the graph.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from graph.schemas import Draft, Issue, VerificationReport
from retrieval.facts import FactBase
from retrieval.models import MotherQuestion, Slice
from vocabulary.kinds import Difficulty, Mode, QuestionType
from vocabulary.records import Calculation, Question


class AuthorError(Exception):
    """The author could not produce usable output (model down, unparsable replies after retries).

    `unavailable` marks a model that could not be reached at all (after the client's own retries):
    rerouting would only wait for it again, so the loop ends instead.
    """

    def __init__(self, message: str, *, unavailable: bool = False) -> None:
        super().__init__(message)
        self.unavailable = unavailable


@dataclass(frozen=True)
class Task:
    slice: Slice
    qtype: QuestionType
    mode: Mode
    seed: int
    attempt: int = 0
    examples: list[MotherQuestion] = field(default_factory=list)
    neighbours: list[Slice] = field(default_factory=list)
    report: VerificationReport | None = None
    facts: FactBase = field(default_factory=lambda: FactBase(()))
    visit: int = 0  # how often the chat met this slice before: the author asks another of its facts
    avoid: frozenset[str] = frozenset()  # facts the chat was asked lately: used only when nothing else fits
    difficulty: Difficulty | None = None  # the band the learner aims at; None is any


@dataclass(frozen=True)
class CalcChoice:
    calculator: str
    args: dict[str, Any]


@dataclass
class Authored:
    draft: Draft
    qtype: QuestionType
    calculation: Calculation | None = None
    usage: dict[str, int] = field(default_factory=dict)
    fact_ids: list[str] = field(default_factory=list)
    slice_id: str | None = None  # set when the question was written from a neighbouring slice
    notes: list[str] = field(default_factory=list)  # what a human asked that could not be done, and why


@dataclass
class Review:
    answer: str
    issues: list[Issue]
    suggestions: list[str]
    usage: dict[str, int] = field(default_factory=dict)


@dataclass
class Choice:
    choice: CalcChoice | None
    usage: dict[str, int] = field(default_factory=dict)


class Author(Protocol):
    name: str

    async def draft(self, task: Task) -> Authored: ...

    async def choose_calculation(self, task: Task, candidates: list[str]) -> Choice: ...

    async def draft_calculation(self, task: Task, choice: CalcChoice, result: dict[str, Any]) -> Authored: ...

    async def fix(self, task: Task, question: Question, report: VerificationReport) -> Authored | None: ...

    async def review(self, task: Task, question: Question) -> Review | None: ...
