"""Questions written in worker processes ([graph] workers): the same results as in the bot's own process,
revisions, cancellation that reaches the worker, a worker that dies, and a whole round through the bot."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from graph.service import GenerationService, Progress, UnknownQuestion
from graph.workers import WORKER_LOST
from settings.model import DataSettings, GraphSettings, LLMSettings, Settings
from testkit.botharness import bot_running, world
from testkit.fakes.corpus import DEED_TAX_ARGS, TAXPAYER, write_corpus
from testkit.fakes.exam_model import ExamModel
from testkit.fakes.openai_server import FakeOpenAI
from tests.test_bot_private import choose
from tests.test_llm_loop import request_for

KEY_ENV = "EXAMFORGE_TEST_LLM_KEY"
SLOW_MODEL_S = 1.5
# One model server and one worker process serve the whole module (starting a worker is most of what these
# tests cost); `service` hands each test the pair as a fresh one would be, so no test relies on another.
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def model() -> AsyncIterator[FakeOpenAI]:
    async with FakeOpenAI(ExamModel(calculators={"deed_tax": DEED_TAX_ARGS})) as fake:
        yield fake


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def pool(
    model: FakeOpenAI, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[GenerationService]:
    """One worker writing with the model (the key reaches it through the environment it inherits)."""
    folder = tmp_path_factory.mktemp("workers")
    kb, bank = write_corpus(folder / "data")
    settings = Settings(
        data=DataSettings(knowledge_base=kb, question_bank=bank),
        llm=LLMSettings(
            provider="openai", base_url=model.base_url, model="fake-exam-writer", api_key_env=KEY_ENV
        ),
        graph=GraphSettings(checkpoint_db=folder / "checkpoints.sqlite", workers=1),
    )
    with pytest.MonkeyPatch.context() as environment:
        environment.setenv(KEY_ENV, "sk-examforge-worker-test")
        opened = await GenerationService.open(settings)
        yield opened
        await opened.close()


@pytest.fixture
def service(pool: GenerationService, model: FakeOpenAI) -> GenerationService:
    """The shared worker with the settings it was opened with (a test that killed it leaves it to be started
    again by the next question, as the bot would) and a model with no calls recorded and no latency."""
    worker = pool.workers.workers[0]
    worker.settings = pool.settings
    model.latency = 0.0
    model.exchanges.clear()
    return pool


async def test_a_worker_writes_and_revises_like_the_bot_itself(service: GenerationService) -> None:
    request = request_for(service, TAXPAYER)
    result = await service.generate(request)
    assert result.outcome == "passed" and result.version == 1
    assert [t["node"] for t in result.trace] == ["router", "specialist", "writer", "critic", "done"]
    assert result.question is not None and "契税的纳税人" in result.question.stem
    revised = [event async for event in service.revise(result.thread_id, "stem_unclear")]
    assert revised[-1].outcome == "passed" and revised[-1].version == 2
    with pytest.raises(UnknownQuestion):
        [event async for event in service.revise("1/never-written", "other")]


async def test_a_question_dropped_by_the_bot_stops_costing_model_calls(
    service: GenerationService, model: FakeOpenAI
) -> None:
    model.latency = SLOW_MODEL_S
    events = service.stream(request_for(service, TAXPAYER))
    assert isinstance(await anext(events), Progress)  # the router's decision; the draft call is under way
    await asyncio.sleep(0.2)
    await events.aclose()
    await asyncio.sleep(SLOW_MODEL_S * 2)
    assert len(model.exchanges) == 1, "the worker cancelled the run: no review call followed the draft"


async def test_a_worker_that_dies_fails_its_question_and_the_next_one_starts_it_again(
    service: GenerationService,
) -> None:
    events = service.stream(request_for(service, TAXPAYER))
    await anext(events)
    service.workers.workers[0].process.kill()
    last = [event async for event in events][-1]
    assert last.outcome == "failed" and last.failure == WORKER_LOST and not last.ok
    again = await service.generate(request_for(service, TAXPAYER))
    assert again.outcome == "passed"


async def test_a_round_through_the_bot_with_questions_written_by_workers(tmp_path: Path) -> None:
    async with world(tmp_path) as (emulator, client, settings):
        settings.graph.workers = 2
        async with bot_running(emulator, settings):
            learner = await client.create_user("Wendy")
            await choose(client, learner, "mixed", count=5)
            for _ in range(3):
                quiz = await client.wait_for_poll(learner, timeout=30)
                await client.vote(learner, quiz, list(quiz.poll.correct_option_ids))
                feedback = await client.wait_for_text(learner, "解析", timeout=30)
                assert "回答正确" in feedback.text
            await client.send_text(learner, "/stop")
            end = await client.wait_for_text(learner, "本轮结束", timeout=30)
    assert "3/3" in end.text


async def test_a_worker_that_cannot_start_again_fails_the_question_instead_of_the_bot(
    service: GenerationService, tmp_path: Path
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the checkpoint folder should be")
    worker = service.workers.workers[0]
    graph = worker.settings.graph.model_copy(update={"checkpoint_db": blocker / "checkpoints.sqlite"})
    worker.settings = worker.settings.model_copy(update={"graph": graph})
    worker.process.kill()
    await worker.process.wait()
    result = await service.generate(request_for(service, TAXPAYER))
    assert result.outcome == "failed" and result.failure == WORKER_LOST
