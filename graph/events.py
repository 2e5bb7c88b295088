"""What a generation run reports: progress as each node finishes, then one result; and the error for a
revision of a question that was never stored."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from vocabulary.records import Question


class UnknownQuestion(LookupError):
    """No finished generation is stored under that thread id."""


@dataclass(frozen=True)
class Progress:
    thread_id: str
    node: str
    verdict: str
    detail: str


@dataclass
class Result:
    thread_id: str
    outcome: Literal["passed", "flagged", "failed"]
    question: Question | None
    version: int | None
    versions: list[dict[str, Any]]
    trace: list[dict[str, str]]
    failure: str = ""
    usage: dict[str, int] = field(default_factory=dict)
    calc_trace: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.question is not None
