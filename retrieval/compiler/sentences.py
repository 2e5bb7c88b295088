"""Textbook prose cut into sentences, with a numbered list kept whole with its head.

A fact quotes its sentence verbatim, so a sentence is always a span of the slice text. A list whose items
end in "。" or stand on lines of their own ("有下列情形之一的：\\n（1）……；\\n（2）……。") would otherwise
become a head without items and items without a head; those pieces are joined back into one span.
"""

from __future__ import annotations

import re

_OPENING = "（(《“‘「【[〔"
_CLOSING = "）)》”’」】]〕"
_ENDS = "。！？!?"
LIST_MARKER = re.compile(
    r"^(?:（\s*\d{1,2}\s*）|\(\s*\d{1,2}\s*\)|[①-⑳]|\d{1,2}\s*[、.．](?!\d)|[一二三四五六七八九十]是)"
)
_HEADS = ("：", ":")


def _pieces(text: str) -> list[tuple[int, int]]:
    """Spans ending at a full stop outside brackets, or at a line end; surrounding whitespace trimmed."""
    spans: list[tuple[int, int]] = []
    depth, start = 0, 0
    for index, char in enumerate(text):
        if char in _OPENING:
            depth += 1
        elif char in _CLOSING:
            depth = max(depth - 1, 0)
        if char == "\n" or (char in _ENDS and depth == 0):
            spans.append((start, index + (char != "\n")))
            start, depth = index + 1, 0
    spans.append((start, len(text)))
    trimmed = []
    for begin, end in spans:
        piece = text[begin:end]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            trimmed.append((begin + lead, begin + len(piece.rstrip())))
    return trimmed


def _opens_list(piece: str) -> bool:
    """A head ("……如下：") or a list still going (its last item ends in "；")."""
    return piece.endswith(_HEADS) or (piece.endswith(("；", ";")) and any(h in piece for h in _HEADS))


def split_sentences(text: str) -> list[str]:
    spans: list[tuple[int, int]] = []
    for begin, end in _pieces(text):
        piece = text[begin:end]
        if spans:
            previous = text[spans[-1][0] : spans[-1][1]]
            listed = LIST_MARKER.match(piece) and (
                _opens_list(previous) or LIST_MARKER.search(previous) or has_inline_list(previous)
            )
            if listed or _opens_list(previous):
                spans[-1] = (spans[-1][0], end)
                continue
        spans.append((begin, end))
    return [text[begin:end] for begin, end in spans]


_INLINE_MARKER = re.compile(r"（\s*[12]\s*）|\(\s*[12]\s*\)|[①②]")


def has_inline_list(text: str) -> bool:
    return bool(_INLINE_MARKER.search(text))
