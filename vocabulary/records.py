"""The records storage keeps and every layer passes around: a question as a learner reads it, the request
that asked for it, and a chat's place in its cycle of knowledge slices. Plain data with their own
validation, so storage can persist them without importing the generation loop or the retrieval index."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from vocabulary.kinds import Difficulty, Mode, QuestionType


class Calculation(BaseModel):
    """The calculator call a finance question is built on; the critic re-runs it."""

    calculator: str
    args: dict
    field: str
    value: float | None = None


class Question(BaseModel):
    """The canonical question: fits Telegram's quiz limits and carries where it came from."""

    qtype: QuestionType
    stem: str
    options: list[str]
    answer: list[str]
    explanation: str
    short_explanation: str = ""
    difficulty: float = 0.5
    mode: Mode = "strict"
    slice_id: str = ""
    slice_path: str = ""
    chapter: list[str] = Field(default_factory=list)
    calculation: Calculation | None = None
    sources: list[str] = Field(default_factory=list)
    fact_ids: list[str] = Field(default_factory=list)
    evidence: list[str] = Field(default_factory=list)
    # A past-paper case question's situation, sent before its poll (a poll's 300 characters cannot hold it).
    case: str = ""

    @property
    def answer_text(self) -> str:
        return "".join(self.answer)

    @property
    def correct_indexes(self) -> list[int]:
        return [ord(letter) - ord("A") for letter in self.answer]

    def fingerprint(self) -> str:
        """Identity of what a learner reads: a revision must change it to count as a change (merely
        reordering the options does not)."""
        correct = sorted(self.options[i] for i in self.correct_indexes if i < len(self.options))
        visible = {
            "stem": self.stem,
            "options": sorted(self.options),
            "correct": correct,
            "explanation": self.explanation,
        }
        return hashlib.sha256(json.dumps(visible, ensure_ascii=False).encode()).hexdigest()[:16]


class CaseQuestion(BaseModel):
    """A 案例题: one situation sent as a message, then one poll per sub-question. A sub-question's `stem`
    refers to the situation and is not meant to be read without it; `standalone` is what it says in full."""

    situation: str
    questions: list[Question] = Field(min_length=3, max_length=5)
    mode: Mode = "flexible"
    chapter: list[str] = Field(default_factory=list)

    def standalone(self, index: int) -> Question:
        question = self.questions[index]
        return question.model_copy(update={"stem": self.situation + question.stem})


class GenerationRequest(BaseModel):
    chat_id: int
    question_id: str
    qtype: QuestionType
    mode: Mode = "strict"
    chapters: list[list[str]] = Field(default_factory=list, description="(篇, 章) pairs; empty = all")
    calculation_only: bool = False
    slice_id: str | None = None
    seed: int = 0
    visit: int = Field(0, ge=0, description="how often this chat met the slice before: picks another fact")
    avoid: list[str] = Field(default_factory=list, description="fact ids the chat was asked lately")
    difficulty: Difficulty | None = Field(None, description="the band the learner aims at; None is any")

    @property
    def thread_id(self) -> str:
        return f"{self.chat_id}/{self.question_id}"


@dataclass
class SamplerState:
    """One chat's progress: the ids drawn in the current cycle of each selection, the number of draws, and
    how often each slice was drawn — so a slice met again is asked about another of its facts."""

    used: list[str] = field(default_factory=list)
    draws: int = 0
    visits: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"used": list(self.used), "draws": self.draws, "visits": dict(self.visits)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SamplerState:
        used, draws = data.get("used", []), data.get("draws", 0)
        visits = data.get("visits", {})  # absent in states stored before visits were counted
        if not isinstance(used, list) or not all(isinstance(i, str) for i in used):
            raise ValueError("sampler state: 'used' must be a list of slice ids")
        if not isinstance(draws, int) or draws < 0:
            raise ValueError("sampler state: 'draws' must be a non-negative integer")
        if not isinstance(visits, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and v >= 0 for k, v in visits.items()
        ):
            raise ValueError("sampler state: 'visits' must map slice ids to non-negative counts")
        return cls(used=list(used), draws=draws, visits=dict(visits))
