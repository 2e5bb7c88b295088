"""`python -m bot generate`: questions from the command line, through the same loop the bot uses."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from graph.service import GenerationService, Progress, Result
from retrieval.sampler import NoSlicesError
from retrieval.sources import load_sources
from settings import Settings

# Threads of command-line runs live under this chat id, apart from every Telegram chat.
CLI_CHAT_ID = 0
_TYPE_NAMES = {"single": "单选题", "multi": "多选题", "judge": "判断题"}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("generate", help="generate verified questions and print them")
    parser.add_argument(
        "--chapter", default="", help="chapter name or ordinal (第七章, 7, 买方税费); default: all"
    )
    parser.add_argument("--type", dest="qtype", choices=["single", "multi", "judge"], default="single")
    parser.add_argument("--mode", choices=["strict", "flexible"], default="strict")
    parser.add_argument("--count", type=int, default=1, help="how many questions (1–100)")
    parser.add_argument("--calculation-only", action="store_true", help="only calculation knowledge points")
    parser.add_argument("--llm", choices=["offline", "openai"], help="override [llm] provider")
    parser.add_argument("--seed", type=int, help="override [graph] seed")
    parser.add_argument("--json", action="store_true", help="print one JSON list instead of text")
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


async def _generate(args: argparse.Namespace, settings: Settings) -> int:
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
    results: list[Result] = []
    try:
        for number in range(1, args.count + 1):
            try:
                request = service.new_request(
                    CLI_CHAT_ID, args.qtype, args.mode, chapters, args.calculation_only
                )
            except NoSlicesError as exc:
                print(f"no questions can be made: {exc}", file=sys.stderr)
                return 2
            async for event in service.stream(request):
                if isinstance(event, Progress) and not args.json:
                    print(f"  · {event.node}: {event.verdict} {event.detail}".rstrip(), file=sys.stderr)
                elif isinstance(event, Result):
                    results.append(event)
                    if not args.json:
                        print(render(event, number))
    finally:
        await service.close()
    if args.json:
        print(json.dumps([as_json(r) for r in results], ensure_ascii=False, indent=2))
    return 0 if all(r.ok for r in results) else 1


def run(args: argparse.Namespace, settings: Settings) -> int:
    if not 1 <= args.count <= 100:
        print("--count must be between 1 and 100", file=sys.stderr)
        return 2
    if args.llm:
        settings.llm.provider = args.llm
    if args.seed is not None:
        settings.graph.seed = args.seed
    return asyncio.run(_generate(args, settings))
