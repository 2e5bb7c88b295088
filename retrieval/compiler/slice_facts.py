"""One slice → its facts: prose sentence by sentence, then tables, worked examples, hand-written rules and
key_params, and formulas; ids `"{slice.id}#{n}"` in that order, so the same content gives the same ids.

Sibling values are gathered last, over the whole slice: a threshold's distractors are the other values of
its unit that the same slice states (1% / 1.5% / 2% / 3%), in prose or in a table, never invented ones.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from retrieval.compiler.curated import curated_facts
from retrieval.compiler.definitions import extract_definitions
from retrieval.compiler.enumerations import enumeration_facts, find_listings
from retrieval.compiler.examples import (
    example_facts,
    illustration_fact,
    is_illustration,
    is_working,
    split_examples,
)
from retrieval.compiler.modals import extract_modals
from retrieval.compiler.quantities import find_quantities
from retrieval.compiler.sentences import split_sentences
from retrieval.compiler.statements import formula_fact, is_statement, statement_fact
from retrieval.compiler.tables import parse_tables, table_facts, without_tables
from retrieval.compiler.thresholds import extract_thresholds
from retrieval.facts import Fact
from retrieval.models import Slice


def _sentence_facts(sentence: str, title: str) -> list[Fact]:
    if is_illustration(sentence):
        return [illustration_fact(sentence)]
    if is_working(sentence):
        return [statement_fact(sentence)]
    listings = find_listings(sentence, title)
    found = [
        *enumeration_facts(sentence, listings),
        *extract_definitions(sentence, listings),
        *extract_thresholds(sentence),
        *extract_modals(sentence),
    ]
    if not found and is_statement(sentence):
        found.append(statement_fact(sentence))
    return found


def _siblings(facts: list[Fact], mentions: Iterable[tuple[float, str, str]]) -> list[Fact]:
    """Each threshold's siblings: the slice's other values of its unit, smallest first, as written."""
    by_unit: dict[str, dict[float, str]] = {}
    for value, unit, text in [
        *mentions,
        *((f.value, f.unit, f.value_text) for f in facts if f.kind == "threshold"),
    ]:
        if value is not None:
            by_unit.setdefault(unit, {}).setdefault(value, text)
    result = []
    for fact in facts:
        if fact.kind == "threshold":
            values = by_unit.get(fact.unit, {})
            others = tuple(values[v] for v in sorted(values) if v != fact.value)
            fact = dataclasses.replace(fact, siblings=others)
        result.append(fact)
    return result


def _distinct(facts: list[Fact]) -> list[Fact]:
    """The same fact read twice (a sentence quoted in two places) is kept once."""
    seen: set[tuple] = set()
    kept = []
    for fact in facts:
        key = (
            fact.kind,
            fact.source,
            fact.subject,
            fact.items,
            fact.value,
            fact.unit,
            fact.modal,
            fact.consequence,
            fact.category,
            fact.condition,
            fact.calculator,
        )
        if key not in seen:
            seen.add(key)
            kept.append(fact)
    return kept


def compile_slice(slice_: Slice) -> list[Fact]:
    tables = [table for text in (*slice_.tables, slice_.text) for table in parse_tables(text)]
    prose, inline_examples = split_examples(without_tables(slice_.text))
    sentences = split_sentences(prose)
    facts: list[Fact] = []
    for sentence in sentences:
        facts.extend(_sentence_facts(sentence, slice_.title))
    row_groups: list[list[Fact]] = []
    for table in tables:
        rows, others = table_facts(table)
        row_groups.append(rows)
        facts.extend(rows + others)
    facts.extend(example_facts((*slice_.examples, *inline_examples), slice_.calc_examples))
    curated, rules = curated_facts(slice_.rules, slice_.key_params, sentences)
    facts.extend(curated)
    for rule in rules:
        facts.extend(_sentence_facts(rule, slice_.title) or [statement_fact(rule)])
    facts.extend(fact for fact in map(formula_fact, slice_.formulas) if fact is not None)
    facts = _distinct(facts)

    mentions = [(q.value, q.unit, q.text) for sentence in sentences for q in find_quantities(sentence)]
    ids = {id(fact): f"{slice_.id}#{n}" for n, fact in enumerate(facts)}
    related: dict[int, tuple[str, ...]] = {}
    for rows in row_groups:
        group = [ids[id(row)] for row in rows if id(row) in ids]
        for row in rows:
            related[id(row)] = tuple(i for i in group if i != ids.get(id(row)))
    numbered = [
        dataclasses.replace(fact, id=ids[id(fact)], slice_id=slice_.id, related=related.get(id(fact), ()))
        for fact in facts
    ]
    return _siblings(numbered, mentions)
