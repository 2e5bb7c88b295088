"""Comparative grounding: the options of one question ranked by how well each says what a textbook sentence
says. A past paper's true option is often a paraphrase no sentence supports word for word, yet it still
reads closer to its source than the question's distractors, which change a figure, a modal or a term, or
come from elsewhere. So when the options a key claims true align clearly worse than one it claims false,
the key is suspect, without any absolute threshold of support.

An option's alignment is the best, over the sentences closest to it, of the share of its content the
sentence says (in order, and anywhere), halved when a figure, modal, negation or opposite word of the
sentence disagrees with it. An option the textbook supports aligns fully; one it contradicts not at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from graph.grounding.book import Passage, SourceBook
from graph.grounding.classify import Finding, Scope
from graph.grounding.compare import in_order, said_in, window
from graph.grounding.figures import number_check
from graph.grounding.markers import modal_flip, negation_flip, opposite_swap
from graph.grounding.statements import Statement, scene_in
from graph.grounding.text import content_chars, content_runs, coverage, normalise

# Sentences read per option and scope, best bigram matches first.
CANDIDATES = 6
# What a concrete disagreement with the sentence leaves of an alignment.
DISAGREES = 0.5
# A sentence this close to a statement that disagrees with it denies it, when none as close agrees.
CLOSE = 0.7
# What a figure the sentence does not state leaves of it.
UNATTESTED = 0.8


def disagreement(text: str, span: str, passage: Passage) -> float:
    """The factor a sentence's markers put on an alignment: 1 when nothing the statement states differs."""
    said, written = normalise(text), passage.norm
    conflict, attested = number_check(said, written)
    turned = modal_flip(said, written) or negation_flip(said, written) or opposite_swap(said, written)
    if conflict or turned:
        return DISAGREES
    return 1.0 if attested else UNATTESTED


def aligned(text: str, passage: Passage, option: str = "") -> tuple[float, float]:
    """How well one sentence is about the text (its content said in order and covered at all, both
    counted), and the factor its markers put on that. A fill-in option and the stem it completes are each
    held to the sentence with its list's lead: an item is about its list's head, not about any sentence
    that happens to name it ("以出让方式取得的建设用地使用权有期限限制" says nothing of what may not be
    mortgaged)."""
    span = window(text, passage)
    factor = disagreement(text, span, passage)
    said = max(said_in(text, span), in_order(text, passage.text))
    whole = (said + coverage(text, passage.grams)) / 2
    if option and option in text:
        read = passage.lead + passage.text
        pieces = [piece for piece in (text.replace(option, "，", 1), option) if content_runs(piece)]
        whole = min(
            [whole, *((in_order(piece, read) + coverage(piece, passage.grams)) / 2 for piece in pieces)]
        )
    return whole, factor


def alignment(
    text: str, context: str, book: SourceBook, scopes: Sequence[Scope], option: str = ""
) -> tuple[float, bool]:
    """The best alignment of the text with a sentence of any scope, and whether it is denied: the sentence
    closest to it (CLOSE or more) disagrees with it and none as close agrees."""
    rankings = [book.scores(text)] + ([book.scores(text + context)] if context else [])
    passages: dict[int, Passage] = {}
    for scope in scopes:
        found = (
            list(scope.passages)
            if scope.passages is not None
            else [p for scores in rankings for p in book.best(scores, scope.slice_ids, CANDIDATES)]
        )
        passages.update((p.index, p) for p in found)
    read = [aligned(text, p, option) for p in passages.values()]
    agreeing = max((base for base, factor in read if factor > DISAGREES), default=0.0)
    against = max((base for base, factor in read if factor <= DISAGREES), default=0.0)
    return max((base * factor for base, factor in read), default=0.0), against >= CLOSE and against > agreeing


def ranked(statement: Statement, finding: Finding, book: SourceBook, scopes: Sequence[Scope]) -> Finding:
    """The finding with the statement's alignment (`rank`, for comparison with its question's other
    options: 1 when the textbook supports it, 0 when it contradicts it) and whether its closest sentence
    denies it. Left as it is for what is not read this way: a case's statement (its figures and people are
    the scene's, not a sentence's) or a conduct judged proper or not."""
    if statement.case or statement.conduct or scene_in(statement.text + statement.context):
        return finding
    if finding.verdict != "unknown":
        return replace(finding, rank=1.0 if finding.verdict == "supported" else 0.0)
    option = (
        statement.option if statement.kind == "fill" and len(content_chars(statement.option)) >= 2 else ""
    )
    rank, denied = alignment("，".join(statement.asserted), statement.context, book, scopes, option)
    return replace(finding, rank=rank, denied=denied)
