"""Sentences that state something checkable but fit no typed pattern, and formulas, as `statement` facts.

Grounding needs every claim of the book to have a fact to point at; headings ("一、契税的计税依据"), list
heads that lost their list, and signposts ("下面分别介绍。") claim nothing and stay out.
"""

from __future__ import annotations

import re

from retrieval.facts import Fact

_HEADING = re.compile(
    r"^(?:[一二三四五六七八九十]+、|（[一二三四五六七八九十]+）|第[一二三四五六七八九十\d]+[篇章节条])"
)
_SIGNPOST = re.compile(r"^(?:下面|以下|本节|本章|如下|接下来|下文|上文|前面|现将|具体如下|举例|例如)")
_ENDS = ("。", "！", "；", "!", ";")
_MIN_LENGTH = 8


def is_statement(sentence: str) -> bool:
    text = sentence.strip()
    return (
        len(text) >= _MIN_LENGTH
        and text.endswith(_ENDS)
        and not _HEADING.match(text)
        and not _SIGNPOST.match(text)
    )


def statement_fact(sentence: str) -> Fact:
    return Fact(id="", kind="statement", slice_id="", source=sentence)


def formula_fact(formula: str) -> Fact | None:
    """ "契税 = 计税依据 × 适用税率": a statement whose subject is what the formula computes."""
    left, equals, _ = formula.partition("=")
    if not equals or not left.strip():
        return None
    subject = left.split("：")[-1].split(":")[-1].strip()
    return Fact(id="", kind="statement", slice_id="", source=formula, subject=subject)
