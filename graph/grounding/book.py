"""The textbook as grounding reads it: every sentence of every slice (prose, rules, key parameters, worked
examples, formulas, and each table cell with its row and column), the compiled facts attached to the
sentence they were read from, and a bigram index so that a statement finds its sentences anywhere in the
knowledge base in well under a millisecond.

Built once per knowledge base (`book_for` keeps it with the KnowledgeIndex it was built from).
"""

from __future__ import annotations

import difflib
import math
import re
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from graph.grounding.text import bare, coverage, grams, normalise
from retrieval.facts import Fact, FactBase
from retrieval.models import Slice

# A source a draft quotes counts as found when this share of its characters matches one textbook sentence.
SOURCE_MATCH = 0.9
_SENTENCE_END = re.compile(r"(?<=[。！？!?；;])|\n")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{2,}")
_COMPARISON = re.compile(r"比较|对比|区别|异同|项目$")
_EXAMPLE = re.compile(r"^[【\[(（]?(?:例|示例|举例)|示例")
_ITEM = re.compile(r"^(?:[（(]\d{1,2}[）)]|\d{1,2}[、.．]|[①-⑳])")
_LEAD = re.compile(r"^(.*[：:])\s*(?:[（(]1[）)]|1[、.．]|①)")


@dataclass(frozen=True)
class Key:
    """What a table cell is about (its row or its column) and the other rows or columns it could be
    confused with: a statement naming a rival and not the key takes the cell of another row."""

    own: str
    rivals: tuple[str, ...]
    subject: bool = True  # what the cell is about (a row of things, a compared column), not an attribute

    def named(self, text: str) -> tuple[bool, str]:
        """(whether the text names this key, the rival it names instead or ""), longest names first so that
        "高级房地产经纪人" is not read as "房地产经纪人"."""
        left = bare(text)
        found = []
        for name in sorted((self.own, *self.rivals), key=lambda n: len(bare(n)), reverse=True):
            key = bare(name)
            if len(key) >= 2 and key in left:
                found.append(name)
                left = left.replace(key, "|")
        own = self.own in found
        rival = "" if own else next((n for n in found if n != self.own), "")
        if not own and not rival:  # written a little differently ("县城和镇" for "县城、镇")
            own = coverage(self.own, grams(text)) >= 0.85
        return own, rival


@dataclass(eq=False)
class Passage:
    """One textbook sentence of a slice, `index` its place in the book. An `example` sentence (a worked
    example, a sample figure) states one case: it may support a statement about that case but never
    contradicts a rule. An item of a numbered list keeps the list's `lead` ("经纪人员不得有下列行为："),
    which says what the items are; `grams` covers both. `setting` is the path of the sentence's knowledge
    point ("…> 存量房交易资金监管"): the situation every sentence of it speaks of without repeating it."""

    index: int
    text: str
    slice_id: str
    norm: str
    grams: frozenset[str]
    facts: list[Fact] = field(default_factory=list)
    keys: tuple[Key, ...] = ()
    example: bool = False
    lead: str = ""
    setting: str = ""


def sentences(text: str) -> list[str]:
    return [part.strip() for part in _SENTENCE_END.split(text) if part and part.strip()]


def table_cells(table: str) -> list[tuple[str, tuple[Key, ...]]]:
    """Each cell of a markdown table as a sentence keyed by its row (and, in a comparison table, by its
    column). In a comparison table ("比较项目 | 居间 | 代理") the columns are the things compared and a cell
    stands alone: "行事名义，居间：以…名义". Otherwise the columns are attributes of the row's thing, and a
    cell carries the cells before it, its conditions: "首套（唯一住房），面积：140㎡及以下，税率：1%"."""
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in table.splitlines()
        if line.strip() and not _TABLE_RULE.match(line.strip())
    ]
    if len(rows) < 2:
        return []
    header, body = rows[0], rows[1:]
    comparison = bool(_COMPARISON.search(header[0]))
    row_names = [row[0] for row in body if row]
    cells = []
    for row in body:
        for column in range(1, min(len(row), len(header))):
            if not row[column]:
                continue
            before = [] if comparison else [f"{header[k]}：{row[k]}" for k in range(1, column) if row[k]]
            text = "，".join([row[0], *before, f"{header[column]}：{row[column]}"])
            keys = [Key(row[0], tuple(name for name in row_names if name != row[0]), not comparison)]
            if comparison:
                keys.append(Key(header[column], tuple(h for h in header[1:] if h != header[column])))
            cells.append((text, tuple(keys)))
    return cells


@dataclass(frozen=True)
class _Sentence:
    text: str
    keys: tuple[Key, ...] = ()
    example: bool = False
    lead: str = ""


