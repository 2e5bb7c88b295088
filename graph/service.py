"""The generation service: the one object handlers and the CLI use. It owns the compiled graph, the
checkpointer connection and a lock per thread, and turns graph runs into progress events and results."""

from __future__ import annotations

import asyncio
import time
import uuid
import weakref
import zlib
from collections import OrderedDict, deque
from collections.abc import AsyncIterator
from functools import partial
from typing import Any, Literal

from langgraph.types import Command

import calc
from graph.authors import make_author
from graph.authors.base import Author
from graph.build import build_graph
from graph.checkpoint import close_checkpointer, open_checkpointer, prune_thread, purge_chat, thread_ids
from graph.complaints import complained_part, feedback_issue
from graph.context import GenerationContext, KnowledgeIndex
from graph.events import Progress, Result, UnknownQuestion
from graph.schemas import VerificationReport
from graph.similarity import duplicate_scorer
from graph.workers import GenerationWorkers
from retrieval.compiler import compile_kb
from retrieval.facts import FactBase
from retrieval.index import QuestionIndex
from retrieval.models import Slice
from retrieval.sampler import SliceSampler
from retrieval.sources import Sources, load_sources
from settings import Settings
from vocabulary.kinds import FeedbackReason
from vocabulary.records import GenerationRequest, Question, SamplerState

ASKED_PER_CHAT = 300
ASKED_CHATS = 10_000


def question_seed(seed: int, chat_id: int, draws: int) -> int:
    """Each question of each chat its own seed (people, figures, fact order), reproducible from the
    configured seed: the same chat history gives the same questions, two chats do not start alike."""
    return zlib.crc32(f"{seed}/{chat_id}/{draws}".encode())


def tells_a_calculation(qtype: str, mode: str, seed: int) -> bool:
    """Every other 灵活 single or judge question is a calculation case where the chosen chapters have worked
    examples: examiners signed 38 of 42 calculations told as a client's situation and none of the fixed
    frames a chapter's rules fall back to, and the field's own 灵活 items in such chapters are mostly cases
    with figures. Multiple choice is never a calculation."""
    return mode == "flexible" and qtype != "multi" and seed % 2 == 0


def _chosen(chapters: list[tuple[str, ...]] | None) -> set[tuple[str, ...]] | None:
    return {tuple(c) for c in chapters} if chapters else None


