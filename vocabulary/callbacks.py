"""Callback data: what the bot's buttons carry, and the only place that writes or reads it.

A press brings back whatever the client sends, forged or from an old version of the bot, so each kind of
button is declared once with the bounds of every field: the registration pattern, the builder and the
parser all come from that declaration. Data outside the bounds matches no handler and falls through to the
stale-button notice instead of raising inside one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from vocabulary.kinds import DIFFICULTIES, FEEDBACK_REASONS, MODES, SESSION_TYPES, SOURCES

# Telegram's limit on callback data, in bytes.
MAX_BYTES = 64


@dataclass(frozen=True)
class Field:
    """One `:`-separated part of the data: its pattern (no `:` inside) and how the parsed text is typed."""

    pattern: str
    convert: Callable[[str], Any] = str


def one_of(*values: str) -> Field:
    return Field("|".join(re.escape(v) for v in values))


# An id has at most 18 digits: SQLite's integers hold 19, so every id in range is one the store can look up.
ID = Field(r"\d{1,18}", int)
# The /quiz dialogue's nonce; a timed round's dialogue marks its own with a leading "g".
NONCE = Field(r"[0-9a-f]{1,16}")
ROUND_NONCE = Field(r"g[0-9a-f]{1,16}")
REASON = one_of(*FEEDBACK_REASONS)


def _step(raw: str) -> tuple[str, str | int]:
    name, value = raw.split(":", 1)
    return name, int(value) if value.isdigit() else value


# A settings step: a page, chapter index, count, seconds or pause (a number); or a named choice. Numbers are
# typed here, so neither dialogue converts a value on its own. `ch:done` closes a choice of several chapters,
# `go:defaults` starts at once with the learner's /settings, `end:yes|no` answers "end the running session?".
_CHOICES = [
    r"(?:page|ch|count|sec|gap):\d{1,4}",
    "ch:(?:all|calc|done)",
    f"type:(?:{one_of(*SESSION_TYPES).pattern})",
    f"mode:(?:{one_of(*MODES).pattern})",
    f"diff:(?:{one_of(*DIFFICULTIES, 'any').pattern})",
    f"src:(?:{one_of(*SOURCES).pattern})",
]
STEP = Field("|".join([*_CHOICES, "go:defaults", "end:(?:yes|no)"]), _step)
# A /settings press: open a part (`open:…`, `open:main` goes back), or set a value; a reminder hour or a time
# zone is an index into the menu's own list (`rem:off` turns reminders off).
SETTING = Field(
    "|".join(
        [
            *_CHOICES,
            "open:(?:main|ch|type|mode|count|diff|src|lang|rem|tz)",
            "lang:[a-z]{2,3}",
            r"(?:rem|tz):\d{1,2}",
            "rem:off",
        ]
    ),
    _step,
)


@dataclass(frozen=True)
class Button:
    """A kind of button: `prefix` then its fields, joined by `:`."""

    prefix: str
    fields: tuple[Field, ...] = ()

    @property
    def pattern(self) -> str:
        """The registration pattern: exactly this button's data, every field within its bounds."""
        return self._regex("(?:{})")

    def _regex(self, group: str) -> str:
        return "^" + ":".join([re.escape(self.prefix), *(group.format(f.pattern) for f in self.fields)]) + "$"

    def build(self, *values: object) -> str:
        """The data for a button; a value out of bounds is a bug in the caller, so it raises."""
        data = ":".join([self.prefix, *(str(v) for v in values)])
        if len(values) != len(self.fields) or re.fullmatch(self.pattern, data) is None:
            raise ValueError(f"callback data {data!r} does not fit the {self.prefix!r} button")
        if len(data.encode()) > MAX_BYTES:
            raise ValueError(f"callback data {data!r} is longer than Telegram's {MAX_BYTES} bytes")
        return data

    def parse(self, data: str | None) -> tuple[Any, ...] | None:
        """The typed fields of a press on this button; None when the data is not this button's."""
        match = re.fullmatch(self._regex("({})"), data or "")
        if match is None:
            return None
        return tuple(field.convert(raw) for field, raw in zip(self.fields, match.groups(), strict=True))


LANGUAGE = Button("lang", (Field(r"[a-z]{2,3}"),))
SETUP = Button("qs", (NONCE, STEP))
SETTINGS = Button("st", (NONCE, SETTING))
ROUND_SETUP = Button("qs", (ROUND_NONCE, STEP))
ROUND_CONFIRM = Button("sr", (ID, one_of("go", "no")))
RETRY = Button("qr", (ID,))
AGAIN = Button("again")
# Start a round of the questions due for review (错题重练): under the results card and the daily reminder.
REVIEW = Button("review")
VOTE = Button("vote", (ID, one_of("up", "down")))
REASON_CHOSEN = Button("fb", (ID, REASON))
COMMENT_SKIPPED = Button("fg", (ID, REASON))
REPORT = Button("rp", (ID, REASON))
FIX = Button("fix", (ID, ID))
PREVIEW = Button("rv", (ID, ID, one_of("pub", "drop")))
# The results card's 再来一轮: the finished session's settings again.
REPEAT = Button("rerun", (ID,))
# The label under a revised quiz that names its report: a note, not an action (it gets the stale notice).
NOTE = Button("note", (ID,))


def setup_step(nonce: str, step: str, value: object) -> str:
    """A settings button of either dialogue: a timed round's nonce starts with "g"."""
    return (ROUND_SETUP if nonce.startswith("g") else SETUP).build(nonce, f"{step}:{value}")
