"""`python -m bot generate`: questions from the command line, through the same loop the bot uses.

Each question is printed the moment it is ready, so a run that is killed keeps what it printed; with
`--resume ID` its threads are named `ID-1`, `ID-2` … and a rerun with the same ID skips the finished
ones, finishes the interrupted one from its checkpoint and generates the rest.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from vocabulary.kinds import MODES, QUESTION_TYPES

if TYPE_CHECKING:
    from graph.events import Progress, Result
    from graph.service import GenerationService
    from settings import Settings

# Threads of command-line runs live under this chat id, apart from every Telegram chat.
CLI_CHAT_ID = 0
_TYPE_NAMES = {"single": "单选题", "multi": "多选题", "judge": "判断题"}
_RESUME_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("generate", help="generate verified questions and print them")
    parser.add_argument(
        "--chapter", default="", help="chapter name or ordinal (第七章, 7, 买方税费); default: all"
    )
    parser.add_argument("--type", dest="qtype", choices=QUESTION_TYPES, default="single")
    parser.add_argument("--mode", choices=MODES, default="strict")
    parser.add_argument("--count", type=int, default=1, help="how many questions (1–100)")
    parser.add_argument("--calculation-only", action="store_true", help="only calculation knowledge points")
    parser.add_argument("--llm", choices=["offline", "openai"], help="override [llm] provider")
    parser.add_argument("--seed", type=_seed, help="override [graph] seed (0 to 2**64-1)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print a JSON list, one item as each is ready")
    output.add_argument("--jsonl", action="store_true", help="print one JSON object per line (JSON Lines)")
    parser.add_argument(
        "--resume",
        metavar="ID",
        help="name this batch; run again with the same ID to finish it without repeating finished questions",
    )
    parser.set_defaults(handler=run)


def render(result: Result, number: int) -> str:
    path = " → ".join(f"{step['node']}({step['verdict']})" for step in result.trace)
    if result.question is None:
        return f"#{number} 生成失败：{result.failure}\n  路径：{path}"
    q = result.question
    flag = "（已标记待复核）" if result.outcome == "flagged" else ""
    lines = [f"#{number} {_TYPE_NAMES[q.qtype]} v{result.version}{flag}｜{q.slice_path}", f"  {q.stem}"]
    lines += [f"  {chr(65 + i)}. {option}" for i, option in enumerate(q.options)]
    lines += [
        f"  答案：{q.answer_text}",
        *(f"  {line}" for line in q.explanation.splitlines()),
        f"  路径：{path}",
    ]
    return "\n".join(lines)


def as_json(result: Result) -> dict:
    q = result.question
    body = q.model_dump() if q else {}
    return body | {
        "outcome": result.outcome,
        "version": result.version,
        "failure": result.failure,
        "trace": result.trace,
        "calc_trace": result.calc_trace,
        "usage": result.usage,
        "thread_id": result.thread_id,
    }


class _Output:
    """Writes each result as it arrives and flushes, in the format asked for."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.format = "jsonl" if args.jsonl else "json" if args.json else "text"
        self.written = 0

    @property
    def shows_progress(self) -> bool:
        return self.format == "text"

    def write(self, result: Result, number: int) -> None:
        if self.format == "text":
            text = render(result, number)
        elif self.format == "jsonl":
            text = json.dumps(as_json(result), ensure_ascii=False)
        else:
            item = json.dumps(as_json(result), ensure_ascii=False, indent=2)
            text = ("[\n" if not self.written else ",\n") + item
        self.written += 1
        print(text, flush=True)

    def close(self) -> None:
        if self.format == "json":
            print("]" if self.written else "[]", flush=True)


async def _question(
    service: GenerationService, args: argparse.Namespace, chapters: list[tuple[str, ...]] | None, number: int
) -> AsyncIterator[Progress | Result] | None:
    """The events of question `number`: a new generation, or the rest of an interrupted one; None when the
    batch already finished it. The slice is drawn either way, so later questions match the first run's."""
    request = service.new_request(CLI_CHAT_ID, args.qtype, args.mode, chapters, args.calculation_only).request
    if args.resume is None:
        return service.stream(request)
    request = request.model_copy(update={"question_id": f"{args.resume}-{number}"})
    status = await service.thread_status(request.thread_id)
    if status == "finished":
        return None
    return service.resume(request.thread_id) if status == "unfinished" else service.stream(request)


async def _generate(args: argparse.Namespace, settings: Settings) -> int:
    from graph.events import Progress, Result
    from graph.service import GenerationService
    from retrieval.sampler import NoSlicesError
    from retrieval.sources import load_sources

    sources = load_sources(settings.data.knowledge_base, settings.data.question_bank)
    if sources.fatal:
        for problem in sources.fatal:
            print(problem, file=sys.stderr)
        return 2
    chapters = None
    if args.chapter:
        found = sources.tree.find(args.chapter)
        if not found:
            names = "\n  ".join(c.name for c in sources.tree.chapters)
            print(f"unknown chapter '{args.chapter}'. Valid chapters:\n  {names}", file=sys.stderr)
            return 2
        chapters = [c.key for c in found]
    service = await GenerationService.open(settings, sources=sources)
    output = _Output(args)
    results: list[Result] = []
    try:
        for number in range(1, args.count + 1):
            try:
                events = await _question(service, args, chapters, number)
            except NoSlicesError as exc:
                print(f"no questions can be made: {exc}", file=sys.stderr)
                return 2
            if events is None:
                continue
            async for event in events:
                if isinstance(event, Progress) and output.shows_progress:
                    print(f"  · {event.node}: {event.verdict} {event.detail}".rstrip(), file=sys.stderr)
                elif isinstance(event, Result):
                    results.append(event)
                    output.write(event, number)
    finally:
        output.close()
        await service.close()
    return 0 if all(r.ok for r in results) else 1


def _seed(text: str) -> int:
    """The range [graph] seed accepts, checked by argparse so a bad value is a usage line, not a traceback."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError("must be between 0 and 2**64-1")
    return value


def run(args: argparse.Namespace, settings: Settings) -> int:
    if not 1 <= args.count <= 100:
        print("--count must be between 1 and 100", file=sys.stderr)
        return 2
    if args.resume is not None and not _RESUME_ID.match(args.resume):
        print("--resume takes 1–40 letters, digits, _ or -", file=sys.stderr)
        return 2
    if args.llm:
        settings.llm.provider = args.llm
    if args.seed is not None:
        settings.graph.seed = args.seed
    return asyncio.run(_generate(args, settings))
