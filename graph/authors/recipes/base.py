"""What every recipe receives and returns. A recipe turns one compiled fact (with its siblings) into one
question of a given type and mode, or declines (None) when the fact cannot carry that question well.

Recipes never raise for a thin fact: declining lets the author try the next fact or recipe, and only when
none fits does the author report that the slice cannot be asked.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Protocol

from graph.authors.base import Task
from graph.schemas import Draft
from retrieval.facts import Fact, FactBase, FactKind
from vocabulary.kinds import QuestionType
from vocabulary.records import Calculation


@dataclass(frozen=True)
class Brief:
    """The request (slice, type, mode, seed, examples) and the whole knowledge base's facts, for siblings."""

    task: Task
    facts: FactBase
    rng: random.Random


@dataclass
class Written:
    """A recipe's question: the draft (with `sources`, the verbatim sentences it rests on) and the ids of
    the facts it asks, so a chat is not asked the same fact twice while others remain."""

    draft: Draft
    qtype: QuestionType
    fact_ids: list[str] = field(default_factory=list)
    calculation: Calculation | None = None


class Recipe(Protocol):
    name: str
    kinds: tuple[FactKind, ...]
    qtypes: tuple[QuestionType, ...]

    def write(self, fact: Fact, brief: Brief) -> Written | None: ...
