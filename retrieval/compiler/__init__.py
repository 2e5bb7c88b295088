"""The knowledge compiler: every slice, prose or structured, turned into typed facts (retrieval/facts.py).

Public API: `compile_slice(slice_)`, `compile_kb(slices, cache_dir=None)`, and `summarise(base, slices)`
for `data check`.
"""

from retrieval.compiler.kb_facts import compile_kb
from retrieval.compiler.slice_facts import compile_slice
from retrieval.compiler.summary import CompileSummary, summarise

__all__ = ["CompileSummary", "compile_kb", "compile_slice", "summarise"]
