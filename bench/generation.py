"""Generation benchmark: the whole loop (graph, critic, SQLite checkpointer on disk) per question.

Offline: questions per second with the embedded author on the bundled sample. With a model: the real
ChatOpenAI client against the fake OpenAI-compatible server of the test suite (a scripted model with a fixed
latency per call): model calls per accepted question, with and without scripted critic rejections, and the
time per question that is not the model. That time is shown two ways: minus the model calls as the author
waits on them (the loop and the checkpointer alone; the target) and minus only the server's own time (which
leaves the HTTP client stack in). Last, how many checkpoint rows a finished question keeps after pruning.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graph.authors.llm import LLMAuthor
from graph.checkpoint import checkpoint_rows, close_checkpointer, open_checkpointer, thread_ids
from graph.service import GenerationService, Result
from retrieval.sources import load_sources
from settings import Settings, load_settings
from settings.model import DataSettings, GraphSettings, LLMSettings
from testkit.fakes.corpus import DEED_TAX_ARGS, write_corpus
from testkit.fakes.exam_model import ExamModel
from testkit.fakes.openai_server import FakeOpenAI

OFFLINE_QUESTIONS = 100
MODEL_QUESTIONS = 40
WARMUP_QUESTIONS = 3
MODEL_LATENCY_S = 0.02
REJECTION_SHARE = 0.3
REJECTION_SEED = 20240917
THROUGHPUT_TARGET_QPS = 10.0
CALLS_TARGET = 3.0
OVERHEAD_TARGET_MS = 30.0
ROWS_TARGET = 1
QTYPES = ("single", "judge", "multi")
_KEY_ENV = "EXAMFORGE_BENCH_LLM_KEY"

Row = tuple[str, str, str, bool | None]


@dataclass(frozen=True)
class Run:
    results: list[Result]
    seconds: float
    db: Path

    @property
    def accepted(self) -> int:
        return sum(r.outcome != "failed" for r in self.results)

    def outcomes(self) -> str:
        counts = {o: sum(r.outcome == o for r in self.results) for o in ("passed", "flagged", "failed")}
        return ", ".join(f"{n} {o}" for o, n in counts.items())


async def generate(service: GenerationService, count: int, db: Path) -> Run:
    """`count` questions one after another for one chat, cycling the question types."""
    results = []
    started = time.perf_counter()
    for number in range(count):
        request = service.new_request(chat_id=1, qtype=QTYPES[number % len(QTYPES)]).request
        results.append(await service.generate(request))
    return Run(results, time.perf_counter() - started, db)


def rows_per_thread(db: Path) -> list[int]:
    saver = open_checkpointer(db)
    try:
        return [checkpoint_rows(saver, thread) for thread in thread_ids(saver)]
    finally:
        close_checkpointer(saver)


async def offline_run(folder: Path) -> Run | None:
    """The bundled sample with the offline author, or None while the sample is not assembled."""
    base = load_settings()
    if not (base.data.knowledge_base.exists() and base.data.question_bank.exists()):
        return None
    db = folder / "offline.sqlite"
    settings = base.model_copy(
        update={
            "llm": base.llm.model_copy(update={"provider": "offline"}),
            "graph": base.graph.model_copy(update={"checkpoint_db": db}),
        }
    )
    service = await GenerationService.open(settings)
    try:
        return await generate(service, OFFLINE_QUESTIONS, db)
    finally:
        await service.close()


class TimedAuthor(LLMAuthor):
    """The model author, also adding up the seconds its nodes wait on model calls (the one place every
    call goes through), so the loop's own time can be told apart from the client's and the model's."""

    waited = 0.0

    async def _call(self, runnable: Any, messages: list[BaseMessage]) -> Any:
        started = time.perf_counter()
        try:
            return await super()._call(runnable, messages)
        finally:
            self.waited += time.perf_counter() - started


@dataclass(frozen=True)
class ModelRun:
    """`server_seconds`: producing replies, latency included; `call_seconds`: the same calls as the
    author waited on them, so the difference is the HTTP client stack and the local server's HTTP."""

    run: Run
    server_seconds: float
    call_seconds: float
    calls: int

    def per_question_ms(self, seconds: float) -> float:
        return seconds / len(self.run.results) * 1000


