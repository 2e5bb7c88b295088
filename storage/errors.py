"""Errors the store raises, each worded for the person who has to act on it.

Handlers catch `StorageError` to answer the user instead of crashing; the subclasses say whether the
database file, a missing row or a lifecycle rule was the cause.
"""

from __future__ import annotations

from settings.errors import StartupError


class StorageError(Exception):
    """Anything the store refuses or cannot do."""


class SchemaError(StorageError):
    """The database file cannot be used by this code: not SQLite, too new, or a migration failed."""


class DatabaseFileError(SchemaError, StartupError):
    """The file itself cannot serve (folder, permissions, not SQLite, damaged pages): found while opening, so
    a command stops before its first update instead of failing every one of them."""


class NotFoundError(StorageError, LookupError):
    """A call named a row (user, chat, question version …) that is not stored."""


class ConflictError(StorageError):
    """The call contradicts what is stored, e.g. a second live round in one chat."""


class InvalidValueError(StorageError, ValueError):
    """An argument outside what the schema allows; the message names the field and the allowed values."""


def check_choice(field: str, value: object, allowed: tuple[object, ...]) -> None:
    if value not in allowed:
        choices = ", ".join(repr(a) for a in allowed)
        raise InvalidValueError(f"{field}: {value!r} is not one of {choices}")
