"""Knowledge-compiler benchmark: compile time and memory on a synthetic 50,000-slice knowledge base, the
bundled knowledge bases compiled cold, and how much of each they turn into facts.

The synthetic base repeats the bundled slices under 500 distinct chapters with every number in their prose,
tables and examples changed by a fixed seed, so its sentences keep the shapes of real textbook prose while no
two slices are identical and no cache or shared string makes the work smaller.

Targets: the bundled knowledge base (185 slices) must compile in under 2 s, cold, because the bot compiles
it at start-up. 50,000 slices is a large real export (a full textbook series is about 5,000); compiling one
in 120 s on one core is what an administrator can wait for once before the cache takes over. Its facts
(about nine a slice) must fit in 1 GB of added peak memory, facts held plus the compiler's working set, so
that the bot process, which also holds the retrieval index and the question bank, stays far inside the
24 GB machine even with a second knowledge base loaded.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from retrieval.compiler import compile_kb
from retrieval.facts import FactBase
from retrieval.kb import load_kb
from retrieval.models import Slice

Row = tuple[str, str, str, bool | None]

SIZE = 50_000
CHAPTERS = 500
SEED = 20261123
BUNDLED_TARGET_S = 2.0
LARGE_TARGET_S = 120.0
LARGE_MEMORY_TARGET_MB = 1000.0
TYPED_SHARE_TARGET = 0.9
ROOT = Path(__file__).resolve().parent.parent
KNOWLEDGE_BASES = (
    ("structured sample", ROOT / "data" / "knowledge_base.jsonl"),
    ("prose-only sample", ROOT / "data" / "prose" / "knowledge_base.jsonl"),
)
_NUMBER = re.compile(r"(?<![\d.,])\d+(?:\.\d+)?(?![\d.,])")


def _vary(text: str, rng: random.Random) -> str:
    """Every number scaled by one factor per text, so a text stays consistent with itself."""
    factor = rng.choice((1, 2, 3, 5))
    return _NUMBER.sub(
        lambda m: str(int(float(m.group()) * factor)) if "." not in m.group() else m.group(), text
    )


def synthetic_kb(slices: Sequence[Slice], size: int = SIZE, seed: int = SEED) -> list[Slice]:
    rng = random.Random(seed)
    made = []
    for number in range(size):
        base = slices[number % len(slices)]
        chapter = number % CHAPTERS
        path = (
            f"第{chapter // 50 + 1}篇 合成",
            f"第{chapter + 1}章 合成",
            *base.path[2:-1],
            f"{base.path[-1]}（{number}）",
        )
        made.append(
            dataclasses.replace(
                base,
                id=f"syn{number}",
                path=path,
                text=_vary(base.text, rng),
                tables=tuple(_vary(t, rng) for t in base.tables),
                examples=tuple(_vary(e, rng) for e in base.examples),
            )
        )
    return made


def _peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _reset_peak_rss() -> None:
    """Linux lets a process reset its peak RSS, so the peak measured is this compile's, not the bench's."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def _timed(compile_: Callable[[], FactBase]) -> tuple[FactBase, float]:
    start = time.perf_counter()
    base = compile_()
    return base, time.perf_counter() - start


def _coverage_rows(label: str, slices: Sequence[Slice], base: FactBase) -> list[Row]:
    typed = {fact.slice_id for fact in base if fact.kind != "statement"}
    share = len(typed) / len(slices)
    any_share = len(base.slices_with_facts()) / len(slices)
    return [
        (f"compiler: {label}, facts per slice", f"{len(base) / len(slices):.1f}", "", None),
        (f"compiler: {label}, slices with any fact", f"{any_share:.0%} of {len(slices)}", "", None),
        (
            f"compiler: {label}, slices with a typed fact",
            f"{share:.0%} of {len(slices)}",
            f"≥ {TYPED_SHARE_TARGET:.0%}",
            share >= TYPED_SHARE_TARGET,
        ),
    ]


def run() -> list[Row]:
    rows: list[Row] = []
    for label, path in KNOWLEDGE_BASES:
        if not path.exists():
            rows.append((f"compiler: {label}", "not built", "", None))
            continue
        slices = load_kb(path).slices
        base, seconds = _timed(lambda slices=slices: compile_kb(slices))
        target = BUNDLED_TARGET_S
        rows.append(
            (f"compiler: {label}, cold compile", f"{seconds:.2f} s", f"< {target:g} s", seconds < target)
        )
        rows.extend(_coverage_rows(label, slices, base))
    sample = load_kb(KNOWLEDGE_BASES[0][1]).slices
    large = synthetic_kb(sample)
    _reset_peak_rss()
    before = _peak_rss_mb()
    base, seconds = _timed(lambda: compile_kb(large))
    memory = _peak_rss_mb() - before
    rows += [
        (
            f"compiler: {SIZE:,} slices, compile",
            f"{seconds:.1f} s",
            f"< {LARGE_TARGET_S:g} s",
            seconds < LARGE_TARGET_S,
        ),
        (
            f"compiler: {SIZE:,} slices, peak memory added",
            f"{memory:.0f} MB",
            f"≤ {LARGE_MEMORY_TARGET_MB:g} MB",
            memory <= LARGE_MEMORY_TARGET_MB,
        ),
        (f"compiler: {SIZE:,} slices, facts", f"{len(base):,}", "", None),
    ]
    return rows