class GenerationService:
    def __init__(self, settings: Settings, sources: Sources, author: Author, index: QuestionIndex) -> None:
        self.settings = settings
        self.sources = sources
        self.author = author
        self.index = index
        self.knowledge = KnowledgeIndex(list(sources.slices))
        self.facts = compile_kb(sources.slices, cache_dir=settings.data.facts_cache)
        self.sampler = SliceSampler(sources.slices, settings.retrieval.mastery_weights, settings.graph.seed)
        self.context = GenerationContext(
            knowledge=self.knowledge,
            few_shot=index.few_shot,
            duplicate_score=duplicate_scorer(index),
            author=author,
            run_calculator=calc.run,
            calculators_for=partial(calculators_for, facts=self.facts),
            few_shot_k=settings.retrieval.few_shot_k,
            duplicate_threshold=settings.retrieval.duplicate_threshold,
            questions_by_id={q.id: q for q in sources.questions},
            facts=self.facts,
        )
        self.limits = {
            "max_critic_failures": settings.graph.max_critic_failures,
            "max_reroutes": settings.graph.max_reroutes,
        }
        self._saver = None
        self._workers: GenerationWorkers | None = None
        self._graph = build_graph()
        self._asked: OrderedDict[int, deque[str]] = OrderedDict()
        # One lock per thread, alive only while someone runs or waits on that thread.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    @classmethod
    async def open(cls, settings: Settings, sources: Sources | None = None, author: Author | None = None):
        sources = sources or load_sources(settings.data.knowledge_base, settings.data.question_bank)
        index = QuestionIndex(sources.questions, settings.retrieval.tokenizer)
        service = cls(settings, sources, author or make_author(settings.llm), index)
        service._saver = open_checkpointer(settings.graph.checkpoint_db)
        service._graph = build_graph(service._saver)
        if settings.graph.workers:
            service._workers = GenerationWorkers(settings, settings.graph.workers)
            try:
                await service._workers.start()
            except BaseException:
                await service.close()
                raise
        return service

    async def close(self) -> None:
        if self._workers is not None:
            await self._workers.close()
            self._workers = None
        if self._saver is not None:
            close_checkpointer(self._saver)
            self._saver = None
        closer = getattr(self.author, "aclose", None)
        if closer is not None:
            await closer()

    def new_request(
        self,
        chat_id: int,
        qtype: str,
        mode: str = "strict",
        chapters: list[tuple[str, ...]] | None = None,
        calculation_only: bool = False,
        sampler_state: SamplerState | None = None,
    ) -> GenerationRequest:
        """A request with its slice already drawn for the chat (mastery-weighted, no repeats per cycle).

        `sampler_state` is the chat's stored history; it is advanced in place so the caller can store it back.
        """
        key = str(chat_id)
        if sampler_state is not None:
            self.sampler.states[key] = sampler_state
        try:
            before = self.sampler.states[key].draws if key in self.sampler.states else 0
            seed = question_seed(self.settings.graph.seed, chat_id, before + 1)
            calculation_only = calculation_only or (
                tells_a_calculation(qtype, mode, seed) and self.sampler.has_calculations(_chosen(chapters))
            )
            slice_ = self.draw_slice(chat_id, chapters, calculation_only)
            state = self.sampler.states[key]
            visit = state.visits.get(slice_.id, 1) - 1
            draws = state.draws
        finally:
            if sampler_state is not None:
                del self.sampler.states[key]  # the caller stores it; no copy kept per chat
        return GenerationRequest(
            chat_id=chat_id,
            question_id=uuid.uuid4().hex[:12],
            qtype=qtype,
            mode=mode,
            chapters=[list(c) for c in chapters or []],
            calculation_only=calculation_only,
            slice_id=slice_.id,
            seed=question_seed(self.settings.graph.seed, chat_id, draws),
            visit=visit,
        )

    def draw_slice(
        self, chat_id: int, chapters: list[tuple[str, ...]] | None, calculation_only: bool
    ) -> Slice:
        return self.sampler.draw(str(chat_id), _chosen(chapters), calculation_only)

    def _lock(self, thread_id: str) -> asyncio.Lock:
        lock = self._locks.get(thread_id)
        if lock is None:
            lock = self._locks[thread_id] = asyncio.Lock()
        return lock

    def _config(self, thread_id: str) -> dict[str, Any]:
        return {"configurable": {"thread_id": thread_id}, "recursion_limit": 100}

    def _recently_asked(self, chat_id: int) -> deque[str]:
        """Facts this process asked the chat lately (most recent chats kept), so a new question of the
        chat picks another fact while unused ones remain. In memory: a restart forgets it."""
        asked = self._asked.pop(chat_id, None) or deque(maxlen=ASKED_PER_CHAT)
        self._asked[chat_id] = asked
        while len(self._asked) > ASKED_CHATS:
            self._asked.popitem(last=False)
        return asked

    async def stream(self, request: GenerationRequest) -> AsyncIterator[Progress | Result]:
        if request.slice_id is None:
            chapters = [tuple(c) for c in request.chapters] or None
            drawn = self.draw_slice(request.chat_id, chapters, request.calculation_only)
            request = request.model_copy(update={"slice_id": drawn.id})
        asked = self._recently_asked(request.chat_id)
        if not request.avoid:
            request = request.model_copy(update={"avoid": list(asked)})
        async for event in self._stream(request):
            if isinstance(event, Result) and event.question is not None:
                asked.extend(event.question.fact_ids)
            yield event

    async def _stream(self, request: GenerationRequest) -> AsyncIterator[Progress | Result]:
        if self._workers is not None:
            async for event in self._workers.stream(request):
                yield event
            return
        initial = {
            "request": request.model_dump(),
            "limits": self.limits,
            "slice_id": request.slice_id,
            "tried_slices": [],
            "attempt": 0,
            "critic_failures": 0,
            "reroutes": 0,
            "report": None,
            "best": None,
            "pending_human": None,
            "outcome": None,
            "escalate": False,
        }
        async for event in self._run(request.thread_id, initial):
            yield event

    async def generate(self, request: GenerationRequest) -> Result:
        return await _last_result(self.stream(request))

    async def revise(
        self, thread_id: str, reason: FeedbackReason, comment: str = ""
    ) -> AsyncIterator[Progress | Result]:
        """Re-enter a finished thread at the critic with the human issue; the result is the next version."""
        if self._workers is not None:
            async for event in self._workers.revise(thread_id, reason, comment):
                yield event
            return
        snapshot = await self._graph.aget_state(self._config(thread_id))
        versions = snapshot.values.get("versions") if snapshot.values else None
        if not versions:
            raise UnknownQuestion(thread_id)
        latest = versions[-1]
        question = Question.model_validate(latest["question"])
        issue = feedback_issue(reason, comment)
        human = VerificationReport.from_issues([issue])
        update = {
            "draft": latest["question"],
            "slice_id": latest["slice_id"],
            "report": human.model_dump(),
            "pending_human": {
                "issues": [issue.model_dump()],
                "reason": reason,
                "part": complained_part(question, reason),
            },
            "critic_failures": 0,
            "reroutes": 0,
            "best": None,
            "outcome": None,
            "failure": "",
            "escalate": False,
        }
        async for event in self._run(thread_id, Command(update=update, goto="critic")):
            yield event

    async def _run(self, thread_id: str, graph_input: Any) -> AsyncIterator[Progress | Result]:
        config = self._config(thread_id)
        async with self._lock(thread_id):
            started = time.perf_counter()
            async for mode, chunk in self._graph.astream(
                graph_input,
                config,
                context=self.context,
                stream_mode=["updates", "custom"],
                durability="sync",
            ):
                if mode != "updates":
                    continue
                for node, update in chunk.items():
                    for item in (update or {}).get("trace", []):
                        yield Progress(thread_id, node, item.get("verdict", ""), item.get("detail", ""))
            result = await self.result(thread_id)
            result.seconds = time.perf_counter() - started
            if self._saver is not None:
                prune_thread(self._saver, thread_id)
            yield result

    async def result(self, thread_id: str) -> Result:
        snapshot = await self._graph.aget_state(self._config(thread_id))
        values = snapshot.values or {}
        versions = list(values.get("versions", []))
        outcome = values.get("outcome") or "failed"
        latest = versions[-1] if versions and outcome != "failed" else None
        return Result(
            thread_id=thread_id,
            outcome=outcome,
            question=Question.model_validate(latest["question"]) if latest else None,
            version=latest["version"] if latest else None,
            versions=versions,
            trace=list(values.get("trace", [])),
            failure=values.get("failure", "") if outcome == "failed" else "",
            usage=dict(values.get("usage") or {}),
            calc_trace=list(values.get("calc_trace", [])),
        )

    async def thread_status(self, thread_id: str) -> Literal["absent", "unfinished", "finished"]:
        """Where a named generation stands, so a rerun of the same batch skips, finishes or starts it."""
        snapshot = await self._graph.aget_state(self._config(thread_id))
        if snapshot.tasks:
            return "unfinished"
        return "finished" if snapshot.values else "absent"

    def resume(self, thread_id: str) -> AsyncIterator[Progress | Result]:
        """Finish an interrupted generation from its last checkpoint."""
        return self._run(thread_id, None)

    async def resume_pending(self) -> list[Result]:
        """Finish every generation a crash interrupted, from its last checkpoint."""
        if self._saver is None:
            return []
        results = []
        for thread_id in thread_ids(self._saver):
            snapshot = await self._graph.aget_state(self._config(thread_id))
            # `tasks`, not `next`: a crash between a node's saved writes and the next checkpoint leaves a
            # task whose writes are stored, which `next` no longer lists although the run is unfinished.
            if snapshot.tasks:
                results.append(await _last_result(self.resume(thread_id)))
        return results

    async def purge_chat(self, chat_id: int) -> int:
        return purge_chat(self._saver, chat_id) if self._saver is not None else 0


async def _last_result(events: AsyncIterator[Progress | Result]) -> Result:
    last: Result | None = None
    async for event in events:
        if isinstance(event, Result):
            last = event
    if last is None:
        raise RuntimeError("generation ended without a result")
    return last


def calculators_for(slice_: Slice, facts: FactBase) -> list[str]:
    """Calculators that reproduce the slice's own worked examples (given as calc_examples, or read from its
    prose by the compiler); a model author may also pick any registered one."""
    found = [e.calculator for e in slice_.calc_examples] + [
        f.calculator for f in facts.of_slice(slice_.id, "example")
    ]
    return [name for name in dict.fromkeys(found) if name in calc.REGISTRY]
