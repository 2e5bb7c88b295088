"""The generation service: the one object the bot and the CLI ask for questions.

It only composes, each job in a module of its own: what the loop writes from (graph.materials), drawing a
chat's next request (graph.requests), the loop on checkpointed threads (graph.runner), worker processes
(graph.workers) and the facts a chat was asked lately (graph.recent). A facade rather than handing callers
those five objects because a caller asks one thing at a time and must not care whether a question is written
in this process or in a worker: here alone that choice is made.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Literal

from graph.authors import make_author
from graph.authors.base import Author
from graph.cases import case_chapters, verified_case
from graph.events import Progress, Result, UnknownQuestion
from graph.materials import generation_context
from graph.recent import RecentFacts
from graph.requests import Chapters, Drawn, RequestDrawer
from graph.runner import GraphRunner, last_result
from graph.workers import GenerationWorkers
from retrieval.sources import Sources, load_sources
from settings import Settings
from vocabulary.kinds import FeedbackReason, Mode
from vocabulary.records import CaseQuestion, GenerationRequest, SamplerState

# The run's events, imported from here by the bot's handlers.
__all__ = ["GenerationService", "Progress", "Result", "UnknownQuestion"]


class GenerationService:
    def __init__(
        self,
        settings: Settings,
        sources: Sources,
        runner: GraphRunner,
        workers: GenerationWorkers | None = None,
    ) -> None:
        self.settings, self.sources, self.runner, self.workers = settings, sources, runner, workers
        self.drawer = RequestDrawer(sources.slices, settings.retrieval.mastery_weights, settings.graph.seed)
        self.recent = RecentFacts()

    @classmethod
    async def open(
        cls, settings: Settings, sources: Sources | None = None, author: Author | None = None
    ) -> GenerationService:
        """Load what the loop writes from, open the checkpoint file and, with `[graph] workers`, start the
        worker processes; a failure on the way closes what was opened."""
        sources = sources or load_sources(settings.data.knowledge_base, settings.data.question_bank)
        author = author or make_author(settings.llm)
        limits = {
            "max_critic_failures": settings.graph.max_critic_failures,
            "max_reroutes": settings.graph.max_reroutes,
        }
        try:
            runner = GraphRunner.open(
                generation_context(settings, sources, author), limits, settings.graph.checkpoint_db
            )
        except BaseException:
            await _close_author(author)
            raise
        service = cls(settings, sources, runner)
        if settings.graph.workers:
            service.workers = GenerationWorkers(settings, settings.graph.workers)
            try:
                await service.workers.start()
            except BaseException:
                await service.close()
                raise
        return service

    async def close(self) -> None:
        if self.workers is not None:
            await self.workers.close()
            self.workers = None
        self.runner.close()
        await _close_author(self.runner.context.author)

    def new_request(
        self,
        chat_id: int,
        qtype: str,
        mode: str = "strict",
        chapters: Chapters = None,
        calculation_only: bool = False,
        sampler_state: SamplerState | None = None,
    ) -> Drawn:
        """A request with its slice already drawn for the chat, and the chat's sampler history after the draw
        (the caller stores it); see RequestDrawer.new_request."""
        return self.drawer.new_request(chat_id, qtype, mode, chapters, calculation_only, sampler_state)

    async def stream(self, request: GenerationRequest) -> AsyncIterator[Progress | Result]:
        if request.slice_id is None:
            chapters = [tuple(c) for c in request.chapters] or None
            drawn = self.drawer.draw_slice(request.chat_id, chapters, request.calculation_only)
            request = request.model_copy(update={"slice_id": drawn.id})
        asked = self.recent.of_chat(request.chat_id)
        if not request.avoid:
            request = request.model_copy(update={"avoid": list(asked)})
        writer = self.workers or self.runner
        async for event in writer.stream(request):
            if isinstance(event, Result) and event.question is not None:
                asked.extend(event.question.fact_ids)
            yield event

    async def generate(self, request: GenerationRequest) -> Result:
        return await last_result(self.stream(request))

    def revise(
        self, thread_id: str, reason: FeedbackReason, comment: str = ""
    ) -> AsyncIterator[Progress | Result]:
        """The next version of a delivered question, answering a human complaint; UnknownQuestion when the
        thread holds no finished question."""
        return (self.workers or self.runner).revise(thread_id, reason, comment)

    async def result(self, thread_id: str) -> Result:
        return await self.runner.result(thread_id)

    def case_chapters(self, chapters: Chapters) -> list[tuple[str, ...]]:
        """Of the chosen chapters (all when None), those a 案例题 can be written on."""
        return case_chapters(self.runner.context, self.sources.tree, [tuple(c) for c in chapters or []])

    def write_case(self, chapter: tuple[str, ...], mode: Mode, seed: int) -> CaseQuestion:
        """A 案例题 on `chapter` with every sub-question verified; AuthorError when none can be written. In
        this process: the offline author writes it in a few seconds, without the model or the loop."""
        return verified_case(self.runner.context, chapter, mode, seed)

    async def thread_status(self, thread_id: str) -> Literal["absent", "unfinished", "finished"]:
        return await self.runner.thread_status(thread_id)

    def resume(self, thread_id: str) -> AsyncIterator[Progress | Result]:
        return self.runner.resume(thread_id)

    async def resume_pending(self) -> list[Result]:
        """Finish, in this process, every generation a crash interrupted."""
        return await self.runner.resume_pending()


async def _close_author(author: Author) -> None:
    closer = getattr(author, "aclose", None)
    if closer is not None:
        await closer()
