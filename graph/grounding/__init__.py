"""Grounding: is the keyed answer true according to the textbook?

The critic's deterministic checks see only the question; a fluent author can key a falsified sentence with a
consistent explanation and pass them all. Grounding reads every statement the question asserts (each option
completed by its stem, or the judge statement) against the knowledge base's own sentences and compiled
facts, and says of each: supported, contradicted (with the concrete difference) or unknown.

API:

    grounding = ground_question(question, slice_or_None, library)   # library: .knowledge and .facts
    grounding.statements      # list[Finding]: label, statement, claims, verdict, reason, source, fact_id
    grounding.issues(strict)  # list[Issue]; strict=False leaves unverifiable keys out (past-paper evaluation)
    grounding.unknown_keys    # keyed statements the textbook neither supports nor contradicts
    grounding.evidence        # lines for Question.evidence
    grounding.basis           # (slice path, sentence) the key rests on

`library` is anything with `knowledge` (graph.context.KnowledgeIndex) and `facts` (retrieval.facts.FactBase),
such as the GenerationContext. The lookup over the knowledge base is built on first use and kept with the
KnowledgeIndex.
"""

from __future__ import annotations

from typing import Protocol

from graph.grounding.book import SOURCE_MATCH, SourceBook, book_for
from graph.grounding.classify import Finding, Scope, classify
from graph.grounding.rank import ranked
from graph.grounding.statements import statements
from graph.grounding.verdict import Grounding
from retrieval.facts import Fact, FactBase
from retrieval.models import Slice
from vocabulary.records import Question


class Knowledge(Protocol):
    slices: list[Slice]

    def get(self, slice_id: str) -> Slice: ...

    def neighbours(self, slice_: Slice, limit: int = 6) -> list[Slice]: ...


class Library(Protocol):
    knowledge: Knowledge
    facts: FactBase


def _scopes(
    book: SourceBook, question: Question, slice_: Slice | None, library: Library, chapter: tuple[str, ...]
) -> tuple[list[Scope], list[str], list[Fact]]:
    """Where to look, in order, the quoted sources not found, and the facts the typed checks may use."""
    quoted, missing = [], []
    for source in question.sources:
        found, share = book.locate(source)
        if share < SOURCE_MATCH:
            missing.append(source)
        quoted += [p for p in found if share >= SOURCE_MATCH and p not in quoted]
    scopes = [Scope("quoted", passages=tuple(quoted))] if quoted else []
    if slice_ is not None:
        near = tuple(s.id for s in library.knowledge.neighbours(slice_))
        scopes += [Scope("slice", slice_ids=(slice_.id,)), Scope("neighbours", slice_ids=near)]
        local = (slice_.id, *near)
    else:
        local = tuple(s.id for s in library.knowledge.slices if chapter and s.chapter == chapter)
        scopes.append(Scope("chapter", slice_ids=local))
    scopes.append(Scope("knowledge base"))
    facts = [fact for slice_id in local for fact in library.facts.of_slice(slice_id)]
    return scopes, missing, facts


def ground_question(
    question: Question, slice_: Slice | None, library: Library, *, chapter: tuple[str, ...] | None = None
) -> Grounding:
    """Grounds every statement of the question. Without a slice (a past-paper question) the chapter's slices
    (`chapter`, else the question's own) come first, then the whole knowledge base."""
    book = book_for(library.knowledge, library.knowledge.slices, library.facts)
    scopes, missing, facts = _scopes(book, question, slice_, library, tuple(chapter or question.chapter))
    grounding = Grounding(
        answer=list(question.answer),
        qtype=question.qtype,
        calculated=question.calculation is not None,
        missing_sources=missing,
    )
    if not grounding.calculated:
        asserted = statements(question)
        grounding.statements = [classify(s, book, scopes, facts) for s in asserted]
        if not grounding.verified:  # options are compared only where the key is not verified outright
            grounding.statements = [
                ranked(s, f, book, scopes) for s, f in zip(asserted, grounding.statements, strict=True)
            ]
    used = {f.slice_id for f in grounding.statements if f.slice_id}
    grounding.paths = {slice_id: library.knowledge.get(slice_id).path_text for slice_id in used}
    return grounding


__all__ = ["Finding", "Grounding", "Library", "SourceBook", "ground_question"]
