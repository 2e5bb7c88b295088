"""Pydantic schemas for what the loop produces: drafts, canonical questions and verification reports.

Kept apart from the graph state (which stores their plain-dict dumps) so that authors, the critic, storage
and the bot can share them without importing LangGraph.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

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
Status = Literal["passed", "needs_revision", "fatal"]
BLANK = "（　）"


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


class Issue(BaseModel):
    type: IssueType
    severity: Severity
    detail: str
    source: Literal["rule", "model", "human"] = "rule"


class VerificationReport(BaseModel):
    status: Status
    issues: list[Issue] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list)

    @property
    def has_major(self) -> bool:
        return any(issue.severity == "major" for issue in self.issues)

    def summary(self, limit: int = 2) -> str:
        return "；".join(issue.detail for issue in self.issues[:limit])

    @classmethod
    def from_issues(cls, issues: list[Issue], suggestions: list[str] | None = None) -> VerificationReport:
        if not issues:
            return cls(status="passed", suggestions=suggestions or [])
        return cls(status="needs_revision", issues=issues, suggestions=suggestions or [])


class ReviewVerdict(BaseModel):
    """The model's blind solve and review of a question shown without its key."""

    answer: str = Field(description="你独立作答的答案字母，如 B 或 ACD")
    issues: list[Issue] = Field(default_factory=list, description="发现的问题；没有则为空")
    suggestions: list[str] = Field(default_factory=list)
