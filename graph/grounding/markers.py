"""The markers a falsification changes and grounding compares once a sentence is about the same thing as a
statement: modal verbs and the act each governs, negations and the words they negate, word opposites in
the same surroundings, and the order of steps."""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

from graph.authors.falsify import OPPOSITES
from graph.grounding.text import (
    CLAUSE_STOPS,
    CONTENT,
    GLUE,
    MODAL_FORMS,
    MODAL_WORDS,
    content_chars,
    coverage,
    grams,
    numbered_bounds,
)
from retrieval.facts import MODAL_OPPOSITES

# Lexicalised words that begin with a negation character but negate nothing.
_NOT_NEGATION = re.compile(
    r"不动产|不可抗力|不同(?!意)|不仅|不断|不论|无论|不管|非常|未来|不良|无偿|无法|不久|无效|非法|并非|无权"
)
_NEGATORS = ("没有", "不再", "不予", "不会", "不", "未", "非", "无")
_NEGATION = re.compile(rf"({'|'.join(_NEGATORS)})([\u4e00-\u9fff]{{2,3}})")
# A phrase that states a condition: a negation in it makes another case, not a contradiction.
_CONDITION = re.compile(r"(?:的|时)$")
# How far after a modal, negation or opposite the words it governs are read.
_GOVERNED = 16
# An act said word for word: this much of the statement's act in the source's, of at least this many words.
_ACT = 0.9
_ACT_WORDS = 6
# By whom the source names: this much of the words before the statement's modal in those before the source's.
_DOER = 0.6
# Modal pairs are left to `modal_flip`, which knows which modals contradict which; comparisons without a
# number and a few more pairs exam statements turn around are added.
_WORD_OPPOSITES = (
    *(pair for pair in OPPOSITES if not any(word in MODAL_FORMS for word in pair)),
    ("多于", "少于"),
    ("大于", "小于"),
    ("最高", "最低"),
    ("递增", "递减"),
    ("出卖人", "买受人"),
    ("有偿", "无偿"),
    ("全部", "一半"),
    ("较大", "较小"),
    ("较高", "较低"),
)


def _after(text: str, end: int) -> frozenset[str]:
    """What a marker governs: the content right after it, to the end of its clause."""
    return grams(CLAUSE_STOPS.split(text[end : end + _GOVERNED])[0])


@dataclass(frozen=True)
class Modal:
    form: str
    meaning: str
    start: int
    end: int


@lru_cache(maxsize=1 << 16)
def modals(text: str) -> tuple[Modal, ...]:
    """Every modal verb of normalised text with the MODAL_OPPOSITES form it means."""
    return tuple(
        Modal(m.group(), MODAL_FORMS[m.group()], m.start(), m.end()) for m in MODAL_WORDS.finditer(text)
    )


def modal_flip(said: str, written: str) -> tuple[str, str] | None:
    """(written modal, said modal) when the statement puts a contradicting modal on the act the source's
    modal governs ("可以仅凭口述填写" where the source has "不得仅凭口述填写")."""
    theirs = [(m, _after(written, m.end)) for m in modals(written)]
    for mine in modals(said):
        governed = _after(said, mine.end)
        # the source modal whose act is most like this one's (shared words over all their words)
        bound = [(len(governed & acts) / len(governed | acts), m) for m, acts in theirs if governed & acts]
        if not bound:
            continue
        closest = max(score for score, _ in bound)
        meanings = {m.meaning for score, m in bound if score == closest}
        if mine.meaning in meanings:
            continue
        flipped = next(
            (
                m
                for score, m in bound
                if score == closest and m.meaning in MODAL_OPPOSITES.get(mine.meaning, ())
            ),
            None,
        )
        if flipped is not None:
            return flipped.form, mine.form
    return None


def marker_meanings(text: str) -> frozenset[str]:
    """The modals and negations normalised text states, by meaning: "不得分摊的" is not "可以分摊的"."""
    return frozenset(m.meaning for m in modals(text)) | ({"not"} if _negations(text) else set())


def act_flip(said: str, written: str) -> tuple[str, str] | None:
    """(written modal, said modal) when the statement puts a contradicting modal on an act the source's
    modal governs word for word (`_ACT` of the statement's act in the source's), done by whom the source
    names (`_DOER` of the words before the statement's modal in the words before the source's): "经纪人员…
    为争取客户可以贬低其他经纪机构的服务质量" against "…经纪人员…不得以贬低、诋毁其他经纪机构…的服务质量
    …招揽业务" — whatever else the two sentences say, that act is forbidden to that doer."""
    for mine in modals(said):
        act = CLAUSE_STOPS.split(said[mine.end : mine.end + _GOVERNED])[0]
        if len(content_chars(act)) < _ACT_WORDS:
            continue
        for theirs in modals(written):
            if theirs.meaning not in MODAL_OPPOSITES.get(mine.meaning, ()):
                continue
            governed = CLAUSE_STOPS.split(written[theirs.end : theirs.end + 2 * _GOVERNED])[0]
            doer = coverage(said[: mine.start], grams(written[: theirs.start]))
            if coverage(act, grams(governed)) >= _ACT and doer >= _DOER:
                return theirs.form, mine.form
    return None


