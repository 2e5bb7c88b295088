"""Canonical question text: the `（　）` blank, option letters, the three-part explanation, Telegram's limits.

The writer applies these; the critic checks their results with the same constants, so the two never disagree
about what "fits" means.
"""

from __future__ import annotations

import re

from graph.schemas import BLANK

STEM_LIMIT = 300
OPTION_LIMIT = 100
SHORT_EXPLANATION_LIMIT = 200
SHORT_EXPLANATION_LINE_BREAKS = 2
MAX_OPTIONS = 12
JUDGE_OPTIONS = ["正确", "错误"]
EXPLANATION_PARTS = ("教材依据", "试题分析", "结论")
LETTERS = "ABCDEFGHIJKL"

_BLANK_VARIANTS = re.compile(r"[（(]\s*[)）]|_{2,}")
_OPTION_PREFIX = re.compile(r"^\s*[A-La-l]\s*[.．、:：)）]\s*")
_SPACES = re.compile(r"[ \t\u00a0\u3000]+")
_PART_SPLIT = re.compile(r"(教材依据|试题分析|结论)\s*[：:]")


def clean_text(text: str) -> str:
    return _SPACES.sub(" ", text.replace("\r\n", "\n")).strip()


def with_blank(stem: str) -> str:
    """Every stem shows where the answer goes; variants such as `( )` become the canonical blank."""
    stem = _BLANK_VARIANTS.sub(BLANK, clean_text(stem))
    if BLANK in stem:
        return stem
    body = stem.rstrip("。.？?！!；;")
    tail = stem[len(body) :]
    return f"{body}{BLANK}{tail or '。'}"


def strip_option_prefix(option: str) -> str:
    return clean_text(_OPTION_PREFIX.sub("", option, count=1))


def normalise_answer(answer: str | list[str], option_count: int) -> list[str]:
    letters = "".join(answer) if isinstance(answer, list) else answer
    picked = {ch for ch in letters.upper() if ch in LETTERS[:option_count]}
    return sorted(picked)


def explanation_parts(explanation: str) -> dict[str, str]:
    """Split a three-part explanation into its named parts (missing parts are absent from the dict)."""
    pieces = _PART_SPLIT.split(explanation)
    parts: dict[str, str] = {}
    for name, body in zip(pieces[1::2], pieces[2::2], strict=False):
        parts[name] = body.strip()
    return parts


def compose_explanation(basis: str, analysis: str, conclusion: str) -> str:
    return f"教材依据：{basis.strip()}\n试题分析：{analysis.strip()}\n结论：{conclusion.strip()}"


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    window = text[: limit - 1]
    stop = max(window.rfind(mark) for mark in "。；;！？")
    return window[: stop + 1] if stop >= limit // 3 else window + "…"


def short_explanation(explanation: str) -> str:
    """The poll's explanation: conclusion first, then as much analysis as fits 200 chars and 2 line breaks."""
    parts = explanation_parts(explanation)
    if not parts:
        return _cut(clean_text(explanation).replace("\n", " "), SHORT_EXPLANATION_LIMIT)
    conclusion = parts.get("结论", "")
    analysis = parts.get("试题分析", "") or parts.get("教材依据", "")
    head = f"结论：{conclusion}" if conclusion else ""
    room = SHORT_EXPLANATION_LIMIT - len(head) - 1
    if head and room < 20:
        return _cut(head, SHORT_EXPLANATION_LIMIT)
    body = _cut(analysis.replace("\n", " "), room) if analysis else ""
    return "\n".join(part for part in (head, body) if part)


def fits_short_explanation(text: str) -> bool:
    return len(text) <= SHORT_EXPLANATION_LIMIT and text.count("\n") <= SHORT_EXPLANATION_LINE_BREAKS


def conclusion_letters(explanation: str, qtype: str) -> str | None:
    """The answer the explanation's conclusion states, if it states one recognisably."""
    conclusion = explanation_parts(explanation).get("结论") or ""
    if not conclusion:
        return None
    found = re.search(r"(?:选|答案[为是]?|选项)\s*[：:]?\s*([A-L](?:\s*[、,，和及与]?\s*[A-L])*)", conclusion)
    if found:
        return "".join(sorted(set(re.findall(r"[A-L]", found.group(1)))))
    if qtype == "judge":
        if re.search(r"(错误|不正确|不对|不成立|×)", conclusion):
            return "B"
        if re.search(r"(正确|成立|√)", conclusion):
            return "A"
    return None


_NUMBER = re.compile(r"(\d[\d,，]*(?:\.\d+)?)\s*(万元|万|%|％|元)?")


def numbers_in(text: str) -> list[float]:
    """Numbers as a reader means them: `3万元` is 30000, `1.5%` is 0.015, `30,000元` is 30000."""
    values = []
    for raw, unit in _NUMBER.findall(text):
        value = float(raw.replace(",", "").replace("，", ""))
        if unit in ("万元", "万"):
            value *= 10000
        elif unit in ("%", "％"):
            value /= 100
        values.append(value)
    return values


def same_number(a: float, b: float) -> bool:
    """Equal as stated: money to the cent; a fraction (a rate or ratio below 1) to half a basis point."""
    if abs(b) < 1:
        return abs(a - b) < 5e-5
    return abs(a - b) <= 0.01 + 1e-9
