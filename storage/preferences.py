"""A learner's standing choices: the /quiz defaults, where questions come from, a difficulty, and a daily
reminder in their own time zone.

Kept per user, not per chat, so the defaults follow the learner into any private chat and survive restarts.
The interface language is not here: it is `users.locale`, which /lang already sets.
"""

from __future__ import annotations

import re
import sqlite3
import zoneinfo
from dataclasses import dataclass, field, replace
from typing import Any

from storage.db import Connection, Database, fetch_one, require
from storage.errors import InvalidValueError, SchemaError, check_choice
from storage.quiz_settings import QuizSettings, stored_settings
from storage.users import Locale
from vocabulary.kinds import DIFFICULTIES, SOURCES, Difficulty, Source

_CLOCK_TIME = re.compile(r"([01]\d|2[0-3]):[0-5]\d")


@dataclass(frozen=True)
class Preferences:
    """`difficulty` None is 不限; `reminder` is "HH:MM" in `time_zone`, None while reminders are off (the
    default); `time_zone` None means "the bot's configured zone", as a None locale means its language."""

    quiz: QuizSettings = field(default_factory=QuizSettings)
    source: Source = "generated"
    difficulty: Difficulty | None = None
    reminder: str | None = None
    time_zone: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.quiz, QuizSettings):
            raise InvalidValueError(f"quiz: {self.quiz!r} is not quiz settings")
        check_choice("source", self.source, SOURCES)
        check_choice("difficulty", self.difficulty, (None, *DIFFICULTIES))
        if self.reminder is not None and not (
            isinstance(self.reminder, str) and _CLOCK_TIME.fullmatch(self.reminder)
        ):
            raise InvalidValueError(
                f"reminder: {self.reminder!r} is not a time of day as HH:MM (00:00–23:59)"
            )
        if self.time_zone is not None:
            check_time_zone(self.time_zone)


def check_time_zone(name: object) -> None:
    """Refuse a zone the tz database does not know, naming it ("Asia/Shanghai", "Europe/Berlin", "UTC")."""
    try:
        if not isinstance(name, str) or not name:
            raise ValueError
        zoneinfo.ZoneInfo(name)
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        raise InvalidValueError(
            f"time_zone: {name!r} is not a time zone name such as 'Asia/Shanghai' or 'UTC'"
        ) from None


@dataclass(frozen=True)
class ReminderRow:
    """A learner whose daily reminder is on, with what the reminder needs to say and whom to."""

    user_id: int
    reminder: str
    time_zone: str | None
    locale: Locale | None


class PreferenceRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, user_id: int) -> Preferences:
        """The stored preferences, or the defaults for a learner who never changed any."""
        row = await self.db.fetch_one("SELECT * FROM preferences WHERE user_id = ?", (user_id,))
        return _preferences(row) if row is not None else Preferences()

    async def put(self, user_id: int, preferences: Preferences) -> Preferences:
        async with self.db.transaction() as conn:
            await require(conn, [("user", "users", user_id)])
            await _write(conn, user_id, preferences, self.db.now())
        return preferences

    async def update(self, user_id: int, **changes: Any) -> Preferences:
        """Change some fields and keep the rest, in one transaction (two quick taps in /settings must not
        undo each other); an unknown field or a bad value is named."""
        async with self.db.transaction() as conn:
            await require(conn, [("user", "users", user_id)])
            row = await fetch_one(conn, "SELECT * FROM preferences WHERE user_id = ?", (user_id,))
            current = _preferences(row) if row is not None else Preferences()
            try:
                changed = replace(current, **changes)
            except TypeError as exc:
                raise InvalidValueError(f"unknown preference in {sorted(changes)}: {exc}") from None
            await _write(conn, user_id, changed, self.db.now())
        return changed

    async def with_reminders(self) -> list[ReminderRow]:
        """Every learner whose reminder is on: what start-up re-arms."""
        rows = await self.db.fetch_all(
            "SELECT p.user_id, p.reminder, p.time_zone, u.locale FROM preferences p "
            "JOIN users u ON u.id = p.user_id WHERE p.reminder IS NOT NULL ORDER BY p.user_id"
        )
        return [ReminderRow(**row) for row in rows]


async def _write(conn: Connection, user_id: int, preferences: Preferences, now: float) -> None:
    await conn.execute(
        "INSERT INTO preferences (user_id, quiz, source, difficulty, reminder, time_zone, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET quiz = excluded.quiz, "
        "source = excluded.source, difficulty = excluded.difficulty, reminder = excluded.reminder, "
        "time_zone = excluded.time_zone, updated_at = excluded.updated_at",
        (
            user_id,
            preferences.quiz.to_json(),
            preferences.source,
            preferences.difficulty,
            preferences.reminder,
            preferences.time_zone,
            now,
        ),
    )


def _preferences(row: sqlite3.Row) -> Preferences:
    owner = f"preferences of user {row['user_id']}"
    try:
        return Preferences(
            quiz=stored_settings(row["quiz"], owner),
            source=row["source"],
            difficulty=row["difficulty"],
            reminder=row["reminder"],
            time_zone=row["time_zone"],
        )
    except InvalidValueError as exc:
        raise SchemaError(f"{owner}: unreadable: {exc}") from exc
