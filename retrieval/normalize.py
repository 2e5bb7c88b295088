"""One canonical form for the text that arrives from exported spreadsheets and hand-written JSONL.

Exports mix NBSP, full-width spaces and tabs, half- and full-width brackets, and a dozen ways to write an
answer. Everything later (ids, duplicate checks, chapter alignment, what /quiz shows) compares normalised
text, so the rules live here and nowhere else.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from retrieval.models import MASTERY_LEVELS, PATH_SEPARATOR, Mastery

# Zero-width characters and the BOM carry no meaning but break equality.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))
_SPACES = re.compile(r"\s+")  # str.split semantics: includes NBSP, U+3000 and tabs
_BLANK = re.compile(r"[（(]\s*[）)]")
_POINT = re.compile(r"^(?P<point>.*?)\s*[（(]\s*(?P<mastery>掌握|熟悉|了解)\s*[）)]$")
_ANSWER_SEPARATORS = re.compile(r"[\s,，、;；/|]+")

ANSWER_BLANK = "（\u3000）"
TRUE_WORDS = frozenset({"正确", "对", "是", "√", "✓", "✔", "Y", "YES", "T", "TRUE"})
FALSE_WORDS = frozenset({"错误", "错", "否", "×", "✗", "✘", "X", "N", "NO", "F", "FALSE"})


def clean_text(value: str) -> str:
    """One line: every run of whitespace (NBSP, U+3000, tabs, newlines) becomes one space; ends stripped."""
    return _SPACES.sub(" ", value.translate(_INVISIBLE)).strip()


def clean_multiline(value: str) -> str:
    """Like `clean_text` per line, keeping the line structure of explanations and textbook text."""
    lines = (clean_text(line) for line in value.translate(_INVISIBLE).splitlines())
    return "\n".join(line for line in lines if line)


def split_path(value: str) -> tuple[str, ...]:
    """Path levels in canonical form: whitespace runs inside a level become one space, so the tree and
    /quiz show "第四篇 交易税费" whichever spacing the file used. Empty levels are kept for the caller
    to report."""
    return tuple(clean_text(level) for level in value.replace("＞", ">").split(">"))


def join_path(levels: tuple[str, ...]) -> str:
    return PATH_SEPARATOR.join(levels)


def normalize_blank(stem: str) -> str:
    """Every answer blank — `()`, `（ ）`, `(　)` — becomes the exam's `（　）`."""
    return _BLANK.sub(ANSWER_BLANK, stem)


def parse_mastery(value: str) -> Mastery | None:
    """Accepts the bare level and decorated forms such as "重点掌握" as long as exactly one level is named."""
    text = clean_text(value)
    found = [level for level in MASTERY_LEVELS if level in text]
    return found[0] if len(found) == 1 else None


def parse_point(value: str) -> tuple[str, Mastery | None]:
    """Splits "贝壳战略（了解）" into the point and its mastery level; brackets may be half- or full-width."""
    text = clean_text(value)
    match = _POINT.match(text)
    if match is None:
        return text, None
    return match["point"], match["mastery"]  # type: ignore[return-value]


def answer_letters(value: str) -> str | None:
    """ "abd", "A,B", "A、B", "A B", "ＡＢ" → sorted unique letters; None if anything else remains."""
    text = _ANSWER_SEPARATORS.sub("", unicodedata.normalize("NFKC", value)).upper()
    if not text or not text.isascii() or not text.isalpha():
        return None
    return "".join(sorted(set(text)))


def judge_value(value: str) -> bool | None:
    """True/false as written in a cell (对/错, Y/N, √/× …); None when the text is neither."""
    text = clean_text(unicodedata.normalize("NFKC", value)).upper()
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    return None


def strip_option_label(option: str, index: int) -> str:
    """Removes a leading "A." / "A、" / "(A)" only if it is this option's own letter: "A级资质" survives."""
    letter = chr(ord("A") + index)
    pattern = rf"^[（(]?[{letter}{letter.lower()}{chr(ord('Ａ') + index)}][）)]?[\.．、:：)）\s]\s*"
    stripped = re.sub(pattern, "", option, count=1)
    return stripped if stripped else option


def stable_id(prefix: str, key: str, taken: set[str]) -> str:
    """A short id that stays the same across imports as long as `key` does; repeats get -2, -3 …"""
    base = f"{prefix}{hashlib.sha1(key.encode('utf-8')).hexdigest()[:10]}"
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}-{n}"
    taken.add(candidate)
    return candidate