def negatives(text: str) -> list[frozenset[str]]:
    """What each prohibition, exemption or negation of normalised text governs (as bigrams)."""
    governed = [_after(text, m.end) for m in modals(text) if m.meaning in ("不得", "无需")]
    return governed + [grams(phrase) for _, phrase, _ in _negations(text)]


def _negations(text: str) -> list[tuple[str, str, int]]:
    """(negation word, the two or three characters it negates, where they start) — "不", "计入建" — for
    negations that negate something. A bound beside a figure ("不超过3年") is the figure's business; one
    without ("不低于成交价") is negated like any word."""
    stripped = MODAL_WORDS.sub(lambda m: "|" * len(m.group()), numbered_bounds(text))
    return [
        (match.group(1), match.group(2), match.start(2))
        for match in _NEGATION.finditer(stripped)
        if not _NOT_NEGATION.match(stripped, match.start())
    ]


def _affirmed_at(text: str, phrase: str) -> list[int]:
    """Where the phrase occurs in the text without a negation right before it."""
    found = []
    start = text.find(phrase)
    while start >= 0:
        if not any(text.endswith(word, 0, start) for word in _NEGATORS):
            found.append(start)
        start = text.find(phrase, start + 1)
    return found


def _same_place(one: str, at: int, other: str, other_at: int, length: int) -> bool:
    """Two occurrences of a phrase in the same surroundings: the character before or the two after agree."""
    before = one[at - 1 : at] if at else ""
    other_before = other[other_at - 1 : other_at] if other_at else ""
    after, other_after = one[at + length : at + length + 2], other[other_at + length : other_at + length + 2]
    same_before = bool(before) and CONTENT.fullmatch(before) is not None and before == other_before
    same_after = len(after) == 2 and CONTENT.fullmatch(after) is not None and after == other_after
    return same_before or same_after


def negation_flip(said: str, written: str) -> tuple[str, str] | None:
    """(written, said) when the statement negates what the source affirms in the same place, or affirms
    what it negates."""
    for one, other, flipped in ((written, said, False), (said, written, True)):
        for word, phrase, at in _negations(one):
            if word + phrase in other or _CONDITION.search(CLAUSE_STOPS.split(one[at:])[0]):
                continue  # negated on the other side too, or a condition: "价格不相等的" is another case
            negated_at = at - len(word)
            for other_at in _affirmed_at(other, phrase):
                if _same_place(one, negated_at, other, other_at, len(word) + len(phrase)) or _same_place(
                    one, at, other, other_at, len(phrase)
                ):
                    pair = (word + phrase, phrase)
                    return pair[::-1] if flipped else pair
    return None


def opposite_swap(said: str, written: str) -> tuple[str, str] | None:
    """(written word, said word) when the statement has a word's opposite (买方 for 卖方) in the same
    surroundings where the source has only the word."""
    for left, right in _WORD_OPPOSITES:
        for word, opposite in ((left, right), (right, left)):
            if opposite not in said or word in said or word not in written or opposite in written:
                continue
            mine = said.find(opposite)
            theirs = written.find(word)
            near_mine = grams(said[max(0, mine - _GOVERNED) : mine]) | _after(said, mine + len(opposite))
            near_theirs = grams(written[max(0, theirs - _GOVERNED) : theirs]) | _after(
                written, theirs + len(word)
            )
            if near_mine & near_theirs:
                return word, opposite
    return None


def is_opposite(one: str, other: str) -> bool:
    """Whether two words differ as a falsification turns them (卖方 for 买方, 多于 for 少于)."""
    return any(
        {one, other} >= set(pair)
        or (pair[0] in one and pair[1] in other)
        or (pair[1] in one and pair[0] in other)
        for pair in _WORD_OPPOSITES
    )


def sequence(text: str) -> list[str]:
    """The steps of an ordered sequence written with dashes or arrows ("申请—受理—审核"), else []."""
    parts = [p for p in re.split(r"[—–\-→>]+", text) if p]
    return parts if len(parts) >= 3 and all(1 <= len(p) <= 8 for p in parts) else []


