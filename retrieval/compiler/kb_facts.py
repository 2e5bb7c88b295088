"""A whole knowledge base → its FactBase, compiled once per content and linked across slices."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from retrieval.compiler import cache
from retrieval.compiler.links import link_enumerations
from retrieval.compiler.slice_facts import compile_slice
from retrieval.facts import Fact, FactBase
from retrieval.models import Slice


def _compile(slices: Sequence[Slice]) -> list[Fact]:
    facts = [fact for slice_ in slices for fact in compile_slice(slice_)]
    return link_enumerations(facts, slices)


def compile_kb(slices: Sequence[Slice], cache_dir: Path | None = None) -> FactBase:
    """All facts of `slices`; with `cache_dir`, read from and written to a cache file keyed by content."""
    facts: list[Fact] | None = None
    path = cache.cache_path(cache_dir, cache.kb_key(slices)) if cache_dir is not None else None
    if path is not None:
        facts = cache.load(path)
    if facts is None:
        facts = _compile(slices)
        if path is not None:
            cache.save(path, facts)
    return FactBase(facts, chapters={s.id: s.chapter for s in slices})
