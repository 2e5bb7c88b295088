"""Telegram users as the bot knows them: display name, chosen locale and role."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from storage.db import Database
from storage.errors import NotFoundError, check_choice

Locale = Literal["zh", "en"]
Role = Literal["learner", "instructor"]
LOCALES: tuple[Locale, ...] = ("zh", "en")


@dataclass(frozen=True)
class User:
    """`locale` None means "use the configured default", so changing the default reaches everyone who
    never ran /lang."""

    id: int
    name: str
    username: str | None
    locale: Locale | None
    role: Role
    created_at: float
    updated_at: float


class UserRepository:
    def __init__(self, db: Database) -> None:
        self.db = db
        # What this process last wrote of each user's Telegram names: every update brings them, and
        # rewriting an unchanged row would cost a committed transaction per button press.
        self._written: dict[int, tuple[str, str | None]] = {}

    async def upsert(self, user_id: int, name: str, username: str | None = None) -> None:
        """Refresh what Telegram tells us when it changed; locale and role are ours and stay."""
        if self._written.get(user_id) == (name, username):
            return
        now = self.db.now()
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO users (id, name, username, created_at, updated_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET name = excluded.name, username = excluded.username, "
                "updated_at = excluded.updated_at",
                (user_id, name, username, now, now),
            )
        self._written[user_id] = (name, username)

    async def get(self, user_id: int) -> User | None:
        row = await self.db.fetch_one("SELECT * FROM users WHERE id = ?", (user_id,))
        return User(**row) if row is not None else None

    async def get_locale(self, user_id: int) -> Locale | None:
        """None both for unknown users and for users who never chose: either way the default applies."""
        user = await self.get(user_id)
        return user.locale if user is not None else None

    async def set_locale(self, user_id: int, locale: Locale | None) -> None:
        """None returns the user to the configured default."""
        if locale is not None:
            check_choice("locale", locale, LOCALES)
        await self._update(user_id, "locale", locale)

    async def _update(self, user_id: int, column: str, value: str | None) -> None:
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                f"UPDATE users SET {column} = ?, updated_at = ? WHERE id = ?", (value, self.db.now(), user_id)
            )
            if cursor.rowcount == 0:
                raise NotFoundError(f"user {user_id} is not stored")
