"""Generation events as JSON lines, for the worker processes: a request or revision goes in, progress events
and one result come out, each line tagged with the job it belongs to."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from graph.events import Progress, Result
from vocabulary.records import Question


def dump(message: dict[str, Any]) -> bytes:
    return (json.dumps(message, ensure_ascii=False) + "\n").encode()


def event_message(job: int, event: Progress | Result) -> dict[str, Any]:
    if isinstance(event, Progress):
        return {"job": job, "progress": asdict(event)}
    fields = asdict(event) | {"question": event.question.model_dump(mode="json") if event.question else None}
    return {"job": job, "result": fields}


def event_from(message: dict[str, Any]) -> Progress | Result:
    if "progress" in message:
        return Progress(**message["progress"])
    fields = dict(message["result"])
    question = fields.pop("question")
    return Result(**fields, question=Question.model_validate(question) if question else None)
