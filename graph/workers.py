"""Worker processes that write the bot's questions, so generation (most of the bot's CPU) runs beside the
event loop that talks to Telegram instead of on it.

A thread always goes to the same worker (by a hash of its id), so the per-thread lock inside that worker's
service still keeps a revision from overlapping a run of the same question. A worker that dies fails its
open jobs as ordinary failed generations (the learner is offered a retry) and is started again on the next
job.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import sys
import zlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from graph.events import Progress, Result, UnknownQuestion
from graph.wire import dump, event_from
from settings import Settings
from vocabulary.records import GenerationRequest

log = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 10.0
WORKER_LOST = "the generation worker stopped unexpectedly"


class WorkerProcess:
    """One `python -m graph.worker` and the jobs it has open."""

    def __init__(self, settings: Settings, number: int) -> None:
        self.settings, self.number = settings, number
        self.process: asyncio.subprocess.Process | None = None
        self.jobs: dict[int, asyncio.Queue[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._starting = asyncio.Lock()
        self._closing = False

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def ensure_started(self) -> None:
        async with self._starting:
            if self.alive:
                return
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "graph.worker",
                cwd=ROOT,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                limit=1 << 24,
            )
            assert self.process.stdin is not None and self.process.stdout is not None
            self.process.stdin.write(self.settings.model_dump_json().encode() + b"\n")
            await self.process.stdin.drain()
            line = await asyncio.wait_for(self.process.stdout.readline(), START_TIMEOUT_S)
            if not line or not json.loads(line).get("ready"):
                await self._kill()
                raise RuntimeError(f"generation worker {self.number} did not start")
            self._reader = asyncio.create_task(self._read(self.process))

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(dump(message))

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdout is not None
        while line := await process.stdout.readline():
            try:
                message = json.loads(line)
            except json.JSONDecodeError:
                log.error("generation worker %d wrote a non-protocol line: %.200r", self.number, line)
                continue
            queue = self.jobs.get(message.get("job"))
            if queue is not None:
                queue.put_nowait(message)
        code = await process.wait()
        if not self._closing:
            log.error(
                "generation worker %d exited (status %s); the next question restarts it", self.number, code
            )
        for queue in self.jobs.values():
            queue.put_nowait({"lost": True})

    async def run(self, job: int, message: dict[str, Any]) -> AsyncIterator[dict[str, Any]]:
        """Send the job and yield its messages until the last; a consumer that stops early cancels it."""
        try:
            await self.ensure_started()
        except (OSError, RuntimeError, TimeoutError) as exc:
            log.error("generation worker %d could not be started: %s", self.number, exc)
            yield {"failed": WORKER_LOST}
            return
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.jobs[job] = queue
        finished = False
        try:
            self._send({"job": job} | message)
            while True:
                reply = await queue.get()
                finished = "progress" not in reply
                yield reply
                if finished:
                    return
        finally:
            self.jobs.pop(job, None)
            if not finished and self.alive:
                with contextlib.suppress(ConnectionError):
                    self._send({"job": job, "op": "cancel"})

    async def close(self) -> None:
        self._closing = True
        if self.process is None:
            return
        if self.alive and self.process.stdin is not None:
            self.process.stdin.close()
            try:
                await asyncio.wait_for(self.process.wait(), STOP_TIMEOUT_S)
            except TimeoutError:
                await self._kill()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)

    async def _kill(self) -> None:
        if self.alive:
            self.process.kill()
            await self.process.wait()


class GenerationWorkers:
    """The pool the service hands its runs to when `[graph] workers` is above zero."""

    def __init__(self, settings: Settings, count: int) -> None:
        self.workers = [WorkerProcess(settings, number) for number in range(count)]
        self._jobs = itertools.count(1)

    async def start(self) -> None:
        await asyncio.gather(*(worker.ensure_started() for worker in self.workers))

    def _worker(self, thread_id: str) -> WorkerProcess:
        return self.workers[zlib.crc32(thread_id.encode()) % len(self.workers)]

    async def stream(self, request: GenerationRequest) -> AsyncIterator[Progress | Result]:
        message = {"op": "stream", "request": request.model_dump(mode="json")}
        async for event in self._events(request.thread_id, message):
            yield event

    async def revise(self, thread_id: str, reason: str, comment: str) -> AsyncIterator[Progress | Result]:
        message = {"op": "revise", "thread": thread_id, "reason": reason, "comment": comment}
        async for event in self._events(thread_id, message):
            yield event

    async def _events(self, thread_id: str, message: dict[str, Any]) -> AsyncIterator[Progress | Result]:
        async for reply in self._worker(thread_id).run(next(self._jobs), message):
            if "unknown" in reply:
                raise UnknownQuestion(reply["unknown"])
            if "progress" in reply or "result" in reply:
                yield event_from(reply)
            else:
                reason = reply.get("failed") or WORKER_LOST
                yield Result(
                    thread_id=thread_id,
                    outcome="failed",
                    question=None,
                    version=None,
                    versions=[],
                    trace=[],
                    failure=reason,
                )

    async def close(self) -> None:
        await asyncio.gather(*(worker.close() for worker in self.workers))
