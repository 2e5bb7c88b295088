"""What went wrong in an input file, pinned to the place a person would look to fix it.

Importers never raise on bad content: they record a `Problem` and go on, so one broken row costs that row
only. The severity tells the caller what happened to the data: a warning kept the row, an error skipped
it, a fatal problem made the whole file unusable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["warning", "error", "fatal"]


@dataclass(frozen=True)
class Problem:
    """`row`: the row a spreadsheet user sees (header = row 1) or the JSONL line; None for the whole file."""

    file: str
    row: int | None
    field: str
    reason: str
    severity: Severity = "error"

    def __str__(self) -> str:
        where = self.file if self.row is None else f"{self.file}:{self.row}"
        return f"{where}: {self.field}: {self.reason}"

    def as_dict(self) -> dict[str, str | int | None]:
        return {
            "file": self.file,
            "row": self.row,
            "field": self.field,
            "reason": self.reason,
            "severity": self.severity,
        }


class ProblemLog:
    """Collects the problems of one file so every reader names the file the same way."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []

    def add(self, row: int | None, field: str, reason: str, severity: Severity = "error") -> None:
        self.problems.append(Problem(self.file, row, field, reason, severity))

    def fatal(self, reason: str, field: str = "file", row: int | None = None) -> None:
        self.add(row, field, reason, "fatal")

    @property
    def has_fatal(self) -> bool:
        return any(p.severity == "fatal" for p in self.problems)
