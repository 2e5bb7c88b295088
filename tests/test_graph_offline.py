"""The loop with the offline author over the bundled sample: what a learner would get from /quiz."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import replace

import pytest

import calc
from graph.authors.base import Authored
from graph.checkpoint import checkpoint_rows
from graph.format import numbers_in, same_number
from graph.schemas import Draft
from graph.service import GenerationService, Result
from retrieval.sources import Sources
from settings import Settings


async def _open(settings: Settings, sources: Sources) -> GenerationService:
    return await GenerationService.open(settings, sources=sources)


def _nodes(result: Result) -> list[str]:
    return [step["node"] for step in result.trace]


# Verified questions of each type from every chapter, per mode: (at least, exactly).
FLOORS = {
    "judge": {"strict": (16, True), "flexible": (11, False)},
    "single": {"strict": (15, False), "flexible": (9, False)},
    "multi": {"strict": (16, True), "flexible": (3, False)},
}


@pytest.mark.parametrize("qtype", list(FLOORS))
async def test_every_chapter_yields_verified_questions_of_each_type(settings, sample_sources, qtype):
    """严谨 questions of every type come from every chapter. 灵活 needs a real situation, which some chapters'
    material cannot give (bare limits, definitions): there the author fails cleanly, saying so, rather than
    deliver a fixed frame, so only a floor is held (measured 2026-11-24 with no fixed frame delivered:
    judge 14, single 14, multi 3 of 16 chapters; a time limit with no counting rule is no longer a 灵活
    single, as its one kept day was always the earliest date, and a listed act told with a name is no longer
    a 灵活 judge: one chapter fewer each). One type per test, so the parallel run can spread them."""
    service = await _open(settings, sample_sources)
    passed: Counter[str] = Counter()
    chapters = [c for c in sample_sources.tree.chapters if c.slices]
    try:
        for chapter in chapters:
            for mode in ("strict", "flexible"):
                request = service.new_request(1, qtype, mode, [chapter.key]).request
                result = await service.generate(request)
                if result.outcome == "passed":
                    assert result.question.qtype == qtype
                    assert tuple(result.question.chapter) == chapter.key
                    passed[mode] += 1
                else:
                    assert result.question is None and result.failure, "a failure says why"
    finally:
        await service.close()
    assert len(chapters) == 16
    for mode, (floor, exact) in FLOORS[qtype].items():
        assert passed[mode] == floor if exact else passed[mode] >= floor, (mode, passed[mode])


async def test_finance_answers_equal_their_calculator(settings, sample_sources):
    service = await _open(settings, sample_sources)
    checked = failed = 0
    try:
        for _ in range(12):
            request = service.new_request(2, "single", "flexible", calculation_only=True).request
            result = await service.generate(request)
            if result.outcome != "passed":
                assert result.question is None and result.failure, "a failure says why"
                failed += 1
                continue
            calculation = result.question.calculation
            if calculation is None:
                continue
            expected = calc.run(calculation.calculator, calculation.args)[calculation.field]
            correct = result.question.options[result.question.correct_indexes[0]]
            assert any(same_number(n, expected) for n in numbers_in(correct)), (correct, expected)
            assert result.calc_trace[-1]["result"][calculation.field] == expected
            checked += 1
    finally:
        await service.close()
    assert failed <= 2, "a calculation-only request fails only where no worked example can be varied"
    assert checked >= 8, "calculation-only requests should mostly go through the finance expert"


async def test_a_batch_of_twenty_has_no_repeated_stem(settings, sample_sources):
    service = await _open(settings, sample_sources)
    try:
        stems = []
        for index in range(20):
            qtype = ("judge", "single", "multi")[index % 3]
            result = await service.generate(service.new_request(3, qtype, "strict").request)
            assert result.ok
            stems.append(result.question.stem + "|".join(result.question.options))
    finally:
        await service.close()
    assert len(set(stems)) == 20


async def test_same_seed_same_question(settings, sample_sources):
    """Reproducible from the request alone: another process given the same request writes the same question
    (within one process the chat's second question would avoid the fact it was just asked)."""
    questions = []
    request = None
    for question_id in ("first", "again"):
        service = await _open(settings, sample_sources)
        try:
            request = request or service.new_request(4, "judge", "flexible").request
            result = await service.generate(request.model_copy(update={"question_id": question_id}))
            questions.append(result.question)
        finally:
            await service.close()
    assert questions[0].stem == questions[1].stem
    assert questions[0].options == questions[1].options


async def test_a_finished_thread_is_pruned_to_one_checkpoint(settings, sample_sources):
    service = await _open(settings, sample_sources)
    try:
        result = await service.generate(service.new_request(5, "judge", "strict").request)
        assert checkpoint_rows(service.runner.saver, result.thread_id) == 1
    finally:
        await service.close()


@pytest.mark.parametrize(
    ("reason", "through"),
    [("stem_unclear", "fixer"), ("answer_wrong", "fixer")],
)
async def test_revision_after_restart_gives_v2_with_history(settings, sample_sources, reason, through):
    service = await _open(settings, sample_sources)
    result = await service.generate(service.new_request(6, "single", "strict").request)
    v1 = result.question
    await service.close()

    reopened = await _open(settings, sample_sources)
    try:
        events = [event async for event in reopened.revise(result.thread_id, reason, "选项B和D说的是一回事")]
    finally:
        await reopened.close()
    revised = events[-1]
    assert isinstance(revised, Result)
    assert revised.outcome == "passed"
    assert revised.version == 2
    assert [v["version"] for v in revised.versions] == [1, 2]
    assert revised.versions[0]["question"] == v1.model_dump()
    assert revised.question.fingerprint() != v1.fingerprint()
    revision_path = _nodes(revised)[len(_nodes(result)) :]
    assert revision_path[0] == "critic"
    assert revision_path[1] == through
    assert revision_path[-1] == "done"
    assert "教师反馈" in revised.trace[len(result.trace)]["detail"]


async def test_an_unfinished_generation_resumes_after_a_crash(settings, sample_sources):
    service = await _open(settings, sample_sources)
    request = service.new_request(7, "multi", "strict").request

    async def run_until_writer() -> None:
        async for event in service.stream(request):
            if getattr(event, "node", "") == "writer":
                raise asyncio.CancelledError  # the process dies right after the writer's checkpoint

    with pytest.raises(asyncio.CancelledError):
        await run_until_writer()
    await service.close()

    restarted = await _open(settings, sample_sources)
    try:
        resumed = await restarted.resume_pending()
    finally:
        await restarted.close()
    assert [r.thread_id for r in resumed] == [request.thread_id]
    assert resumed[0].outcome == "passed"
    nodes = _nodes(resumed[0])
    assert nodes.count("router") == 1, "resumed from the checkpoint, not started again"
    assert nodes[-2:] == ["critic", "done"]


class StubbornAuthor:
    """Redrafts the very same question and "fixes" by changing nothing: no revision can ever be real."""

    def __init__(self) -> None:
        from graph.authors.offline import OfflineAuthor

        self.inner = OfflineAuthor()
        self.name = "stubborn"

    async def draft(self, task):
        return await self.inner.draft(replace(task, seed=0, attempt=0))

    async def choose_calculation(self, task, candidates):
        return await self.inner.choose_calculation(replace(task, seed=0, attempt=0), candidates)

    async def draft_calculation(self, task, choice, result):
        return await self.inner.draft_calculation(replace(task, seed=0, attempt=0), choice, result)

    async def fix(self, task, question, report):
        draft = Draft(
            stem=question.stem,
            options=question.options,
            answer=question.answer_text,
            explanation=question.explanation,
            difficulty=question.difficulty,
        )
        return Authored(draft=draft, qtype=question.qtype, calculation=question.calculation)

    async def review(self, task, question):
        return None


async def test_an_unchanged_question_never_passes_a_human_complaint(settings, sample_sources):
    service = await GenerationService.open(settings, sources=sample_sources, author=StubbornAuthor())
    try:
        request = service.new_request(
            8, "judge", "strict", [("第六篇 不动产登记与权属", "第十三章 不动产登记")]
        ).request
        first = await service.generate(request.model_copy(update={"seed": 0}))
        assert first.outcome == "passed"
        events = [e async for e in service.revise(first.thread_id, "stem_unclear", "")]
    finally:
        await service.close()
    revised = events[-1]
    assert revised.question is None or revised.question.fingerprint() != first.question.fingerprint()
    assert revised.outcome in ("failed", "passed")
    nodes = [step["node"] for step in revised.trace][len(first.trace) :]
    assert nodes[:3] == ["critic", "fixer", "critic"], "the unchanged 'fix' was sent back, not accepted"
