"""The model path under the grounding critic, on the bundled sample: the real ChatOpenAI client, the real
graph and checkpointer, and the fake OpenAI-compatible server answering as a scripted model.

A model that lies about the textbook — turns a rule false and keys it as true, quoting the real sentence, or
passes off a rule of its own as a quotation — gets nothing delivered however well it agrees with itself in
the blind solve; an honest model that keys the textbook's own sentences gets its questions through, almost
all of them at the first attempt."""

from __future__ import annotations

import statistics
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

import pytest

from graph.service import GenerationService, Result
from retrieval.models import Slice
from retrieval.sources import Sources
from settings import Settings
from settings.model import LLMSettings
from testkit.fakes.corpus import DEED_TAX_ARGS
from testkit.fakes.exam_model import ExamModel
from testkit.fakes.openai_server import FakeOpenAI, Reply
from vocabulary.kinds import QUESTION_TYPES
from vocabulary.records import GenerationRequest

KEY_ENV = "EXAMFORGE_TEST_LLM_KEY"
QUESTIONS = 30
HAPPY_CALLS = 3  # a calculation: choose, draft, review
HONEST_TARGET = 0.9
# What the critic says when the textbook does not bear a key out.
GROUNDING_REASONS = ("与教材矛盾", "无法在教材中找到依据", "在知识库中找不到", "也是正确说法")

Open = Callable[[ExamModel], Awaitable[tuple[GenerationService, FakeOpenAI]]]


@dataclass(frozen=True)
class Asked:
    slice_: Slice
    result: Result
    calls: int


@pytest.fixture
async def open_service(
    settings: Settings, sample_sources: Sources, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Open]:
    """A service on the sample whose model is the given scripted one behind a fake server."""
    monkeypatch.setenv(KEY_ENV, "sk-examforge-grounding-test")
    opened: list[tuple[GenerationService, FakeOpenAI]] = []

    async def open_(model: ExamModel) -> tuple[GenerationService, FakeOpenAI]:
        server = await FakeOpenAI(model).start()
        settings.llm = LLMSettings(
            provider="openai", base_url=server.base_url, model="fake", api_key_env=KEY_ENV, timeout=5.0
        )
        service = await GenerationService.open(settings, sources=sample_sources)
        opened.append((service, server))
        return service, server

    yield open_
    for service, server in opened:
        await service.close()
        await server.close()


