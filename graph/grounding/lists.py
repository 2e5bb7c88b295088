"""Lists inside a textbook sentence ("第一顺序为配偶、子女、父母，第二顺序为兄弟姐妹…"): an option the
stem asks about under one head but the sentence lists under another is contradicted."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import lru_cache

from graph.grounding.book import Passage
from graph.grounding.text import bare, content_runs, coverage, grams, normalise

_LIST_CLAUSE = re.compile(r"[，,；;。]")
_LIST = re.compile(
    r"[\u4e00-\u9fff]{1,12}(?:、[\u4e00-\u9fff]{1,12})+(?:(?:和|及|或者|以及)[\u4e00-\u9fff]{1,12})?"
)
_ITEM_SPLIT = re.compile(r"、|和|及|或者|以及")
_LINKS = ("是", "为", "包括", "包含", "有", "即")
_LEAD_IN = re.compile(r"^(.*[：:])\s*(?:[（(]1[）)]|1[、.．]|①)")
_ITEM_NUMBER = re.compile(r"^(?:[（(]\d{1,2}[）)]|\d{1,2}[、.．]|[①-⑳])")
# How far into an item the head it is about is named, and how much of a listed item names it.
_HEAD_REACH = 8
_NAME = 4


@lru_cache(maxsize=1 << 16)
def lists(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(head, items) of every list the sentence makes: "第一顺序是配偶、子女、父母" → ("第一顺序是", […]).
    The first item is cut from the words before it after a linking verb, else at the length of the longest
    other item."""
    found = []
    for part in _LIST_CLAUSE.split(text):
        match = _LIST.search(part)
        if not match:
            continue
        items = [i for i in _ITEM_SPLIT.split(match.group()) if i]
        first = items[0]
        link = (
            max(first.rfind(verb) + len(verb) for verb in _LINKS if verb in first)
            if any(v in first for v in _LINKS)
            else -1
        )
        cut = link if link > 0 else max(0, len(first) - max(len(i) for i in items[1:]))
        items[0] = first[cut:]
        found.append((part[: match.start()] + first[:cut] + part[match.end() :], tuple(items)))
    return tuple(found)


def list_verdict(clause: str, option: str, passage: Passage) -> tuple[str, str]:
    """("supported" | "contradicted" | "", reason) for an option the sentence lists: under the head the stem
    names it is supported; under another head, with the named one in the same sentence, contradicted
    ("第二顺序是兄弟姐妹…" against "属于第一顺序…的有兄弟姐妹")."""
    if not option:
        return "", ""
    item = bare(option)
    stem = grams(clause.replace(option, ""))
    found = lists(passage.norm)
    holding = [head for head, items in found if any(_holds(bare(i), item) for i in items)]
    named = [head for head, _ in found if content_runs(head) and coverage(head, stem) >= 0.99]
    if not holding or not named:
        return "", ""
    if any(head in named for head in holding):
        return "supported", f"属于教材“{_plain(named[0])}”所列各项"
    return "contradicted", f"教材中“{option}”属于“{_plain(holding[0])}”，而非“{_plain(named[0])}”"


def _holds(item: str, option: str) -> bool:
    """The option is the item, perhaps with whose it is before it ("房屋的朝向" for "朝向"); "外祖父母" is
    not "父母"."""
    owner = option.removesuffix(item)
    return item == option or (len(item) >= 2 and owner != option and owner.endswith("的") and len(owner) <= 4)


def _plain(head: str) -> str:
    words = "".join(content_runs(head))
    for link in _LINKS:
        words = words.removesuffix(link)
    return words.removesuffix("的")


def item_head(passage: Passage) -> tuple[str, tuple[str, ...]]:
    """(what a numbered item is about, the other things its lead lists) when the lead lists the heads the
    items take in turn ("房源信息由物理属性、法律属性和心理属性三部分构成：（1）物理属性是指…"); ("", ())
    otherwise."""
    lead, body = passage.lead, passage.text
    joined = _LEAD_IN.match(body) if not lead else None
    if joined:  # the lead and its first item read as one sentence
        lead, body = joined.group(1), body[joined.end(1) :]
    opening = _ITEM_NUMBER.sub("", normalise(body).lstrip())[:_HEAD_REACH]
    for _, items in lists(normalise(lead)):
        named = {item: _opens(opening, item) for item in items}
        own = [item for item, name in named.items() if name]
        if len(own) == 1:
            return named[own[0]], tuple(item for item in items if item != own[0] and len(item) >= 2)
    return "", ()


def _opens(opening: str, item: str) -> str:
    """The words of a listed item the item's text opens with ("心理属性" of "心理属性三部分"), "" if none."""
    length = next((n for n in range(len(opening), 1, -1) if opening[:n] in item), 0)
    return opening[:length] if length >= min(3, len(item)) else ""


def names(text: str, item: str) -> bool:
    """The text names the listed item, read as the list cut it ("法律属性" in "信息由物理属性、法律属性")."""
    reach = min(_NAME, len(item))
    return any(item[at : at + reach] in text for at in range(len(item) - reach + 1))


# What joins the conjuncts of a coordinated phrase ("房屋买卖、赠与和互换").
_CONJUNCTION = re.compile(r"、|和|及|与|或")
# The shortest option that can be read as one conjunct with the words the conjuncts share.
_CONJUNCT_OPTION = 3


@lru_cache(maxsize=1 << 16)
def conjunct_of(option: str, item: str) -> bool:
    """The option is one conjunct of a coordinated item with the words the conjuncts share: "房屋赠与" of
    "房屋买卖、赠与和互换", "作为独立使用的车库" of "作为独立使用的地下室、车棚、车库". Every word of the
    option is in the item in its order, and what the item has besides is whole conjuncts with what joins
    them — never a word of the option's own, a negation or a figure."""
    said, written = bare(option), normalise(item).strip("，,；;。：:")
    if len(said) < _CONJUNCT_OPTION or not _CONJUNCTION.search(written) or said == written:
        return False
    taken = 0
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, said, written, autojunk=False).get_opcodes():
        extra = written[j1:j2]
        if tag == "equal":
            taken += i2 - i1
        elif tag != "insert" or re.search(r"[\d不未无非没]", extra):
            return False  # the option has words the item does not, or the item a negation or figure more
        elif not j1 or not (
            _CONJUNCTION.match(extra) or (j2 < len(written) and _CONJUNCTION.match(extra[-1]))
        ):
            return False  # the shared words it opens with left out, or words that are no whole conjunct
    return taken == len(said)
