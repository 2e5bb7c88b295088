"""Pydantic schemas for what the loop produces: drafts, canonical questions and verification reports.

Kept apart from the graph state (which stores their plain-dict dumps) so that authors, the critic, storage
and the bot can share them without importing LangGraph.
"""

from __future__ import annotations

import hashlib
import json
from typing import Literal

from pydantic import BaseModel, Field

QuestionType = Literal["single", "multi", "judge"]
Mode = Literal["strict", "flexible"]
IssueType = Literal[
    "answer_mismatch",
    "calculation_error",
    "factual_error",
    "logical_flaw",
    "ambiguity",
    "incompleteness",
    "format_error",
    "duplicate",
    "out_of_scope",
    "human_feedback",
]
Severity = Literal["major", "minor"]
ReturnTo = Literal["none", "execution", "planning"]
Status = Literal["passed", "needs_revision", "fatal"]
BLANK = "（　）"


class Calculation(BaseModel):
    """The calculator call a finance question is built on; the critic re-runs it."""

    calculator: str
    args: dict
    field: str
    value: float | None = None


class Draft(BaseModel):
    """What an author returns: the question before the writer normalises it."""

    stem: str = Field(description="题干，含作答空位（　）")
    options: list[str] = Field(description="选项文本，不带字母前缀；判断题为 正确、错误")
    answer: str = Field(description="正确答案字母，如 C 或 ABD；判断题 A=正确 B=错误")
    explanation: str = Field(description="三段式解析：教材依据：… 试题分析：… 结论：…")
    difficulty: float = Field(0.5, ge=0, le=1, description="难度 0–1")
    sources: list[str] = Field(
        default_factory=list, description="题目所依据的教材原句（逐字摘自知识点原文），至少一句"
    )


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


class Issue(BaseModel):
    type: IssueType
    severity: Severity
    detail: str
    source: Literal["rule", "model", "human"] = "rule"


class VerificationReport(BaseModel):
    status: Status
    issues: list[Issue] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list)
    return_to: ReturnTo = "none"

    @property
    def has_major(self) -> bool:
        return any(issue.severity == "major" for issue in self.issues)

    def summary(self, limit: int = 2) -> str:
        return "；".join(issue.detail for issue in self.issues[:limit])

    @classmethod
    def from_issues(cls, issues: list[Issue], suggestions: list[str] | None = None) -> VerificationReport:
        if not issues:
            return cls(status="passed", suggestions=suggestions or [])
        major = any(issue.severity == "major" for issue in issues)
        return cls(
            status="needs_revision",
            issues=issues,
            suggestions=suggestions or [],
            return_to="planning" if major else "execution",
        )


class ReviewVerdict(BaseModel):
    """The model's blind solve and review of a question shown without its key."""

    answer: str = Field(description="你独立作答的答案字母，如 B 或 ACD")
    issues: list[Issue] = Field(default_factory=list, description="发现的问题；没有则为空")
    suggestions: list[str] = Field(default_factory=list)


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

    @property
    def thread_id(self) -> str:
        return f"{self.chat_id}/{self.question_id}"
