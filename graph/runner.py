"""The loop run on checkpointed threads in this process: the compiled graph, its checkpointer from open to
close, one lock per thread, and graph runs turned into progress events and one result.

Both the bot's own process (`[graph] workers = 0`, the CLI, resuming at start-up) and each worker process
write questions through it.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Literal

from langgraph.types import Command

from graph.build import build_graph
from graph.checkpoint import LoopSqliteSaver, close_checkpointer, open_checkpointer, prune_thread, thread_ids
from graph.complaints import revision_update
from graph.context import GenerationContext
from graph.events import Progress, Result, UnknownQuestion
from graph.state import initial_state
from vocabulary.kinds import FeedbackReason
from vocabulary.records import GenerationRequest, Question


class GraphRunner:
    def __init__(self, context: GenerationContext, limits: dict[str, int], saver: LoopSqliteSaver) -> None:
        self.context, self.limits, self.saver = context, limits, saver
        self._graph = build_graph(saver)
        # One lock per thread, alive only while someone runs or waits on that thread.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    @classmethod
    def open(cls, context: GenerationContext, limits: dict[str, int], checkpoint_db: Path) -> GraphRunner:
        return cls(context, limits, open_checkpointer(checkpoint_db))

    def close(self) -> None:
        close_checkpointer(self.saver)

    def _lock(self, thread_id: str) -> asyncio.Lock:
        lock = self._locks.get(thread_id)
        if lock is None:
            lock = self._locks[thread_id] = asyncio.Lock()
        return lock

    def _config(self, thread_id: str) -> dict[str, Any]:
        return {"configurable": {"thread_id": thread_id}, "recursion_limit": 100}

    def stream(self, request: GenerationRequest) -> AsyncIterator[Progress | Result]:
        """A new question on the request's own thread; its slice is already drawn."""
        return self._run(request.thread_id, initial_state(request, self.limits))

    async def revise(
        self, thread_id: str, reason: FeedbackReason, comment: str = ""
    ) -> AsyncIterator[Progress | Result]:
        """Re-enter a finished thread at the critic with the human issue; the result is the next version."""
        snapshot = await self._graph.aget_state(self._config(thread_id))
        versions = snapshot.values.get("versions") if snapshot.values else None
        if not versions:
            raise UnknownQuestion(thread_id)
        update = revision_update(versions[-1], reason, comment)
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
            prune_thread(self.saver, thread_id)
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
        results = []
        for thread_id in thread_ids(self.saver):
            snapshot = await self._graph.aget_state(self._config(thread_id))
            # `tasks`, not `next`: a crash between a node's saved writes and the next checkpoint leaves a
            # task whose writes are stored, which `next` no longer lists although the run is unfinished.
            if snapshot.tasks:
                results.append(await last_result(self.resume(thread_id)))
        return results


async def last_result(events: AsyncIterator[Progress | Result]) -> Result:
    last: Result | None = None
    async for event in events:
        if isinstance(event, Result):
            last = event
    if last is None:
        raise RuntimeError("generation ended without a result")
    return last
