"""A local OpenAI-compatible chat endpoint, so the real `ChatOpenAI` client and the real graph can be tested
without a network or a model.

Only `POST /v1/chat/completions` without streaming, which is all `ChatOpenAI.ainvoke` sends. Replies come from
scripted queues first (per step, then general) and otherwise from a responder function that looks at the
request; every request is recorded with the reply it got, the usage reported and the time spent answering it.
Responses close the connection by default so no pooled connection outlives the server (langchain-openai
caches its httpx clients per base URL across event loops); `keep_alive=True` keeps connections open as a real
model endpoint does, for benchmarks that would otherwise bill a TCP handshake per call to the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from aiohttp import web

from graph import prompts


def _opening(template: str) -> str:
    """The fixed text a prompt template starts with, up to its first placeholder."""
    return template.split("{", 1)[0].strip()


# Which step of the loop a request is, told by how its first user message opens.
STEP_OPENINGS: dict[str, str] = {
    "draft": _opening(prompts.DRAFT),
    "choose": _opening(prompts.CHOOSE_CALCULATOR),
    "draft_calculation": _opening(prompts.DRAFT_CALCULATION),
    "review": _opening(prompts.REVIEW),
    "fix": _opening(prompts.FIX),
}
_PARSE_RETRY_OPENING = _opening(prompts.PARSE_RETRY)
BROKEN_JSON = '{"stem": "某购房人购买住房时应缴纳的契税为（　）", "options": ["1%", "3%"'


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


@dataclass(frozen=True)
class ChatRequest:
    """One request as the server received it, with the views a script needs to decide its reply."""

    body: dict[str, Any]
    headers: Mapping[str, str]

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages", []))

    def texts(self, role: str) -> list[str]:
        return [_text_of(m.get("content")) for m in self.messages if m.get("role") == role]

    @property
    def system(self) -> str:
        return "\n".join(self.texts("system"))

    @property
    def prompt(self) -> str:
        """The first user message: the task itself (a parse retry repeats it and adds a notice)."""
        users = self.texts("user")
        return users[0] if users else ""

    def quoted(self, fragment: str) -> bool:
        """Whether `fragment` occurs in the prompt, and only inside «« »» data blocks."""
        text = self.prompt
        starts = [i for i in range(len(text)) if text.startswith(fragment, i)]
        for at in starts:
            before, after = text[:at], text[at + len(fragment) :]
            closes, reopens = after.find("»»"), after.find("««")
            if before.rfind("««") <= before.rfind("»»") or closes < 0 or 0 <= reopens < closes:
                return False
        return bool(starts)

    @property
    def step(self) -> str:
        return next((s for s, opening in STEP_OPENINGS.items() if self.prompt.startswith(opening)), "unknown")

    @property
    def is_parse_retry(self) -> bool:
        users = self.texts("user")
        return len(users) > 1 and users[-1].startswith(_PARSE_RETRY_OPENING)

    @property
    def tool_names(self) -> list[str]:
        return [t["function"]["name"] for t in self.body.get("tools", []) if t.get("type") == "function"]

    @property
    def forced_tool(self) -> str | None:
        choice = self.body.get("tool_choice")
        return choice["function"]["name"] if isinstance(choice, dict) and "function" in choice else None

    @property
    def response_format(self) -> dict[str, Any] | None:
        return self.body.get("response_format")


@dataclass(frozen=True)
class Reply:
    """What the server sends back.

    `answer` is JSON text delivered the way the request asked for structured output: as the arguments of the
    tool call it forces, or else as the message content. `tool` is a free tool call (choosing a calculator),
    `content` plain message text, `error` an HTTP error. `delay` holds the reply back, e.g. beyond the
    client's timeout; `retry_after` sets the header rate-limited and overloaded servers send.
    """

    kind: Literal["answer", "tool", "content", "error"]
    text: str = ""
    tool: str = ""
    status: int = 200
    retry_after: float | None = None
    delay: float = 0.0

    @classmethod
    def answer(cls, obj: Any) -> Reply:
        return cls("answer", json.dumps(obj, ensure_ascii=False))

    @classmethod
    def broken(cls) -> Reply:
        """JSON cut off mid-object, as a model that hit its output limit sends it."""
        return cls("answer", BROKEN_JSON)

    @classmethod
    def tool_call(cls, name: str, args: dict[str, Any]) -> Reply:
        return cls("tool", json.dumps(args, ensure_ascii=False), tool=name)

    @classmethod
    def content(cls, text: str) -> Reply:
        return cls("content", text)

    @classmethod
    def fenced(cls, obj: Any) -> Reply:
        return cls.content(f"```json\n{json.dumps(obj, ensure_ascii=False, indent=2)}\n```")

    @classmethod
    def error(cls, status: int, message: str = "", retry_after: float | None = None) -> Reply:
        return cls("error", message or f"fake server error {status}", status=status, retry_after=retry_after)

    @classmethod
    def stall(cls, seconds: float) -> Reply:
        """No answer for `seconds` (then a 504 nobody waits for): what a hung upstream looks like."""
        return replace(cls.error(504, "upstream timed out"), delay=seconds)

    def delayed(self, seconds: float) -> Reply:
        return replace(self, delay=seconds)


Responder = Callable[[ChatRequest], Reply]


@dataclass
class Exchange:
    """One request and what became of it; `usage` only for a successful reply, `seconds` once answered."""

    request: ChatRequest
    reply: Reply | None = None
    status: int | None = None
    usage: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


def _tool_call(number: int, name: str, arguments: str) -> dict[str, Any]:
    return {"id": f"call_{number}", "type": "function", "function": {"name": name, "arguments": arguments}}


class FakeOpenAI:
    """`latency` is added to every reply: a fixed stand-in for the time a real model takes."""

    def __init__(
        self, responder: Responder | None = None, *, latency: float = 0.0, keep_alive: bool = False
    ) -> None:
        self.responder = responder
        self.latency = latency
        self._connection = {} if keep_alive else {"Connection": "close"}
        self.exchanges: list[Exchange] = []
        self.in_flight = 0
        self.peak_in_flight = 0
        self._scripts: dict[str | None, deque[Reply]] = {}
        self._runner: web.AppRunner | None = None
        self._closing = asyncio.Event()
        self.port = 0

    def script(self, *replies: Reply, step: str | None = None) -> None:
        """Queue replies for the next requests (of one step only, when given) before the responder."""
        self._scripts.setdefault(step, deque()).extend(replies)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def requests(self, step: str | None = None) -> list[ChatRequest]:
        return [e.request for e in self.exchanges if step is None or e.request.step == step]

    @property
    def busy_seconds(self) -> float:
        """Time spent producing replies, the artificial latency included: the model's share of a run."""
        return sum(e.seconds for e in self.exchanges)

    def served_usage(self) -> dict[str, int]:
        totals: dict[str, int] = {}
        for exchange in self.exchanges:
            for key, value in exchange.usage.items():
                totals[key] = totals.get(key, 0) + value
        return totals

    async def start(self) -> FakeOpenAI:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def close(self) -> None:
        self._closing.set()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeOpenAI:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def _next_reply(self, request: ChatRequest) -> Reply:
        for key in (request.step, None):
            queue = self._scripts.get(key)
            if queue:
                return queue.popleft()
        if self.responder is None:
            return Reply.error(400, f"fake server: nothing scripted for a '{request.step}' request")
        return self.responder(request)

    async def _handle(self, http: web.Request) -> web.Response:
        started = time.perf_counter()
        try:
            body = await http.json()
        except json.JSONDecodeError:
            return self._error_response(400, "request body is not JSON", None)
        except ConnectionResetError:
            # The client gave up mid-request (a generation cancelled by /stop or shutdown): nobody to answer.
            return web.Response(status=499)
        exchange = Exchange(ChatRequest(body, dict(http.headers)))
        self.exchanges.append(exchange)
        reply = (
            Reply.error(400, "fake server: streaming is not supported")
            if body.get("stream")
            else self._next_reply(exchange.request)
        )
        self.in_flight += 1
        self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        try:
            wait = self.latency + reply.delay
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._closing.wait(), wait)
        finally:
            self.in_flight -= 1
        response = self._render(exchange, reply, len(self.exchanges))
        exchange.reply, exchange.status = reply, response.status
        exchange.seconds = time.perf_counter() - started
        return response

    def _render(self, exchange: Exchange, reply: Reply, number: int) -> web.Response:
        request = exchange.request
        if reply.kind == "error":
            return self._error_response(reply.status, reply.text, reply.retry_after)
        message: dict[str, Any] = {"role": "assistant", "content": None}
        if reply.kind == "tool":
            message["tool_calls"] = [_tool_call(number, reply.tool, reply.text)]
        elif reply.kind == "answer" and request.forced_tool:
            message["tool_calls"] = [_tool_call(number, request.forced_tool, reply.text)]
        else:
            message["content"] = reply.text
        # Characters stand in for tokens: deterministic, and larger prompts cost more as with a real model.
        prompt_tokens = sum(len(_text_of(m.get("content"))) for m in request.messages)
        exchange.usage = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": len(reply.text),
            "total_tokens": prompt_tokens + len(reply.text),
        }
        body = {
            "id": f"chatcmpl-fake-{number}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.body.get("model", ""),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if "tool_calls" in message else "stop",
                }
            ],
            "usage": exchange.usage,
        }
        return web.json_response(body, headers=self._connection)

    def _error_response(self, status: int, message: str, retry_after: float | None) -> web.Response:
        headers = dict(self._connection)
        if retry_after is not None:
            headers["retry-after"] = f"{retry_after:g}"
        body = {"error": {"message": message, "type": "fake_error", "code": status}}
        return web.json_response(body, status=status, headers=headers)
