"""The offline author aiming at a learner's band (易 / 中 / 难): it chooses among the questions it can write
for the knowledge point, so a band never makes a question farther from it, and often brings it inside."""

from __future__ import annotations

import asyncio

import pytest

from graph.authors.base import AuthorError, Task
from graph.authors.offline import OfflineAuthor
from progress.difficulty import estimate
from retrieval.facts import FactBase
from retrieval.models import Slice
from vocabulary.kinds import Difficulty


async def written(facts: FactBase, slice_: Slice, qtype: str, band: Difficulty | None) -> float | None:
    task = Task(slice=slice_, qtype=qtype, mode="strict", seed=7, facts=facts, difficulty=band)
    try:
        return (await OfflineAuthor().draft(task)).draft.difficulty
    except AuthorError:
        return None


@pytest.fixture(scope="module")
def unbanded(compiled_sample) -> dict[tuple[str, str], float]:
    """The level the author writes at with no band, per knowledge point and type it writes for: the same
    for every band, so worked out once for the module."""
    facts, slices = compiled_sample
    levels = {}
    for slice_ in slices.values():
        for qtype in ("judge", "single"):
            level = asyncio.run(written(facts, slice_, qtype, None))
            if level is not None:
                levels[slice_.id, qtype] = level
    return levels


async def drafts(compiled_sample, unbanded, band: Difficulty) -> list[tuple[float, float]]:
    """(any level, the band) for every knowledge point and type the author writes for."""
    facts, slices = compiled_sample
    return [
        (anyhow, await written(facts, slices[slice_id], qtype, band))
        for (slice_id, qtype), anyhow in unbanded.items()
    ]


async def test_easy_brings_questions_into_the_band_and_never_makes_one_harder(compiled_sample, unbanded):
    pairs = await drafts(compiled_sample, unbanded, "easy")
    assert all(aimed is not None and aimed <= anyhow for anyhow, aimed in pairs)
    brought_in = [(a, b) for a, b in pairs if estimate(a).level != "easy" and estimate(b).level == "easy"]
    assert brought_in, "some knowledge point had an easy question besides its first"


async def test_hard_takes_the_hardest_it_can_write_and_never_an_easier_one(compiled_sample, unbanded):
    """No offline recipe rates a question above 0.6, so 难 can only come nearer, never inside."""
    pairs = await drafts(compiled_sample, unbanded, "hard")
    assert all(aimed is not None and aimed >= anyhow for anyhow, aimed in pairs)
    assert any(aimed > anyhow for anyhow, aimed in pairs)
