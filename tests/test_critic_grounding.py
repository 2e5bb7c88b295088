"""The critic asks the examiner's first question of every draft — is the keyed answer true according to the
textbook — on the bundled sample: a key taken from a slice's own sentence passes with the sentence as its
evidence; a falsified or unverifiable key never does, whatever the model's blind solve says."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

import calc
from graph.authors.base import Authored, Choice, Review
from graph.context import GenerationContext, KnowledgeIndex
from graph.format import BASIS, explanation_parts
from graph.nodes.critic import critic
from graph.schemas import Draft, VerificationReport
from graph.service import GenerationService
from retrieval.compiler import compile_kb
from retrieval.models import Slice
from retrieval.sources import Sources
from vocabulary.records import GenerationRequest, Question


def a_rule(sources: Sources) -> tuple[Slice, str]:
    """The first sentence of the sample that obliges someone to do something, without figures."""
    for slice_ in sources.slices:
        for sentence in re.split(r"(?<=。)", slice_.text):
            sentence = sentence.strip()
            if (
                "应当" in sentence
                and "，" in sentence
                and not re.search(r"\d", sentence)
                and len(sentence) < 60
            ):
                return slice_, sentence
    raise AssertionError("the sample has no rule sentence")


def judge(slice_: Slice, statement: str, answer: str, sources: list[str]) -> Question:
    return Question(
        qtype="judge",
        stem=f"{statement}（　）",
        options=["正确", "错误"],
        answer=[answer],
        explanation=f"试题分析：见教材。\n结论：本题选{answer}。",
        slice_id=slice_.id,
        slice_path=slice_.path_text,
        chapter=list(slice_.chapter),
        sources=sources,
    )


class AgreeingModel:
    """A blind solver that always answers what the key says: it must not make an ungrounded key pass."""

    name = "agreeing"

    async def review(self, task, question):
        return Review(answer=question.answer_text, issues=[], suggestions=[])


@pytest.fixture(scope="module")
def context(sample_sources: Sources) -> GenerationContext:
    return GenerationContext(
        knowledge=KnowledgeIndex(list(sample_sources.slices)),
        few_shot=lambda slice_, qtype, k: [],
        duplicate_score=lambda question: 0.0,
        author=AgreeingModel(),
        run_calculator=calc.run,
        calculators_for=lambda slice_: [],
        facts=compile_kb(sample_sources.slices),
    )


async def criticise(context: GenerationContext, question: Question, slice_id: str | None = None) -> dict:
    request = GenerationRequest(chat_id=1, question_id="q", qtype=question.qtype, slice_id=question.slice_id)
    state = {
        "request": request.model_dump(),
        "draft": question.model_dump(),
        "slice_id": slice_id or question.slice_id,
        "limits": {"max_critic_failures": 3, "max_reroutes": 2},
    }
    return await critic(state, SimpleNamespace(context=context))


async def test_a_key_from_the_slice_passes_with_its_sentence_as_evidence_and_basis(context, sample_sources):
    slice_, sentence = a_rule(sample_sources)
    update = await criticise(context, judge(slice_, sentence.rstrip("。"), "A", [sentence]))
    assert VerificationReport.model_validate(update["report"]).status == "passed"
    delivered = Question.model_validate(update["draft"])
    assert delivered.evidence[0].startswith("题干说法：有依据 —《")
    assert sentence in delivered.evidence[0]
    assert sentence in explanation_parts(delivered.explanation)[BASIS]


async def test_a_falsified_key_goes_back_to_the_router_though_the_model_agrees(context, sample_sources):
    slice_, sentence = a_rule(sample_sources)
    falsified = sentence.rstrip("。").replace("应当", "无需", 1)
    update = await criticise(context, judge(slice_, falsified, "A", [sentence]))
    report = VerificationReport.model_validate(update["report"])
    assert report.status == "needs_revision" and report.has_major
    mismatch = [i for i in report.issues if i.type == "answer_mismatch" and i.severity == "major"]
    assert mismatch and "应当→无需" in mismatch[0].detail
    assert "与教材矛盾（应当→无需）" in Question.model_validate(update["draft"]).evidence[0]


async def test_the_same_falsification_keyed_false_passes(context, sample_sources):
    slice_, sentence = a_rule(sample_sources)
    falsified = sentence.rstrip("。").replace("应当", "无需", 1)
    update = await criticise(context, judge(slice_, falsified, "B", [sentence]))
    assert VerificationReport.model_validate(update["report"]).status == "passed"


async def test_a_key_the_textbook_does_not_hold_is_not_verified(context, sample_sources):
    slice_, _ = a_rule(sample_sources)
    update = await criticise(context, judge(slice_, "经纪人员讲解政策时应当以教材规定为准", "A", []))
    report = VerificationReport.model_validate(update["report"])
    assert report.has_major
    assert any(i.detail.startswith("答案无法在教材中找到依据") for i in report.issues)


async def test_a_quoted_source_that_is_not_in_the_textbook_is_a_factual_error(context, sample_sources):
    slice_, sentence = a_rule(sample_sources)
    invented = "经纪人员可以自行决定是否公示收费标准。"
    update = await criticise(context, judge(slice_, sentence.rstrip("。"), "A", [sentence, invented]))
    issues = VerificationReport.model_validate(update["report"]).issues
    assert [(i.type, i.severity) for i in issues] == [("factual_error", "major")]
    assert invented in issues[0].detail


async def test_grounding_that_cannot_be_computed_is_an_issue_not_a_crash(context, sample_sources):
    slice_, sentence = a_rule(sample_sources)
    update = await criticise(context, judge(slice_, sentence.rstrip("。"), "A", [sentence]), "no-such-slice")
    report = VerificationReport.model_validate(update["report"])
    assert report.has_major
    assert any(i.detail.startswith("无法完成教材核对") for i in report.issues)


class ScriptedAuthor:
    """Writes the same judge item for every request; fixes nothing."""

    name = "scripted"

    def __init__(self, statement: str, answer: str, sources: list[str]) -> None:
        self.statement, self.answer, self.sources = statement, answer, sources

    async def draft(self, task):
        draft = Draft(
            stem=f"{self.statement}（　）",
            options=["正确", "错误"],
            answer=self.answer,
            explanation=f"试题分析：见教材。\n结论：本题选{self.answer}。",
            sources=self.sources,
        )
        return Authored(draft=draft, qtype="judge")

    async def choose_calculation(self, task, candidates):
        return Choice(choice=None)

    async def draft_calculation(self, task, choice, result):
        raise AssertionError("no calculation is asked for")

    async def fix(self, task, question, report):
        return None

    async def review(self, task, question):
        return Review(answer=question.answer_text, issues=[], suggestions=[])


async def generate(settings, sources: Sources, author: ScriptedAuthor, slice_: Slice):
    service = await GenerationService.open(settings, sources=sources, author=author)
    try:
        request = GenerationRequest(chat_id=9, question_id="grounded", qtype="judge", slice_id=slice_.id)
        return await service.generate(request)
    finally:
        await service.close()


async def test_the_loop_delivers_a_grounded_key_with_its_evidence(settings, sample_sources):
    slice_, sentence = a_rule(sample_sources)
    result = await generate(
        settings, sample_sources, ScriptedAuthor(sentence.rstrip("。"), "A", [sentence]), slice_
    )
    assert result.outcome == "passed"
    assert result.question.evidence and "有依据" in result.question.evidence[0]


async def test_the_loop_never_delivers_a_falsified_key(settings, sample_sources):
    slice_, sentence = a_rule(sample_sources)
    falsified = sentence.rstrip("。").replace("应当", "无需", 1)
    result = await generate(settings, sample_sources, ScriptedAuthor(falsified, "A", [sentence]), slice_)
    assert result.outcome == "failed" and result.question is None
    assert "与教材矛盾" in result.failure
