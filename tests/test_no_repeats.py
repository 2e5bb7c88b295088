"""What a learner who practises one chapter for a while notices: no question comes back while the chapter
has unused knowledge, a new chat does not open with everyone else's first question, and the people and
figures of 灵活 questions change."""

from __future__ import annotations

from collections import Counter

from graph.service import GenerationService
from retrieval.sources import Sources
from settings import Settings
from vocabulary.records import SamplerState


async def _round(service: GenerationService, chat: int, chapter, count: int, qtype: str, mode: str) -> list:
    questions = []
    for _ in range(count):
        result = await service.generate(service.new_request(chat, qtype, mode, [chapter]).request)
        if result.question is not None:
            questions.append(result.question)
    return questions


def _largest_chapter(sources: Sources):
    return max(sources.tree.chapters, key=lambda c: c.slices).key


async def test_a_twenty_question_round_on_one_chapter_asks_no_stem_twice(settings: Settings, sample_sources):
    service = await GenerationService.open(settings, sources=sample_sources)
    try:
        questions = await _round(service, 7, _largest_chapter(sample_sources), 20, "single", "strict")
    finally:
        await service.close()
    assert len(questions) >= 18
    # "关于X，下列说法正确的是" may open two questions of a chapter; the same question may not come twice
    asked = Counter(q.stem + "|".join(sorted(q.options)) for q in questions)
    assert [question for question, n in asked.items() if n > 1] == []
    # a worked example may come back with other figures; any other fact is asked once
    facts = [tuple(q.fact_ids) for q in questions if q.fact_ids and q.calculation is None]
    assert len(set(facts)) == len(facts)
    figures = [(q.fact_ids[0], q.stem) for q in questions if q.calculation is not None]
    assert len(set(figures)) == len(figures)


async def test_new_chats_do_not_all_start_with_the_same_question(settings: Settings, sample_sources):
    service = await GenerationService.open(settings, sources=sample_sources)
    try:
        firsts = [
            (await _round(service, chat, _largest_chapter(sample_sources), 1, "judge", "flexible"))[0].stem
            for chat in range(100, 106)
        ]
    finally:
        await service.close()
    assert len(set(firsts)) >= 4


async def test_the_same_chat_history_gives_the_same_questions(settings: Settings, sample_sources):
    chapter = _largest_chapter(sample_sources)
    stems = []
    for _ in range(2):
        service = await GenerationService.open(settings, sources=sample_sources)
        try:
            stems.append([q.stem for q in await _round(service, 9, chapter, 4, "single", "flexible")])
        finally:
            await service.close()
        settings.graph.checkpoint_db = settings.graph.checkpoint_db.with_name("again.sqlite")
    assert stems[0] == stems[1]


async def test_a_draw_hands_back_the_next_history_and_leaves_the_stored_one_as_it_was(
    settings: Settings, sample_sources
):
    """A round that stops before storing the new history (a crash, a failed write) draws the same slice
    again next time: the history it read is never advanced behind its back."""
    chapter = _largest_chapter(sample_sources)
    service = await GenerationService.open(settings, sources=sample_sources)
    try:
        stored = SamplerState()
        first, after_first = service.new_request(11, "single", "strict", [chapter], sampler_state=stored)
        assert stored == SamplerState()
        assert after_first.draws == 1 and after_first.used == [first.slice_id]
        again, _ = service.new_request(11, "single", "strict", [chapter], sampler_state=stored)
        assert again.slice_id == first.slice_id and again.seed == first.seed
        second, after_second = service.new_request(
            11, "single", "strict", [chapter], sampler_state=after_first
        )
        assert second.slice_id != first.slice_id and after_second.draws == 2
        assert after_first.draws == 1
    finally:
        await service.close()
