"""What a learner practising a chapter with worked examples in 灵活 mode gets: about every other single or
judge question is a calculation told as a client's case (the 灵活 questions examiners sign), while 严谨,
multiple choice and chapters without calculations are drawn as before."""

from __future__ import annotations

from graph.service import GenerationService
from retrieval.sources import Sources
from settings import Settings


def _chapters(sources: Sources, calculation: bool) -> list:
    return [c.key for c in sources.tree.chapters if c.is_calculation == calculation]


async def test_flexible_single_and_judge_are_often_calculation_cases(settings: Settings, sample_sources):
    service = await GenerationService.open(settings, sources=sample_sources)
    try:
        chapter = _chapters(sample_sources, calculation=True)[0]
        requests = [
            service.new_request(chat, qtype, "flexible", [chapter]).request
            for chat in range(40)
            for qtype in ("single", "judge")
        ]
        calculations = sum(r.calculation_only for r in requests)
        assert 0.3 <= calculations / len(requests) <= 0.7
        drawn = {r.slice_id for r in requests if r.calculation_only}
        assert all(service.runner.context.knowledge.get(i).is_calculation for i in drawn)
        asked = [r for r in requests if r.calculation_only][:4]
        delivered = [await service.generate(r) for r in asked]
    finally:
        await service.close()
    cases = [d.question for d in delivered if d.question is not None]
    assert len(cases) >= 3
    assert all(q.calculation is not None and q.mode == "flexible" for q in cases)


async def test_strict_multi_and_chapters_without_calculations_are_unchanged(
    settings: Settings, sample_sources
):
    service = await GenerationService.open(settings, sources=sample_sources)
    try:
        with_calc = _chapters(sample_sources, calculation=True)[0]
        without = _chapters(sample_sources, calculation=False)[0]
        asked = [
            ("single", "strict", with_calc),
            ("multi", "flexible", with_calc),
            ("single", "flexible", without),
        ]
        requests = [
            service.new_request(chat, qtype, mode, [chapter]).request
            for qtype, mode, chapter in asked
            for chat in range(20)
        ]
    finally:
        await service.close()
    assert not any(r.calculation_only for r in requests)
