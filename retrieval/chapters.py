"""The chapter tree (篇 > 章 > 节) and the alignment of question-bank chapter names with it.

Exam spreadsheets and textbooks name the same chapter differently ("第四篇 交易税费篇" vs "第四篇  交易税费"),
so names are matched by ordinal (第N篇/第N章/第N节, Chinese or Arabic numerals) and by difflib similarity of
the titles without ordinals. The knowledge base defines the tree; the bank only adds question counts.

A chapter is a calculation chapter when at least CALCULATION_SHARE of its slices are calculation slices
(`Slice.is_calculation`: formulas or calculator examples). A share rather than "any slice" keeps a mostly
descriptive chapter with one worked example out of the 仅计算类 list.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import TypeVar

from retrieval.models import MotherQuestion, Slice
from retrieval.normalize import clean_text
from retrieval.problems import Problem
from vocabulary.kinds import QuestionType

CALCULATION_SHARE = 0.3
# With the same ordinal, titles need only be loosely alike ("交易税费篇" vs "交易税费"); without it they must
# be close, so that a renumbered book still aligns but unrelated chapters do not.
SAME_ORDINAL_MIN_SIMILARITY = 0.3
TITLE_ONLY_MIN_SIMILARITY = 0.6
_ORDINAL = re.compile(r"^第\s*([〇零一二两三四五六七八九十百千\d]+)\s*([篇章节])\s*")
_DIGITS = {
    "〇": 0,
    "零": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_MULTIPLIERS = {"十": 10, "百": 100, "千": 1000}


def chinese_number(text: str) -> int | None:
    """ "七" → 7, "十一" → 11, "二十" → 20, "一百零五" → 105, "12" → 12; None if not a number."""
    text = unicodedata.normalize("NFKC", text)
    if text.isascii() and text.isdigit():
        return int(text)
    total = current = 0
    for char in text:
        if char in _DIGITS:
            current = _DIGITS[char]
        elif char in _MULTIPLIERS:
            total += (current or 1) * _MULTIPLIERS[char]
            current = 0
        else:
            return None
    return total + current


@dataclass(frozen=True)
class Name:
    """A level name split into its ordinal (number and unit 篇/章/节) and a comparable title."""

    ordinal: int | None
    unit: str
    title: str

    def score(self, other: Name) -> float | None:
        """How well two names match, or None when they should not be matched at all."""
        similarity = difflib.SequenceMatcher(None, self.title, other.title).ratio()
        same_ordinal = self.ordinal is not None and (self.ordinal, self.unit) == (other.ordinal, other.unit)
        if same_ordinal and (similarity >= SAME_ORDINAL_MIN_SIMILARITY or not self.title or not other.title):
            return 1.0 + similarity
        return similarity if similarity >= TITLE_ONLY_MIN_SIMILARITY else None


@cache
def parse_name(name: str) -> Name:
    """ "第四篇 交易税费篇" → Name(4, "篇", "交易税费"): spaces and a repeated unit at the end are dropped."""
    text = "".join(unicodedata.normalize("NFKC", name).split())
    match = _ORDINAL.match(text)
    if match is None:
        return Name(None, "", text)
    title = text[match.end() :]
    unit = match[2]
    if title.endswith(unit) and len(title) > 1:
        title = title[:-1]
    return Name(chinese_number(match[1]), unit, title)


def best_match(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate that matches `name` best by ordinal and title, or None if none matches well enough."""
    wanted = parse_name(name)
    if wanted.ordinal is None and not wanted.title:
        return None
    best, best_score = None, 0.0
    for candidate in candidates:
        score = wanted.score(parse_name(candidate))
        if score is not None and score > best_score:
            best, best_score = candidate, score
    return best


@dataclass
class SectionNode:
    name: str
    slices: int = 0
    questions: Counter[QuestionType] = field(default_factory=Counter)


@dataclass
class ChapterNode:
    part: str
    name: str
    sections: list[SectionNode] = field(default_factory=list)
    slices: int = 0
    calculation_slices: int = 0
    questions: Counter[QuestionType] = field(default_factory=Counter)

    @property
    def key(self) -> tuple[str, str]:
        """The (篇, 章) pair, equal to `Slice.chapter` and `MotherQuestion.kb_chapter`."""
        return (self.part, self.name)

    @property
    def ordinal(self) -> int | None:
        return parse_name(self.name).ordinal

    @property
    def is_calculation(self) -> bool:
        return self.slices > 0 and self.calculation_slices / self.slices >= CALCULATION_SHARE

    def section(self, name: str) -> SectionNode | None:
        return next((s for s in self.sections if s.name == name), None)


@dataclass
class PartNode:
    name: str
    chapters: list[ChapterNode] = field(default_factory=list)

    @property
    def slices(self) -> int:
        return sum(c.slices for c in self.chapters)

    @property
    def questions(self) -> Counter[QuestionType]:
        return sum((c.questions for c in self.chapters), Counter())