async def model_run(folder: Path, name: str, model: ExamModel) -> ModelRun:
    """A run against the fake server, after a few unmeasured questions have warmed the process up."""
    kb, bank = write_corpus(folder / "corpus")
    db = folder / f"{name}.sqlite"
    async with FakeOpenAI(model, latency=MODEL_LATENCY_S) as server:
        llm = LLMSettings(
            provider="openai", base_url=server.base_url, model="fake-exam-writer", api_key_env=_KEY_ENV
        )
        settings = Settings(
            data=DataSettings(knowledge_base=kb, question_bank=bank),
            llm=llm,
            graph=GraphSettings(checkpoint_db=db),
        )
        author = TimedAuthor(llm, environ={_KEY_ENV: "sk-bench"})
        service = await GenerationService.open(settings, sources=load_sources(kb, bank), author=author)
        try:
            await generate(service, WARMUP_QUESTIONS, db)
            served, waited, calls = server.busy_seconds, author.waited, len(server.exchanges)
            run = await generate(service, MODEL_QUESTIONS, db)
        finally:
            await service.close()
        return ModelRun(
            run, server.busy_seconds - served, author.waited - waited, len(server.exchanges) - calls
        )


def calls_per_accepted(run: Run) -> float:
    calls = sum(r.usage.get("model_calls", 0) for r in run.results)
    return calls / run.accepted if run.accepted else float("inf")


def _rejecting_model() -> ExamModel:
    rng = random.Random(REJECTION_SEED)
    return ExamModel(
        calculators={"deed_tax": DEED_TAX_ARGS}, disagree=lambda _: rng.random() < REJECTION_SHARE
    )


def offline_rows(offline: Run | None) -> list[Row]:
    if offline is None:
        return [("generation[offline]: throughput, sample data", "sample data not assembled", "", None)]
    qps = len(offline.results) / offline.seconds
    return [
        (
            f"generation[offline]: throughput, {len(offline.results)} questions, disk checkpointer",
            f"{qps:.1f} questions/s",
            f"≥ {THROUGHPUT_TARGET_QPS:g} questions/s",
            qps >= THROUGHPUT_TARGET_QPS,
        ),
        ("generation[offline]: outcomes", offline.outcomes(), "", None),
    ]


def model_rows(happy: ModelRun, rejected: ModelRun) -> list[Row]:
    worst = max(r.usage.get("model_calls", 0) for r in happy.run.results if r.outcome != "failed")
    mean = calls_per_accepted(happy.run)
    loop_ms = happy.per_question_ms(happy.run.seconds - happy.call_seconds)
    outside_ms = happy.per_question_ms(happy.run.seconds - happy.server_seconds)
    client_ms = (happy.call_seconds - happy.server_seconds) / happy.calls * 1000
    return [
        (
            f"generation[model]: calls per accepted question, happy path ({happy.run.outcomes()})",
            f"{mean:.2f} (max {worst})",
            f"≤ {CALLS_TARGET:g}",
            mean <= CALLS_TARGET,
        ),
        (
            f"generation[model]: calls per accepted question, {REJECTION_SHARE:.0%} critic rejections",
            f"{calls_per_accepted(rejected.run):.2f} ({rejected.run.outcomes()})",
            "",
            None,
        ),
        (
            "generation[model]: loop + checkpointer time per question, model calls excluded",
            f"{loop_ms:.1f} ms",
            f"≤ {OVERHEAD_TARGET_MS:g} ms",
            loop_ms <= OVERHEAD_TARGET_MS,
        ),
        ("generation[model]: time per question outside the model server", f"{outside_ms:.1f} ms", "", None),
        ("generation[model]: HTTP client stack per model call", f"{client_ms:.1f} ms", "", None),
    ]


async def checkpoint_row(runs: list[Run]) -> Row:
    counts = [n for run in runs for n in rows_per_thread(run.db)]
    return (
        f"generation: checkpoint rows per finished question after pruning ({len(counts)} questions)",
        f"{statistics.mean(counts):.2f} (max {max(counts)})",
        f"{ROWS_TARGET}",
        max(counts) <= ROWS_TARGET,
    )


async def _rows(folder: Path) -> list[Row]:
    offline = await offline_run(folder)
    happy = await model_run(folder, "happy", ExamModel(calculators={"deed_tax": DEED_TAX_ARGS}))
    rejected = await model_run(folder, "rejections", _rejecting_model())
    runs = [run for run in (offline, happy.run, rejected.run) if run is not None]
    return [*offline_rows(offline), *model_rows(happy, rejected), await checkpoint_row(runs)]


def run() -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="examforge-bench-") as folder:
        return asyncio.run(_rows(Path(folder)))
