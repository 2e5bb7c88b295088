"""What a learner or instructor chose for a /quiz session or a group round, stored as JSON with it.

Validated on the way in and on the way out, so a hand-edited or truncated row is reported by field
instead of breaking generation later.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from storage.errors import InvalidValueError, SchemaError, check_choice
from vocabulary.kinds import (
    DIFFICULTIES,
    MODES,
    QUESTION_SOURCES,
    SESSION_TYPES,
    Difficulty,
    Mode,
    QuestionSource,
    SessionType,
)

MAX_COUNT = 100


@dataclass(frozen=True)
class QuizSettings:
    """`chapters`: (篇, 章) pairs, empty for all of them; `calculation_only` is the 仅计算类 shortcut;
    `difficulty` None is 不限; `versions`: for a review session, the stored question versions it serves, in
    order. Rows stored before `source` and `difficulty` existed mean generated, 不限."""

    chapters: tuple[tuple[str, ...], ...] = field(default_factory=tuple)
    qtype: SessionType = "mixed"
    mode: Mode = "strict"
    count: int = 5
    calculation_only: bool = False
    source: QuestionSource = "generated"
    difficulty: Difficulty | None = None
    versions: tuple[int, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        chapters = self.chapters
        if not isinstance(chapters, list | tuple) or not all(
            isinstance(c, list | tuple) and all(isinstance(part, str) for part in c) for c in chapters
        ):
            raise InvalidValueError(f"chapters: {chapters!r} is not a list of (篇, 章) name pairs")
        # JSON brings lists; tuples keep the settings hashable and comparable.
        object.__setattr__(self, "chapters", tuple(tuple(c) for c in chapters))
        check_choice("qtype", self.qtype, SESSION_TYPES)
        check_choice("mode", self.mode, MODES)
        if (
            isinstance(self.count, bool)
            or not isinstance(self.count, int)
            or not 1 <= self.count <= MAX_COUNT
        ):
            raise InvalidValueError(f"count: {self.count!r} is not a whole number from 1 to {MAX_COUNT}")
        if not isinstance(self.calculation_only, bool):
            raise InvalidValueError(f"calculation_only: {self.calculation_only!r} is not true or false")
        check_choice("source", self.source, QUESTION_SOURCES)
        check_choice("difficulty", self.difficulty, (None, *DIFFICULTIES))
        if not isinstance(self.versions, list | tuple) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in self.versions
        ):
            raise InvalidValueError(f"versions: {self.versions!r} is not a list of question version ids")
        object.__setattr__(self, "versions", tuple(self.versions))

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> QuizSettings:
        unknown = set(data) - {f.name for f in fields(cls)}
        if unknown:
            raise InvalidValueError(f"unknown quiz setting(s): {', '.join(sorted(unknown))}")
        return cls(**data)

    @classmethod
    def from_json(cls, text: str) -> QuizSettings:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidValueError(f"quiz settings are not JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise InvalidValueError(f"quiz settings must be a JSON object, not {type(data).__name__}")
        return cls.from_mapping(data)


def stored_settings(text: str, owner: str) -> QuizSettings:
    """Settings read back from a row; `owner` (e.g. "session 12") says which row to look at if they are
    unreadable."""
    try:
        return QuizSettings.from_json(text)
    except InvalidValueError as exc:
        raise SchemaError(f"{owner}: stored quiz settings are unreadable: {exc}") from exc