@dataclass
class ChapterTree:
    """`unaligned` counts bank questions whose chapter matched nothing, by their own (篇, 章) names."""

    parts: list[PartNode] = field(default_factory=list)
    unaligned: dict[tuple[str, str], Counter[QuestionType]] = field(default_factory=dict)

    @property
    def chapters(self) -> list[ChapterNode]:
        return [chapter for part in self.parts for chapter in part.chapters]

    def chapter(self, key: Sequence[str]) -> ChapterNode | None:
        return next((c for c in self.chapters if c.key == tuple(key)), None)

    def find(self, query: str) -> list[ChapterNode]:
        """Chapters a user means by "第七章", "7", "买方税费", "第七章 买方税费", or a whole 篇 ("第四篇")."""
        text = clean_text(query)
        if chinese_number(text) is not None:
            text = f"第{text}章"  # a bare number is a chapter number: chapters are what /quiz lists
        unit = parse_name(text).unit
        if unit != "篇":
            chapter = best_match(text, [c.name for c in self.chapters])
            if chapter is not None:
                return [c for c in self.chapters if c.name == chapter]
        if unit in ("", "篇"):
            part = best_match(text, [p.name for p in self.parts])
            if part is not None:
                return next(p.chapters for p in self.parts if p.name == part)
        return []


_Node = TypeVar("_Node", PartNode, ChapterNode)


class ChapterAligner:
    """Maps a bank's (篇, 章) names to the knowledge base's (篇, 章) key; results are cached per name pair."""

    def __init__(self, chapters: Iterable[tuple[str, str]]) -> None:
        self.chapters = list(dict.fromkeys(chapters))
        self.parts = list(dict.fromkeys(part for part, _ in self.chapters))
        self._cache: dict[tuple[str, str], tuple[str, str] | None] = {}

    def align(self, part: str, chapter: str) -> tuple[str, str] | None:
        if (part, chapter) not in self._cache:
            self._cache[(part, chapter)] = self._align(part, chapter)
        return self._cache[(part, chapter)]

    def _align(self, part: str, chapter: str) -> tuple[str, str] | None:
        """The matching 篇's chapters are tried first: books that restart 第一章 in every 篇 still align."""
        if not chapter:
            return None
        kb_part = best_match(part, self.parts) if part else None
        for pool in ([c for c in self.chapters if c[0] == kb_part], self.chapters):
            match = best_match(chapter, [name for _, name in pool])
            if match is not None:
                return next(c for c in pool if c[1] == match)
        return None


def align_questions(
    questions: Sequence[MotherQuestion], slices: Sequence[Slice]
) -> tuple[list[MotherQuestion], list[Problem]]:
    """Questions with `kb_chapter` set, and one warning per bank chapter that matches no KB chapter."""
    aligner = ChapterAligner(s.chapter for s in slices if len(s.chapter) == 2)
    aligned, problems, warned = [], [], set()
    for question in questions:
        key = aligner.align(question.part, question.chapter)
        aligned.append(replace(question, kb_chapter=key))
        if key is None and (question.part, question.chapter) not in warned:
            warned.add((question.part, question.chapter))
            file, _, row = question.source.rpartition(":")
            where = f"'{question.chapter}' in '{question.part}'" if question.chapter else "no 章 given"
            reason = f"{where}: matches no knowledge-base chapter; its questions are unassigned"
            problems.append(Problem(file, int(row) if row.isdigit() else None, "章", reason, "warning"))
    return aligned, problems


def build_tree(slices: Sequence[Slice], questions: Sequence[MotherQuestion]) -> ChapterTree:
    """Parts and chapters in ordinal order (textbook order when an ordinal is missing); questions need
    `kb_chapter` set (see `align_questions`), their 节 is aligned within the chapter."""
    tree = ChapterTree()
    parts: dict[str, PartNode] = {}
    chapters: dict[tuple[str, ...], ChapterNode] = {}
    for piece in slices:
        if len(piece.chapter) < 2:
            continue
        part = parts.setdefault(piece.path[0], PartNode(piece.path[0]))
        if piece.chapter not in chapters:
            chapters[piece.chapter] = ChapterNode(*piece.chapter)
            part.chapters.append(chapters[piece.chapter])
        chapter = chapters[piece.chapter]
        chapter.slices += 1
        chapter.calculation_slices += piece.is_calculation
        if len(piece.path) > 2:
            section = chapter.section(piece.path[2])
            if section is None:
                section = SectionNode(piece.path[2])
                chapter.sections.append(section)
            section.slices += 1
    tree.parts = _by_ordinal(parts.values())
    for part in tree.parts:
        part.chapters = _by_ordinal(part.chapters)
    for question in questions:
        chapter = chapters.get(question.kb_chapter) if question.kb_chapter else None
        if chapter is None:
            tree.unaligned.setdefault((question.part, question.chapter), Counter())[question.qtype] += 1
            continue
        chapter.questions[question.qtype] += 1
        section_name = (
            best_match(question.section, [s.name for s in chapter.sections]) if question.section else None
        )
        section = chapter.section(section_name) if section_name else None
        if section is not None:
            section.questions[question.qtype] += 1
    return tree


def _by_ordinal(nodes: Iterable[_Node]) -> list[_Node]:
    """Stable sort: nodes without an ordinal keep their file order, after the numbered ones."""

    def key(node: PartNode | ChapterNode) -> tuple[bool, int]:
        ordinal = parse_name(node.name).ordinal
        return (ordinal is None, ordinal or 0)

    return sorted(nodes, key=key)