# What a modal or a negation makes of the act it governs. A plain negation and a prohibition agree ("不得
# 转让" / "不能转让" / "不转让"); an exemption is its own.
_POLARITY = {"应当": "must", "必须": "must", "可以": "may", "不得": "not", "无需": "neednot"}
# How far before the act a marker may stand ("不得随意拆除": the act 拆除 follows the adverb).
_MARKER_REACH = 3
# Bigrams two acts share to be the same act in another word order.
_SHARED_ACT = 2
_KEY = 4


@dataclass(frozen=True)
class Polar:
    """A modal or a negation, what it makes of the act it governs, where that act starts, and its first
    content characters (`key`, the first two of which find the act where the two sides do not align)."""

    word: str
    polarity: str
    act: int
    key: str


def _act(text: str, start: int) -> tuple[int, str]:
    """Where the act a marker governs starts (glue skipped) and its first content characters."""
    clause = CLAUSE_STOPS.split(text[start : start + _GOVERNED])[0]
    skipped = len(clause) - len(clause.lstrip("".join(GLUE)))
    found = CONTENT.match(clause[skipped:])
    return start + skipped, found.group()[:_KEY] if found else ""


@lru_cache(maxsize=1 << 16)
def polars(text: str) -> tuple[Polar, ...]:
    """Every modal and negation of normalised text with its polarity and the act it governs."""
    found = [Polar(m.form, _POLARITY[m.meaning], *_act(text, m.end)) for m in modals(text)]
    found += [Polar(word, "not", *_act(text, at)) for word, _, at in _negations(text)]
    return tuple(p for p in found if len(p.key) >= 2)


def _marker_before(text: str, at: int) -> Polar | None:
    return next((p for p in polars(text) if 0 <= at - p.act <= _MARKER_REACH), None)


@lru_cache(maxsize=1 << 14)
def _blocks(one: str, other: str) -> tuple[tuple[int, int, int], ...]:
    return tuple(SequenceMatcher(None, one, other, autojunk=False).get_matching_blocks())


def _markers_on(one: str, other: str, marker: Polar) -> list[Polar | None]:
    """The modal or negation `other` puts on the act `marker` governs in `one`: where the two texts align,
    at the aligned place; elsewhere at each place the act's first words stand in `other`."""
    for a, b, size in _blocks(one, other):
        if a <= marker.act < a + size:
            return [_marker_before(other, b + marker.act - a)]
    found = []
    key = marker.key[:2]
    at = other.find(key)
    while at >= 0:
        found.append(_marker_before(other, at))
        at = other.find(key, at + 1)
    return found


def _same_act_marked(one: str, other: str, marker: Polar) -> bool:
    """The other text puts a marker of the same polarity on an act that shares words with this one's, though
    in another word order: "不得〔作为共有建筑面积〕分摊" and "不得分摊的建筑面积" forbid the same act."""
    governed = grams(CLAUSE_STOPS.split(one[marker.act : marker.act + _GOVERNED])[0])
    return any(
        p.polarity == marker.polarity
        and len(governed & grams(CLAUSE_STOPS.split(other[p.act : p.act + _GOVERNED])[0])) >= _SHARED_ACT
        for p in polars(other)
    )


def polarity_clash(said: str, written: str) -> tuple[str, str] | None:
    """(source word, statement word), "" for none, where the two put different modals or negations on the
    same act: "不得泄露" against "泄露", "可以请求" against "应当请求", "未经同意" against "经同意". An
    obligation or a permission one side states and the other leaves out is no clash ("由买方缴纳" says
    what "应当由买方缴纳" says)."""
    for one, other, flipped in ((written, said, False), (said, written, True)):
        for marker in polars(one):
            found = _markers_on(one, other, marker)
            if not found or any(p is not None and p.polarity == marker.polarity for p in found):
                continue
            if _same_act_marked(one, other, marker):
                continue
            stated = [p for p in found if p is not None]
            if not stated and marker.polarity in ("must", "may"):
                continue
            pair = (marker.word, stated[0].word if stated else "")
            return pair[::-1] if flipped else pair
    return None


def breach(said: str, written: str) -> str:
    """The source's modal when the statement states as done an act the source forbids ("以个人名义收取"
    against "不得以个人名义收取") or as not done one it requires ("未及时更新" against "应及时更新"): of a
    conduct, the statement says it is proper when it is not. A negation that only sets a condition ("未经
    同意的") forbids nothing."""
    for marker in polars(written):
        prohibits = MODAL_FORMS.get(marker.word) == "不得"
        if not prohibits and marker.polarity != "must":
            continue
        found = _markers_on(written, said, marker)
        stated = [p for p in found if p is not None]
        if prohibits and found and not any(p.polarity == "not" for p in stated):
            return marker.word
        if marker.polarity == "must" and stated and all(p.polarity == "not" for p in stated):
            return marker.word
    return ""