def _prose(text: str) -> list[_Sentence]:
    """Sentences of prose: the rest of a paragraph after 【例】 is the example; items after "…：（1）" keep
    that lead until the list ends."""
    found = []
    for line in text.splitlines():
        in_example, lead = False, ""
        for sentence in sentences(line):
            in_example = in_example or bool(_EXAMPLE.search(sentence))
            opening = _LEAD.match(sentence)
            if opening:
                lead = opening.group(1)
                found.append(_Sentence(sentence, (), in_example))
                continue
            lead = lead if _ITEM.match(sentence) else ""
            found.append(_Sentence(sentence, (), in_example, lead))
    return found


def _param_value(value: float | str, unit: str) -> str:
    """A key parameter's value as prose writes it: a ratio as a percentage, a term without its "unit"."""
    if unit in ("比例", "比率", "率") and isinstance(value, int | float) and abs(value) <= 1:
        return f"{value * 100:g}%"
    return f"{value}{'' if unit in ('', '术语') else unit}"


def _slice_sentences(slice_: Slice) -> list[_Sentence]:
    """Everything a slice states, one sentence (or table cell) at a time."""
    found = _prose(slice_.text)
    found += [_Sentence(rule, (), bool(_EXAMPLE.search(rule))) for rule in slice_.rules]
    for param in slice_.key_params:
        text = f"{param.name}为{_param_value(param.value, param.unit)}"
        found.append(_Sentence(text, (), bool(_EXAMPLE.search(text))))
    for example in slice_.examples:
        found += [_Sentence(s, (), True) for s in sentences(example)]
    found += [_Sentence(formula) for formula in slice_.formulas]
    for table in slice_.tables:
        found += [_Sentence(text, keys) for text, keys in table_cells(table)]
    return found


def _raw_text(slice_: Slice) -> str:
    """Everything the slice says as its author wrote it (tables as markdown rows), bare, for finding a
    quoted source the way it was copied."""
    params = [f"{p.name}{p.value}{p.unit}" for p in slice_.key_params]
    parts = [slice_.text, *slice_.tables, *slice_.rules, *slice_.examples, *slice_.formulas, *params]
    return "|".join(bare(part) for part in parts)


