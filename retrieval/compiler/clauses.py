"""The clause structure of one sentence: which clauses state a rule and which set its condition.

Chinese rules put the condition first: "个人购买家庭第二套住房，面积为140平方米及以下的，契税减按1%征收；面
积为140平方米以上的，减按2%征收。" Segments (split at "；") hold clauses (split at "，"); a clause ending in
的 or 时 or opening with 如果/自…起 is a condition, and a plain clause before a condition is the sentence's
topic ("个人购买家庭第二套住房"), which belongs to the condition too. A later segment that opens with its
own condition shares the topic but not the earlier, parallel condition, so the 2% above holds under "个人购
买家庭第二套住房，面积为140平方米以上", not under both areas.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_OPENING = "（(《“‘「【[〔"
_CLOSING = "）)》”’」】]〕"
_BRACKETED = re.compile(f"[{re.escape(_OPENING + _CLOSING)}]")
# A clause naming what a rule covers ("…50%的部分，税率为30%", "…取得的所得，免征") reads as a condition too.
_CONDITION_END = re.compile(
    r"(?:的|时|之前|之后|以前|以后|前|后|期间|的情况下|情形下|条件下|的(?:情形|部分|所得|收入|房屋|住房))$"
)
_STATED = re.compile(
    r"的(?:情形|部分|所得|收入|房屋|住房)?$"
)  # a 的-condition states a case; time phrases (…时, 自…起) only place it
_MARKER = re.compile(r"^(?:（\s*\d{1,2}\s*）|\(\s*\d{1,2}\s*\)|[①-⑳])\s*")
_ALTERNATIVE = re.compile(r"^(?:或者|或是|或)")
_CONDITION_START = re.compile(
    r"^(?:如果|若|凡是|凡|只要|一旦|假如|倘若|对于|自.+起$|从.+起$|在.+(?:时|后|前|中)$)"
)
_TRAILING_PUNCTUATION = "。；;，,！？!?：: "


@dataclass(frozen=True)
class Rule:
    """Main clauses and the condition clauses (as written, inherited ones first) they hold under;
    `own` are the condition clauses written in this rule itself, where a bound in a condition is read."""

    conditions: tuple[str, ...]
    own: tuple[str, ...]
    main: tuple[str, ...]


def split_outside_brackets(text: str, separators: str) -> list[str]:
    """`text` cut at `separators` outside brackets; a "," between digits ("86,276.63") is no separator."""
    if not _BRACKETED.search(text) and "," not in separators:
        return re.split(f"[{re.escape(separators)}]", text)  # the common case, without a character loop
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char in _OPENING:
            depth += 1
        elif char in _CLOSING:
            depth = max(depth - 1, 0)
        elif char in separators and depth == 0 and not _in_number(text, index):
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return parts


def _in_number(text: str, index: int) -> bool:
    return (
        text[index] == ","
        and 0 < index < len(text) - 1
        and text[index - 1].isdigit()
        and text[index + 1].isdigit()
    )


def bracket_depths(text: str) -> list[int]:
    """How deep inside brackets each character of `text` sits: asides like "（含2年）" are depth 1."""
    if not _BRACKETED.search(text):
        return [0] * len(text)
    depths, depth = [], 0
    for char in text:
        if char in _OPENING:
            depth += 1
        depths.append(depth)
        if char in _CLOSING:
            depth = max(depth - 1, 0)
    return depths


def strip_clause(text: str) -> str:
    return text.strip().strip(_TRAILING_PUNCTUATION).strip()


def is_condition(text: str) -> bool:
    return bool(_CONDITION_END.search(text) or _CONDITION_START.match(text))


def condition_text(text: str) -> str:
    """A condition clause as a condition: "面积为140平方米以上的" → "面积为140平方米以上"."""
    return text[:-1] if text.endswith("的") and len(text) > 1 else text


def _rules(clauses: list[str], inherited: list[str]) -> list[Rule]:
    """One segment's rules.

    A plain clause before any 的-condition is the topic ("自…起，个人购买家庭第二套住房，面积…的，"): it
    belongs to the condition. After a 的-condition, plain clauses are main clauses, and a further condition
    opens a new rule ("…的，按1%征收，超过90平方米的，按1.5%征收"), which keeps the first rule's topic and
    time but not its 的-conditions, unless it opens with 或者: an alternative under the same conditions.
    """
    groups: list[tuple[list[str], list[str]]] = [([], [])]
    for text in clauses:
        leading, main = groups[-1]
        if is_condition(text):
            topic = _STATED.search(text) and len(groups) == 1 and not any(_STATED.search(c) for c in leading)
            if main and topic:
                leading.extend(main)  # the topic
                main.clear()
            elif main:
                groups.append(([], []))
            groups[-1][0].append(text)
        else:
            main.append(text)
    found: list[Rule] = []
    for leading, main in groups:
        carried = list(inherited)
        if found:
            first = found[0].own
            alternative = bool(leading) and bool(_ALTERNATIVE.match(leading[0]))
            carried += list(first) if alternative else [c for c in first if not _STATED.search(c)]
        # 或者 opening a rule joins it to the previous one; inside a rule it joins two conditions, and stays.
        own = tuple(_ALTERNATIVE.sub("", t) if i == 0 and found else t for i, t in enumerate(leading))
        found.append(Rule((*carried, *own), own, tuple(main)))
    return found


def _without_last_condition(conditions: list[str]) -> list[str]:
    """Drops the last condition with the alternatives 或者 joins to it ("未完成事项，或者未达标准的")."""
    kept = list(conditions)
    while kept:
        dropped = kept.pop()
        if not _ALTERNATIVE.match(dropped):
            break
    return kept


@lru_cache(maxsize=4096)
def rules(sentence: str) -> tuple[Rule, ...]:
    """The rules of a sentence. A segment (after "；") that opens with its own condition shares the first
    segment's topic and earlier conditions, but not the first segment's last condition, which it replaces."""
    found: list[Rule] = []
    shared: list[str] = []
    everything: list[str] = []
    for index, raw in enumerate(split_outside_brackets(sentence, "；;。")):
        parts = (_MARKER.sub("", strip_clause(part)) for part in split_outside_brackets(raw, "，,"))
        texts = [text for text in parts if text]
        if not texts:
            continue
        # A later segment with a condition of its own replaces the first one's last condition; one without
        # continues under all of them ("违反规定的，责令改正；对经纪人员处以1万元罚款").
        inherited = (shared if is_condition(texts[0]) else everything) if index else []
        segment_rules = _rules(texts, inherited)
        if not found and segment_rules:
            shared = _without_last_condition(list(segment_rules[0].own))
            everything = list(segment_rules[0].own)
        found.extend(segment_rules)
    return tuple(found)


def joined(conditions: list[str]) -> str:
    return "，".join(condition_text(text) for text in conditions if text)
