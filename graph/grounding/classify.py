"""Grounding one statement: its clauses are looked up scope by scope — the sentences the draft quotes, its
slice, the neighbouring slices (or, without a slice, its chapter), the whole knowledge base. A clause is
supported if a sentence of any scope supports it; otherwise contradicted if the earliest scope with a
contradiction has one from a sentence the clause is about; otherwise unknown. A statement is contradicted
when any clause is, supported when every asserted clause is, and unknown otherwise. Checks on the compiled
facts' structure (an enumeration's items, a definition's class) come first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from graph.grounding.book import Passage, SourceBook
from graph.grounding.classes import classification
from graph.grounding.compare import REVERSE_ALIGN, Claim, ClauseCheck, Verdict, check_clause, window
from graph.grounding.complete import completeness
from graph.grounding.deadlines import deadline
from graph.grounding.duties import duty_in_case
from graph.grounding.ownership import holding_case
from graph.grounding.parties import bearer
from graph.grounding.statements import Statement
from graph.grounding.steps import next_step
from graph.grounding.text import content_chars, coverage, grams, normalise
from graph.grounding.typed import category, membership
from retrieval.facts import Fact

# The checks on the compiled facts' structure, tried in turn before the sentences.
CHECKS = (
    # before membership: an item (a paper, a step) a case already has is listed, but not still to come
    completeness,
    next_step,
    membership,
    category,
    classification,
    holding_case,
    deadline,
    bearer,
    duty_in_case,
)
# Sentences examined per clause and scope, best bigram matches first.
CANDIDATES = 4
# A contradiction is only believed from a sentence about as close to the statement as the closest one
# (its words in the statement and the statement's in it).
CLOSEST = 0.05
# An option this short says little on its own: the sentence supporting it must be about the stem's topic.
SHORT_OPTION = 8


@dataclass(frozen=True)
class Scope:
    """Where to look: explicit sentences (the draft's quoted sources), some slices, or (both None) the whole
    knowledge base."""

    name: str
    passages: tuple[Passage, ...] | None = None
    slice_ids: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Finding:
    """The grounding of one statement: `claims` is what the key says of it, `verdict` what the textbook
    says; `source` is the sentence that decided it (verbatim), with its slice and fact when known; `rank`
    is how well it aligns with its closest sentence, for comparison with the other options (None when not
    compared); `denied` that its closest sentence disagrees with it and none as close agrees."""

    label: str
    statement: str
    claims: bool
    verdict: Verdict
    reason: str
    source: str = ""
    slice_id: str = ""
    fact_id: str = ""
    rank: float | None = None
    denied: bool = False

    @property
    def agrees(self) -> bool:
        """The key says of this statement what the textbook says."""
        return self.verdict == ("supported" if self.claims else "contradicted")


def _case(statement: Statement, option: str) -> str:
    return normalise(option) if statement.kind == "fill" and len(content_chars(option)) >= 2 else ""


def _claim(clause: str, statement: Statement) -> Claim:
    """A fill-in option that says more than a figure describes a case ("持有满6年，且为唯一住房"); an option
    that is only a figure is the threshold asked for."""
    option = statement.option if statement.option and statement.option in clause else ""
    short = statement.kind == "saying" and len(content_chars(statement.option)) < SHORT_OPTION
    return Claim(
        clause,
        option,
        f"{statement.context}，{statement.text}",
        normalise(clause) if statement.case else _case(statement, option),
        statement.context if short else "",
        "，".join(statement.asserted),
        statement.conduct,
        statement.others if statement.single else (),
    )


def ground_clause(claim: Claim, context: str, book: SourceBook, scopes: Sequence[Scope]) -> ClauseCheck:
    """Support from any scope; failing that, a contradiction from the earliest scope that has one, read off
    the sentence the clause is most about. Sentences are the best bigram matches of the clause alone and
    of the clause with its stem."""
    closest = ClauseCheck("unknown", "教材中没有找到对应表述")
    contradiction: ClauseCheck | None = None
    clause, whole = claim.clause, claim.whole
    rankings = [book.scores(clause)] + ([book.scores(clause + context)] if context else [])
    seen: set[int] = set()
    for scope in scopes:
        if scope.passages is not None:
            passages = list(scope.passages)
        else:
            passages = [p for scores in rankings for p in book.best(scores, scope.slice_ids, CANDIDATES)]
        passages = [p for p in dict.fromkeys(passages) if p.index not in seen]
        seen.update(p.index for p in passages)
        checks = [check_clause(claim, p) for p in passages]
        supported = [c for c in checks if c.verdict == "supported"]
        if supported:
            return max(supported, key=lambda c: c.coverage)
        ranks = [c.coverage + coverage(c.passage.text, grams(whole)) for c in checks if c.passage]
        if ranks and contradiction is None:
            top = max(ranks)
            against = [
                c
                for c, r in zip(checks, ranks, strict=True)
                if c.verdict == "contradicted" and r >= top - CLOSEST
            ]
            contradiction = max(against, key=lambda c: c.coverage) if against else None
        closest = max([closest, *checks], key=lambda c: c.coverage)
    return contradiction or closest


def _deciding(statement: Statement, book: SourceBook, scopes: Sequence[Scope]) -> ClauseCheck:
    """The check that decides the statement. Its clauses together are one claim when one sentence says
    them all; clause by clause, a contradiction of any decides, and support needs every clause supported
    by a sentence of one knowledge point that is about the whole statement — two true halves from
    unrelated sentences ("个人销售住房" and "…暂免征收土地增值税") do not make a true whole."""
    whole = "，".join(statement.asserted)
    if len(statement.asserted) > 1:
        joined = ground_clause(_claim(whole, statement), statement.context, book, scopes)
        if joined.verdict == "supported":
            return joined
    results = [
        ground_clause(_claim(clause, statement), statement.context, book, scopes)
        for clause in statement.asserted
    ]
    deciding = next((r for r in results if r.verdict == "contradicted"), None)
    if deciding is not None:
        return deciding
    unknown = [r for r in results if r.verdict == "unknown"]
    if unknown:
        return unknown[0]
    passages = [r.passage for r in results if r.passage is not None]
    apart = len({p.index for p in passages}) > 1 and (
        len({p.slice_id for p in passages}) > 1
        or any(
            coverage(window(clause, p), grams(whole)) < REVERSE_ALIGN
            for clause, p in zip(statement.asserted, passages, strict=True)
        )
    )
    if apart:
        return ClauseCheck("unknown", "题目各部分分别出自教材中说不同事情的句子，没有一处同时说到", None, 0.0)
    return max(results, key=lambda r: r.coverage)


def classify(
    statement: Statement, book: SourceBook, scopes: Sequence[Scope], facts: Sequence[Fact]
) -> Finding:
    """The statement's Finding: the fact or sentence that decided it, or unknown with the closest reason."""
    for check in CHECKS:
        typed = check(statement, facts)
        if typed is not None:
            return Finding(
                statement.label,
                statement.text,
                statement.claims,
                typed.verdict,
                typed.reason,
                typed.fact.source,
                typed.fact.slice_id,
                typed.fact.id,
            )
    if not statement.asserted:
        return Finding(statement.label, statement.text, statement.claims, "unknown", "没有可核对的内容")
    deciding = _deciding(statement, book, scopes)
    passage = deciding.passage if deciding.verdict != "unknown" else None
    fact = passage.facts[0] if passage is not None and passage.facts else None
    return Finding(
        statement.label,
        statement.text,
        statement.claims,
        deciding.verdict,
        deciding.reason,
        passage.text if passage is not None else "",
        passage.slice_id if passage is not None else "",
        fact.id if fact is not None else "",
    )
