"""Typed, checkable facts compiled from knowledge slices: what authors write questions from and what the
critic grounds answers against.

Every fact keeps the sentence it was read from (`source`, verbatim from the slice) and its slice id, so a
question can quote its 教材原文 and a checker can find the sentence again. The compiler (retrieval/compiler)
produces them from prose, tables, worked examples and any hand-written rules / key_params alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

FactKind = Literal["enumeration", "threshold", "modal", "definition", "table_row", "example", "statement"]
FACT_KINDS: tuple[FactKind, ...] = (
    "enumeration",
    "threshold",
    "modal",
    "definition",
    "table_row",
    "example",
    "statement",
)
COMPARATORS: tuple[str, ...] = (
    "不低于",
    "不超过",
    "不满",
    "以上",
    "以下",
    "超过",
    "低于",
    "高于",
    "满",
    "为",
)
MODALS: tuple[str, ...] = ("应当", "必须", "不得", "可以", "无需")
# A modal and the ones that contradict it: the flip a falsifier makes and a grounding check detects.
MODAL_OPPOSITES: dict[str, tuple[str, ...]] = {
    "应当": ("不得", "无需"),
    "必须": ("不得", "无需"),
    "不得": ("应当", "必须", "可以"),
    "可以": ("不得",),
    "无需": ("应当", "必须"),
}


@dataclass(frozen=True)
class Fact:
    """One checkable statement of the textbook. Which fields are filled depends on `kind`:

    - enumeration: `subject` is the head ("需要注销网签的情形"), `items` its members in order.
    - threshold: `subject` what is bounded ("家庭首套住房契税税率"), `comparator`, `value` + `unit` and
      `value_text` as written ("1%", "140平方米"), `condition` under which it holds ("面积140平方米及以下").
    - modal: `subject` who/what, `modal` (应当/必须/不得/可以/无需), `consequence` what must or may be done,
      `condition` the 的-clause ("购房人为二套住房的").
    - definition: `subject` the term, `category` the class it belongs to or its meaning.
    - table_row: `header` the column names, `items` the row's cells, `subject` the row's first cell.
    - example: `subject` the question it answers, `calculator` / `args` / `expected` when a calculator
      reproduces it (empty calculator when none does), `value_text` the stated result.
    - statement: a hand-written rule or key_param sentence, kept as it stands.

    `siblings` holds alternative values of the same kind a distractor may take (sibling thresholds of the same
    slice/table, the other categories of a classification); `related` holds ids of sibling facts (the other
    enumerations of the chapter, the other rows of the table).
    """

    id: str
    kind: FactKind
    slice_id: str
    source: str
    subject: str = ""
    items: tuple[str, ...] = ()
    header: tuple[str, ...] = ()
    comparator: str = ""
    value: float | None = None
    unit: str = ""
    value_text: str = ""
    condition: str = ""
    modal: str = ""
    consequence: str = ""
    category: str = ""
    calculator: str = ""
    args: dict = field(default_factory=dict, compare=False, hash=False)
    expected: dict = field(default_factory=dict, compare=False, hash=False)
    siblings: tuple[str, ...] = ()
    related: tuple[str, ...] = ()


class FactBase:
    """All facts of one knowledge base, indexed by slice and by chapter (篇, 章)."""

    def __init__(self, facts: Iterable[Fact], chapters: dict[str, tuple[str, ...]] | None = None) -> None:
        self.by_id: dict[str, Fact] = {}
        self._by_slice: dict[str, list[Fact]] = {}
        self._by_chapter: dict[tuple[str, ...], list[Fact]] = {}
        chapters = chapters or {}
        for fact in facts:
            self.by_id[fact.id] = fact
            self._by_slice.setdefault(fact.slice_id, []).append(fact)
            chapter = chapters.get(fact.slice_id)
            if chapter is not None:
                self._by_chapter.setdefault(chapter, []).append(fact)

    def __len__(self) -> int:
        return len(self.by_id)

    def __iter__(self):
        return iter(self.by_id.values())

    def of_slice(self, slice_id: str, kind: FactKind | None = None) -> list[Fact]:
        found = self._by_slice.get(slice_id, [])
        return [f for f in found if kind is None or f.kind == kind]

    def of_chapter(self, chapter: tuple[str, ...], kind: FactKind | None = None) -> list[Fact]:
        found = self._by_chapter.get(chapter, [])
        return [f for f in found if kind is None or f.kind == kind]

    def of_part(self, part: str, kind: FactKind | None = None) -> list[Fact]:
        """The facts of every chapter of one part (篇): the wider circle when a chapter has few."""
        found = [f for chapter, facts in self._by_chapter.items() if chapter[:1] == (part,) for f in facts]
        return [f for f in found if kind is None or f.kind == kind]

    def related(self, fact: Fact) -> list[Fact]:
        return [self.by_id[i] for i in fact.related if i in self.by_id]

    def slices_with_facts(self) -> set[str]:
        return set(self._by_slice)