class SourceBook:
    """All passages of a knowledge base with a bigram index; scopes are lists of slice ids."""

    def __init__(self, slices: Iterable[Slice], facts: FactBase | None = None) -> None:
        self.passages: list[Passage] = []
        self.by_slice: dict[str, list[int]] = {}
        self._bare_text: dict[str, str] = {}
        self._settings: dict[str, str] = {}
        for slice_ in slices:
            self._settings[slice_.id] = slice_.path_text
            seen: set[str] = set()
            for sentence in _slice_sentences(slice_):
                norm = normalise(sentence.text)
                if norm not in seen:
                    seen.add(norm)
                    self._add(sentence.text, slice_.id, sentence.keys, sentence.example, sentence.lead)
            self._bare_text[slice_.id] = _raw_text(slice_)
        self._facts = facts or FactBase(())
        for fact in self._facts:
            self._attach(fact)
        self._build_index()

    def _add(
        self, text: str, slice_id: str, keys: tuple[Key, ...] = (), example: bool = False, lead: str = ""
    ) -> Passage:
        ids = self.by_slice.setdefault(slice_id, [])
        passage = Passage(
            len(self.passages),
            text,
            slice_id,
            normalise(text),
            grams(lead + text),
            keys=keys,
            example=example,
            lead=lead,
            setting=self._settings.get(slice_id, ""),
        )
        self.passages.append(passage)
        ids.append(passage.index)
        return passage

    def _attach(self, fact: Fact) -> None:
        """A fact joins the sentence it was read from; a source no sentence holds becomes a sentence. A table
        row joins its cells (a whole row read as one sentence would mix its columns)."""
        source = bare(fact.source)
        if not source:
            return
        if fact.kind == "table_row" and fact.header:
            self._attach_row(fact)
            return
        if fact.source.lstrip().startswith("|"):
            return  # read from a table whose cells are sentences already; the whole table is not one
        holding = []
        for index in self.by_slice.get(fact.slice_id, []):
            passage = self.passages[index]
            text = bare(passage.text)
            if source in text:
                passage.facts.append(fact)
                return
            if text and text in source:
                holding.append(passage)
        if holding and source in self._bare_text.get(fact.slice_id, ""):
            for passage in holding:  # a source the book reads as several sentences
                passage.facts.append(fact)
            return
        self._add(fact.source, fact.slice_id, example=fact.kind == "example").facts.append(fact)

    def _attach_row(self, fact: Fact) -> None:
        """Cells of the row from the slice's own table, or built from the row and its sibling rows."""
        row = bare(fact.subject or (fact.items[0] if fact.items else ""))
        cells = [
            self.passages[i]
            for i in self.by_slice.get(fact.slice_id, [])
            if self.passages[i].keys and bare(self.passages[i].keys[0].own) == row
        ]
        if not cells:
            header = "| " + " | ".join(fact.header) + " |"
            rows = [fact, *(f for f in self._facts.related(fact) if f.header == fact.header)]
            table = "\n".join([header, *("| " + " | ".join(f.items) + " |" for f in rows)])
            for text, keys in table_cells(table):
                if bare(keys[0].own) == row:
                    cells.append(self._add(text, fact.slice_id, keys))
        for cell in cells:
            cell.facts.append(fact)

    def _build_index(self) -> None:
        """Postings per bigram with its idf: a query adds up the postings of its own bigrams only."""
        postings: dict[str, list[int]] = {}
        for passage in self.passages:
            for gram in passage.grams:
                postings.setdefault(gram, []).append(passage.index)
        count = len(self.passages)
        self._postings = {
            gram: (np.asarray(ids, dtype=np.int64), math.log((1 + count) / (1 + len(ids))) + 1.0)
            for gram, ids in postings.items()
        }
        self._unseen = math.log(1 + count) + 1.0

    def scores(self, text: str) -> np.ndarray:
        """Per passage, the idf weight of the text's bigrams it shares, over the weight of all of them."""
        found = np.zeros(len(self.passages), dtype=np.float64)
        total = 0.0
        for gram in grams(text):
            posting = self._postings.get(gram)
            if posting is None:
                total += self._unseen
                continue
            ids, weight = posting
            found[ids] += weight
            total += weight
        return found / total if total else found

    def best(self, scores: np.ndarray, slice_ids: Sequence[str] | None, k: int) -> list[Passage]:
        """The k best-scoring passages of the given slices (of the whole book when None)."""
        if slice_ids is None:
            pool = np.arange(len(self.passages))
        else:
            pool = np.fromiter((i for s in slice_ids for i in self.by_slice.get(s, ())), dtype=np.int64)
        if not pool.size:
            return []
        ranked = scores[pool]
        if len(pool) > k:  # only the k best need ordering
            top = np.argpartition(-ranked, k)[:k]
            pool, ranked = pool[top], ranked[top]
        picked = pool[np.argsort(-ranked, kind="stable")[:k]]
        return [self.passages[i] for i in picked if scores[i] > 0]

    def locate(self, source: str) -> tuple[list[Passage], float]:
        """The textbook sentences a quoted source is (a table row: its cells), and the share of the quote's
        characters found in one of them; a quote copied whole from its slice counts as fully found."""
        quoted = bare(source)
        if not quoted:
            return [], 0.0
        candidates = self.best(self.scores(source), None, 5)
        holders = [p.slice_id for p in candidates] + list(self._bare_text)
        holder = next((s for s in holders if quoted in self._bare_text.get(s, "")), None)
        if holder is not None:
            inside = [
                self.passages[i] for i in self.by_slice.get(holder, []) if _within(self.passages[i], quoted)
            ]
            return inside, 1.0
        best: tuple[list[Passage], float] = ([], 0.0)
        for passage in candidates:
            matcher = difflib.SequenceMatcher(None, quoted, bare(passage.text), autojunk=False)
            share = sum(block.size for block in matcher.get_matching_blocks()) / len(quoted)
            if share > best[1]:
                best = ([passage], share)
        return best


def _within(passage: Passage, quoted: str) -> bool:
    """The sentence is part of the quote, or holds it; a table cell is part of a quoted row when its row and
    its value are."""
    text = bare(passage.text)
    if text in quoted or quoted in text:
        return True
    if passage.keys:
        value = bare(passage.text.split("：", 1)[-1])
        return bare(passage.keys[0].own) in quoted and bool(value) and value in quoted
    return False


_BOOKS: weakref.WeakKeyDictionary[object, tuple[FactBase, SourceBook]] = weakref.WeakKeyDictionary()


def book_for(owner: object, slices: Iterable[Slice], facts: FactBase) -> SourceBook:
    """The book of a knowledge base, built on first use and kept while `owner` (its index) lives; rebuilt
    when the facts object changes."""
    kept = _BOOKS.get(owner)
    if kept is not None and kept[0] is facts:
        return kept[1]
    book = SourceBook(slices, facts)
    _BOOKS[owner] = (facts, book)
    return book
