"""A generation worker process (`python -m graph.worker`): the bot's questions written on another core.

The first line on standard input is the bot's settings as JSON; the worker opens its own GenerationService
on them (sources, index, author, its own connection to the shared checkpoint file) and answers "ready".
Then each line is a job — {"job", "op": "stream", "request"} or {"job", "op": "revise", "thread", "reason",
"comment"} — or {"job", "op": "cancel"}; every progress event and the result go back on standard output,
tagged with the job. The worker ends when standard input closes.
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import sys
from collections.abc import AsyncIterator
from typing import Any

from graph.events import Progress, Result, UnknownQuestion
from graph.service import GenerationService
from graph.wire import dump, event_message
from settings import Settings
from vocabulary.records import GenerationRequest

log = logging.getLogger(__name__)
# Standard output carries the protocol only: anything a library prints goes to standard error instead.
PROTOCOL = sys.stdout.buffer
sys.stdout = sys.stderr


class Worker:
    def __init__(self, service: GenerationService) -> None:
        self.service = service
        self.jobs: dict[int, asyncio.Task[None]] = {}

    def say(self, message: dict[str, Any]) -> None:
        PROTOCOL.write(dump(message))
        PROTOCOL.flush()

    def take(self, message: dict[str, Any]) -> None:
        job, op = int(message["job"]), message["op"]
        if op == "cancel":
            task = self.jobs.pop(job, None)
            if task is not None:
                task.cancel()
            return
        if op == "stream":
            events = self.service.stream(GenerationRequest.model_validate(message["request"]))
        else:
            events = self.service.revise(message["thread"], message["reason"], message.get("comment", ""))
        task = asyncio.create_task(self.run(job, events))
        self.jobs[job] = task
        task.add_done_callback(lambda _: self.jobs.pop(job, None))

    async def run(self, job: int, events: AsyncIterator[Progress | Result]) -> None:
        try:
            async for event in events:
                self.say(event_message(job, event))
        except UnknownQuestion as exc:
            self.say({"job": job, "unknown": str(exc)})
        except Exception as exc:  # reported to the bot as this job's failure; the worker keeps serving
            log.exception("generation job %s failed", job)
            self.say({"job": job, "failed": f"{type(exc).__name__}: {exc}"})


async def serve() -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 24)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    settings = Settings.model_validate_json(await reader.readline())
    settings.graph.workers = 0  # this process is the worker
    service = await GenerationService.open(settings)
    worker = Worker(service)
    worker.say({"ready": True})
    try:
        while line := await reader.readline():
            worker.take(json.loads(line))
    finally:
        for task in list(worker.jobs.values()):
            task.cancel()
        await asyncio.gather(*worker.jobs.values(), return_exceptions=True)
        await service.close()


if __name__ == "__main__":
    # Ctrl-C in a terminal reaches the whole process group; the bot decides when its workers stop (it closes
    # their standard input), so the interrupt is the bot's alone.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="worker %(levelname)s %(message)s")
    asyncio.run(serve())
