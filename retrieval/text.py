"""Tokenisers that turn Chinese exam text into TF-IDF features.

Two are offered because neither wins everywhere: character n-grams need no dictionary and survive the
typos and rewordings of exam spreadsheets; jieba words are fewer and more meaningful but depend on a
general-purpose dictionary that splits domain terms (满五唯一, 等额本息) unpredictably. Both see the same
normalised text, so the choice only changes how it is cut.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Callable
from functools import cache
from typing import Literal

TokenizerName = Literal["char_ngram", "jieba"]
Tokenizer = Callable[[str], list[str]]

NGRAM_MAX = 3

# A run of letters, digits and ideographs; a decimal point or percent sign stays inside a number so that
# "1.5%" and "15%" remain different features. All else (punctuation, the `（　）` blank) separates runs.
_RUN = re.compile(r"(?:[^\W_]|(?<=\d)\.(?=\d)|(?<=\d)%)+")


def text_runs(text: str) -> list[str]:
    """NFKC-normalised, lower-cased runs of word characters: the parts of a text that carry meaning."""
    return _RUN.findall(unicodedata.normalize("NFKC", text).lower())


def char_ngrams(text: str) -> list[str]:
    """Character 1- to 3-grams, never spanning a punctuation mark, so a comma edit changes few features."""
    grams: list[str] = []
    for run in text_runs(text):
        length = len(run)
        for size in range(1, NGRAM_MAX + 1):
            grams.extend(run[start : start + size] for start in range(length - size + 1))
    return grams


@cache
def _jieba() -> Callable[[str], list[str]]:
    """jieba's dictionary takes about a second to load and logs to stderr: load it once, late, quietly."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return jieba.lcut


def jieba_words(text: str) -> list[str]:
    """jieba words of each run; runs are cut separately so punctuation never glues words together."""
    cut = _jieba()
    return [word for run in text_runs(text) for word in cut(run)]


TOKENIZERS: dict[str, Tokenizer] = {"char_ngram": char_ngrams, "jieba": jieba_words}


def get_tokenizer(name: str) -> Tokenizer:
    try:
        return TOKENIZERS[name]
    except KeyError:
        raise ValueError(f"unknown tokenizer {name!r}; expected one of {', '.join(TOKENIZERS)}") from None