def spread(sources: Sources) -> list[Slice]:
    """Knowledge points taken at even steps through the whole sample, so every part of it is asked."""
    slices = list(sources.slices)
    return slices[:: len(slices) // QUESTIONS][:QUESTIONS]


async def ask_each(service: GenerationService, server: FakeOpenAI, slices: list[Slice]) -> list[Asked]:
    asked = []
    for number, slice_ in enumerate(slices):
        request = GenerationRequest(
            chat_id=7, question_id=uuid.uuid4().hex[:8], qtype=QUESTION_TYPES[number % 3], slice_id=slice_.id
        )
        before = len(server.exchanges)
        result = await service.generate(request)
        asked.append(Asked(slice_, result, len(server.exchanges) - before))
    return asked


def delivered(asked: list[Asked]) -> list[str]:
    return [f"{a.slice_.title}: {a.result.question.stem}" for a in asked if a.result.question is not None]


def test_the_questions_cover_the_sample(sample_sources: Sources) -> None:
    slices = spread(sample_sources)
    assert len(slices) >= 20
    assert len({s.chapter for s in slices}) >= 8


@pytest.mark.parametrize("lie", ["falsify", "invent"])
async def test_a_lying_model_gets_nothing_delivered(
    open_service: Open, sample_sources: Sources, lie: str
) -> None:
    service, server = await open_service(ExamModel(lie=lie))
    asked = await ask_each(service, server, spread(sample_sources))
    assert delivered(asked) == []
    for a in asked:
        assert a.result.outcome == "failed" and a.result.versions == []
        assert any(reason in a.result.failure for reason in GROUNDING_REASONS), a.result.failure
    if lie == "invent":
        assert all("在知识库中找不到" in a.result.failure for a in asked)


# Rules of the sample turned false the way a fluent model does it: one modal or one figure changed.
TURNED_ROUND = [
    pytest.param(
        "采集时应查看权属证书和身份证件原件并当面核对，不能仅凭业主口述填写。",
        "采集时应查看权属证书和身份证件原件并当面核对，可以仅凭业主口述填写",
        id="口述",
    ),
    pytest.param(
        "经纪机构签订房屋出售经纪服务合同时，应当编制房屋状况说明书。",
        "签订房屋出售经纪服务合同时，无需编制房屋状况说明书",
        id="状况说明书",
    ),
    pytest.param(
        "出售共同共有的房屋，应当经全体共同共有人同意，共有人另有约定的除外。",
        "出售共同共有的房屋，无需经全体共同共有人同意，共有人另有约定的除外",
        id="共同共有",
    ),
    pytest.param(
        "网络信息平台不得允许未备案的房地产中介机构发布房源信息。",
        "网络信息平台可以允许未备案的房地产中介机构发布房源信息",
        id="未备案",
    ),
    pytest.param(
        "人民法院查封不动产的期限不得超过三年，期限届满可以续行查封。",
        "人民法院查封不动产的期限可以超过三年，期限届满可以续行查封",
        id="查封期限",
    ),
    pytest.param(
        "房屋完成网签后，在网签合同注销前不能再与他人网签。",
        "房屋完成网签后，在网签合同注销前可以再与他人网签",
        id="网签",
    ),
    pytest.param(
        "商品房的装修费用扣除上限为房屋原值的10%。",
        "商品房的装修费用扣除上限为房屋原值的15%",
        id="装修扣除",
    ),
]


@pytest.mark.parametrize(("source", "lie"), TURNED_ROUND)
async def test_a_turned_rule_keyed_true_with_its_real_sentence_quoted_is_never_delivered(
    open_service: Open, sample_sources: Sources, source: str, lie: str
) -> None:
    slice_ = next(s for s in sample_sources.slices if source.rstrip("。") in s.text + "".join(s.rules))
    draft = {
        "stem": f"{lie}。（　）",
        "options": ["正确", "错误"],
        "answer": "A",
        "explanation": f"教材原文：“{source}”\n试题分析：题干说法与教材规定一致。\n结论：本题选A。",
        "difficulty": 0.4,
        "sources": [source],
    }
    service, server = await open_service(ExamModel())
    server.script(*[Reply.answer(draft)] * 3, step="draft")  # the same lie at every attempt
    request = GenerationRequest(chat_id=7, question_id="lie", qtype="judge", slice_id=slice_.id)
    result = await service.generate(request)
    assert result.question is None and result.outcome == "failed"
    assert any(reason in result.failure for reason in GROUNDING_REASONS), result.failure
    steps = [r.step for r in server.requests()]  # a slice with figures may be offered a calculator first
    assert steps.count("draft") == 3 and "review" not in steps  # never reached the agreeing blind solve


async def test_an_honest_model_gets_its_questions_through_at_the_first_attempt(
    open_service: Open, sample_sources: Sources
) -> None:
    service, server = await open_service(ExamModel(calculators={"deed_tax": DEED_TAX_ARGS}))
    asked = await ask_each(service, server, spread(sample_sources))
    first_time = [a for a in asked if a.result.outcome == "passed" and a.calls <= HAPPY_CALLS]
    share = len(first_time) / len(asked)
    mean_calls = statistics.mean(a.calls for a in asked)
    missed = [f"{a.slice_.title} ({a.calls} calls): {a.result.trace[-2]['detail']}" for a in asked]
    missed = [m for m, a in zip(missed, asked, strict=True) if a not in first_time]
    counted = f"{len(first_time)}/{len(asked)} through in ≤{HAPPY_CALLS} calls, {mean_calls:.2f} calls each"
    assert share >= HONEST_TARGET, f"{counted}; " + "; ".join(missed)
    for a in first_time:
        question = a.result.question
        assert question is not None and (question.sources or question.calculation is not None)
        assert any(line.startswith(("选项", "题干", "按题干复核")) for line in question.evidence)
