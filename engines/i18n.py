"""User-facing text: one TOML catalogue per locale in engines/locales/, looked up by key.

A key missing from a locale falls back to Chinese (the reference catalogue), so a partial translation never
shows a raw key; tests check that both catalogues define the same keys and placeholders.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

LOCALES = ("zh", "en")
REFERENCE = "zh"
_FOLDER = Path(__file__).parent / "locales"


@cache
def catalogue(locale: str) -> dict[str, str]:
    if locale not in LOCALES:
        raise ValueError(f"unknown locale {locale!r}; expected one of {', '.join(LOCALES)}")
    return tomllib.loads((_FOLDER / f"{locale}.toml").read_text(encoding="utf-8"))


def text(locale: str, key: str, **values: object) -> str:
    template = catalogue(locale).get(key) or catalogue(REFERENCE)[key]
    return template.format(**values) if values else template


def plural(locale: str, key: str, count: int, **values: object) -> str:
    """`key_one` for exactly one, `key_other` otherwise, with the number as {count}: "1 question",
    "2 questions" (Chinese defines both forms alike)."""
    return text(locale, f"{key}_{'one' if count == 1 else 'other'}", count=count, **values)
