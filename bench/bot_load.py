"""Bot load benchmark: 200 learners each playing a quiz round at the same time, against the real bot.

The bot — the PTB Application with its store and checkpointer, built as `python -m bot run` builds it, with
the model author — runs in this process and is what is measured. Everything around it runs in a second
process (this module with `--world`): the Bot API emulator, the fake OpenAI-compatible server answering as
the scripted exam model after a fixed latency per call (keeping connections open, as a real endpoint does),
and the simulated learners, who use the emulator's user API over loopback. On two cores that gives the bot a
core of its own, so neither the learners' long polls nor the emulator's bookkeeping are billed to the bot.

Each learner opens /quiz, picks all chapters, mixed types, strict mode and a round of 3, and answers the
three quizzes, each once the previous explanation has arrived; the last explanation carries the round's
result. A question the bot could not write is asked for again with its retry button. Four scenarios are
played, each by a fresh bot:
- paced: learners as people are — they join over 30 s (a class told to start now), take 1–3 s per button
  and 8–20 s per exam question (quick for a stem of several lines and four or five options). All 200 are
  in a round at once at the peak. The emulator imposes no sending limits, so the bot runs with
  `[telegram] rate_limit = 0`, as against any Bot API server without limits. The first-poll target is
  judged here: it is about what the bot adds to the model's time.
- brisk: the same at about twice the speed — joining over 20 s, 0.5–1.5 s per button, 3–8 s per question.
  Judged too: at this pace the joining peak asks for more than the bot's one core (CPU row), so first polls
  queue behind other learners' work; it shows where the bot stops keeping up.
- paced-30/s: the paced learners with the production default, Telegram's budget of 30 calls a second that
  AIORateLimiter holds the bot to. Each learner needs about a dozen such calls (the dialogue's five, then
  the round's own, counted per round from the settings line), so the budget, not the bot, sets the wait at
  the joining peak; reported, not judged.
- burst: every learner taps and answers the instant the bot lets them, all starting in the same second.
  That asks more of the bot than one core gives (see its CPU row), so its latency is a queue, not the bot's
  overhead; it is reported as the bot's capacity (rounds a minute), without a latency target.

Every scenario gives the bot two generation workers (`[graph] workers = 2`), one per core as the README
advises: questions are written beside the bot's own process, which keeps talking to Telegram.

The model-bound ideal of a question is its model calls × the latency: what a learner would wait for with an
infinitely fast bot and Telegram. The first poll is compared with the ideal of that learner's first question;
the run's wall time with the latest-ending learner's ideal round: its own pauses plus whatever part of each
question's model time its pauses did not hide (the next question is written while the current one is
answered). Learners still playing at the deadline are stopped and reported as unfinished; the answers they
had sent still count. The calls that count against Telegram's budget are reported in every scenario, with
the rate the run asked of it.

200 learners by default; `python -m bench.bot_load --learners N [--scenario NAME ...]` or
$EXAMFORGE_BENCH_LEARNERS for another N.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import logging
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from unittest.mock import patch

import aiohttp
from telegram.ext import Application

from bot.app import build_application, running
from bot.runner import run_loop
from emulator import EmulatorClient, EmulatorError, EmulatorServer
from emulator.views import ChatMessage, EmuUser
from graph.service import GenerationService, Progress, Result
from handlers.context import state
from settings import Settings
from settings.model import LLMSettings, TelegramSettings
from storage import Store
from testkit.botharness import bot_settings
from testkit.fakes.corpus import DEED_TAX_ARGS
from testkit.fakes.exam_model import ExamModel
from testkit.fakes.openai_server import FakeOpenAI
from vocabulary.records import GenerationRequest

ROOT = Path(__file__).resolve().parent.parent
LEARNERS_ENV = "EXAMFORGE_BENCH_LEARNERS"
DEFAULT_LEARNERS = 200
MODEL_LATENCY_S = 0.3
# After the learners stop: how long the bot may go on working off what they sent (answers in flight).
SETTLE_QUIET_S = 1.0
SETTLE_LIMIT_S = 3.0
FIRST_POLL_TARGET = 1.5
ROUND_BUTTON = "生成题目"  # the dialogue's last step, the source
ANSWERED = 3
DIALOGUE = ("全部章节", "混合", "严谨（贴近教材）", str(ANSWERED), "不限")
FEEDBACK_MARK = "解析"
FINISHED_MARK = "本轮结束"
RETRY_LABEL = "重试"
# The dialogue's last edit, where a round begins, starts with this (the menu's "我的默认设置：" does not).
ROUND_MARK = "设置："
# A round whose questions are ready when the learner gets to them costs 7 or 8; a long wait adds a status
# edit a second, a question the bot could not write its notice and a retry: judged on the mean, max shown.
ROUND_CALLS_TARGET = 8
# Bot API methods without a chat_id: PTB's AIORateLimiter lets them pass; every other call the bot makes
# counts against Telegram's overall budget of about 30 a second.
UNTHROTTLED = frozenset({"getMe", "getUpdates", "answerCallbackQuery", "setMyCommands", "deleteWebhook"})
TELEGRAM_RATE = 30.0
_KEY_ENV = "EXAMFORGE_BENCH_LLM_KEY"

Row = tuple[str, str, str, bool | None]


@dataclass(frozen=True)
class Scenario:
    """How the simulated learners behave, and the sending budget the bot gives itself. Pauses are drawn
    uniformly from the ranges, from a generator seeded per learner, so every run plays the same script."""

    name: str
    joining: float  # learners start evenly spread over this many seconds
    tap: tuple[float, float]  # pause before each button press
    answer: tuple[float, float]  # pause before answering a quiz
    deadline: float  # whoever is not done by then is stopped and reported as unfinished
    judged: bool  # whether the first-poll target applies
    rate_limit: float = 0.0  # [telegram] rate_limit: 0 = none of the bot's own, as the emulator imposes none
    workers: int = 2  # [graph] workers: one generation worker per core, as the README advises


PACED = {"joining": 30.0, "tap": (1.0, 3.0), "answer": (8.0, 20.0), "deadline": 150.0}
SCENARIOS: dict[str, Scenario] = {
    "paced": Scenario("paced", **PACED, judged=True),
    "brisk": Scenario("brisk", joining=20.0, tap=(0.5, 1.5), answer=(3.0, 8.0), deadline=120.0, judged=True),
    "paced-30/s": Scenario("paced-30/s", **PACED, judged=False, rate_limit=TELEGRAM_RATE),
    "burst": Scenario("burst", joining=0.0, tap=(0.0, 0.0), answer=(0.0, 0.0), deadline=60.0, judged=False),
}


@dataclass
class Played:
    """One learner's run as the learner saw it; filled in as it goes, so a learner stopped at the deadline
    still reports the answers it had sent. `joined` and `tapped` (the pauses before the count button) and
    `pauses` (before each answer) are the learner's own time, part of its ideal round."""

    user_id: int
    joined: float = 0.0
    tapped: float = 0.0
    pauses: list[float] = field(default_factory=list)
    first_poll: float | None = None
    finished: bool = False
    answers: list[tuple[str, list[int]]] = field(default_factory=list)
    retries: int = 0  # questions the bot could not write, asked for again
    error: str | None = None


# ---- the world process: emulator, model server, learners ------------------------------------------------


class Thinking:
    """A learner's pauses, recorded as they are taken."""

    def __init__(self, scenario: Scenario, seed: int) -> None:
        self.scenario, self.random = scenario, random.Random(seed)

    async def pause(self, bounds: tuple[float, float]) -> float:
        seconds = self.random.uniform(*bounds)
        if seconds > 0:
            await asyncio.sleep(seconds)
        return seconds


async def next_quiz(client: EmulatorClient, user: EmuUser, played: Played) -> ChatMessage:
    """The next quiz. A question the bot could not write (the exam model declines a slice too thin for the
    type) comes with a retry button, which the learner presses, as a person would."""
    while True:
        message = await client.wait_for_message(
            user, lambda m: m.poll is not None or any(b.text == RETRY_LABEL for b in m.buttons)
        )
        if message.poll is not None:
            return message
        played.retries += 1
        await client.press(user, message, RETRY_LABEL)


async def play(client: EmulatorClient, user: EmuUser, played: Played, thinking: Thinking) -> None:
    scenario = thinking.scenario
    try:
        await client.send_text(user, "/quiz")
        menu: ChatMessage = await client.next_message(user)
        for label in DIALOGUE:
            played.tapped += await thinking.pause(scenario.tap)
            await client.press(user, menu, label)
            menu = await client.wait_for_edit(menu)
        played.tapped += await thinking.pause(scenario.tap)
        pressed = time.monotonic()
        await client.press(user, menu, ROUND_BUTTON)
        for number in range(ANSWERED):
            quiz = await next_quiz(client, user, played)
            assert quiz.poll is not None
            if number == 0:
                played.first_poll = time.monotonic() - pressed
            played.pauses.append(await thinking.pause(scenario.answer))
            chosen = list(quiz.poll.correct_option_ids)
            await client.vote(user, quiz, chosen)
            played.answers.append((quiz.poll.id, chosen))
            # The last explanation also ends the round.
            await client.wait_for_text(user, FEEDBACK_MARK if number < ANSWERED - 1 else FINISHED_MARK)
        played.finished = True
    except (TimeoutError, EmulatorError, LookupError, aiohttp.ClientError) as exc:
        played.error = f"{type(exc).__name__}: {exc}"


async def join_and_play(client: EmulatorClient, user: EmuUser, played: Played, thinking: Thinking) -> None:
    if played.joined > 0:
        await asyncio.sleep(played.joined)
    await play(client, user, played, thinking)


async def polls_after_the_end(client: EmulatorClient, played: list[Played]) -> int:
    """Quizzes the bot posted into finished rounds, after the message that ended them."""
    late = 0
    for learner in played:
        if not learner.finished:
            continue
        messages = [m for m in await client.transcript(learner.user_id) if m.from_bot]
        ends = [i for i, m in enumerate(messages) if FINISHED_MARK in m.body]
        late += sum(m.poll is not None for m in messages[ends[0] + 1 :]) if ends else 0
    return late


async def calls_per_round(client: EmulatorClient, played: list[Played]) -> list[int]:
    """For each finished round, the messages the bot sent or edited in it, from the settings line on: what
    the round cost of Telegram's budget, the /quiz dialogue before it left out."""
    counts = []
    for learner in played:
        if not learner.finished:
            continue
        events = await client.events(learner.user_id)
        bots = [e for e in events if e.kind in ("message", "edited") and e.message and e.message.from_bot]
        start = next((i for i, e in enumerate(bots) if e.message.body.startswith(ROUND_MARK)), None)
        if start is not None:
            counts.append(len(bots) - start)
    return counts


async def _line() -> str:
    return await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)


def _say(obj: dict[str, Any]) -> None:
    print(json.dumps(obj, ensure_ascii=False), flush=True)


async def world(learners: int, scenario: Scenario, latency: float) -> None:
    """Announce the addresses, wait for "go", play every learner, report, then wait for the bot to have
    stopped before closing the emulator it polls."""
    model = ExamModel(calculators={"deed_tax": DEED_TAX_ARGS})
    async with (
        EmulatorServer() as emulator,
        FakeOpenAI(model, latency=latency, keep_alive=True) as server,
        EmulatorClient(emulator.root_url, timeout=scenario.deadline) as client,
    ):
        users = [await client.create_user(f"learner{number}") for number in range(learners)]
        _say({"base_url": emulator.base_url, "token": emulator.token, "model_url": server.base_url})
        if (await _line()).strip() != "go":
            return  # the benchmark process went away before the bot was up
        played = [Played(u.id, joined=scenario.joining * n / learners) for n, u in enumerate(users)]
        started, cpu = time.monotonic(), time.process_time()
        tasks = [
            asyncio.create_task(join_and_play(client, u, p, Thinking(scenario, seed=n)))
            for n, (u, p) in enumerate(zip(users, played, strict=True))
        ]
        _, late = await asyncio.wait(tasks, timeout=scenario.deadline)
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)
        wall = time.monotonic() - started
        await client.settle(quiet=SETTLE_QUIET_S, timeout=SETTLE_LIMIT_S)
        info = await client.bot_info()
        _say(
            {
                "wall": wall,
                "played": [asdict(p) for p in played],
                "late_polls": await polls_after_the_end(client, played),
                "round_calls": await calls_per_round(client, played),
                "calls": info["calls"],
                "model_calls": len(server.exchanges),
                "peak_model_calls": server.peak_in_flight,
                "cpu": time.process_time() - cpu,
            }
        )
        await _line()


# ---- this process: the bot, and the world process driven from here ---------------------------------------


class WorldProcess:
    """The world subprocess, spoken to in JSON lines on its stdin and stdout."""

    def __init__(self, process: asyncio.subprocess.Process, scenario: Scenario, info: dict[str, Any]) -> None:
        self.process = process
        self.scenario = scenario
        self.info = info

    @classmethod
    async def start(cls, learners: int, scenario: Scenario) -> WorldProcess:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.bot_load",
            "--world",
            "--learners",
            str(learners),
            "--scenario",
            scenario.name,
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=1 << 24,
        )
        world = cls(process, scenario, {})
        try:
            world.info = await world._read(60.0, "start")
        except BaseException:
            await world.close()
            raise
        return world

    async def _read(self, timeout: float, what: str) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), timeout)
        if not line:
            raise RuntimeError(f"the world process exited ({self.process.returncode}) before it could {what}")
        return dict(json.loads(line))

    async def _tell(self, word: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{word}\n".encode())
        await self.process.stdin.drain()

    async def play(self) -> dict[str, Any]:
        await self._tell("go")
        return await self._read(self.scenario.deadline + SETTLE_LIMIT_S + 60.0, "report")

    async def close(self) -> None:
        """Let it close its servers; kill it if it does not within seconds."""
        if self.process.returncode is not None:
            return
        try:
            await self._tell("stop")
            await asyncio.wait_for(self.process.wait(), 10.0)
        except (TimeoutError, ConnectionError):
            self.process.kill()
            await self.process.wait()


class CallLedger:
    """Model calls of every question delivered, per chat in the order they were written.

    Read off the results the generation service hands the handlers, so the ideal of each learner's round is
    the calls its own questions took, rejections and fixes included; a generation that failed adds its calls
    to the question written after it (the learner waited for both).
    """

    def __init__(self) -> None:
        self.calls: dict[int, list[int]] = defaultdict(list)
        self.outcomes: dict[str, int] = defaultdict(int)
        self.failures: list[str] = []  # the first reasons, printed with the errors
        self._carried: dict[int, int] = defaultdict(int)

    def watch(self, service: GenerationService) -> None:
        stream = service.stream

        async def observed(request: GenerationRequest) -> AsyncIterator[Progress | Result]:
            async for event in stream(request):
                if isinstance(event, Result):
                    chat, calls = request.chat_id, event.usage.get("model_calls", 0)
                    if event.ok:
                        self.calls[chat].append(self._carried.pop(chat, 0) + calls)
                    else:
                        self._carried[chat] += calls
                    self.outcomes[event.outcome] += 1
                    if event.outcome == "failed" and len(self.failures) < ErrorLog.KEPT:
                        self.failures.append(f"generation failed for chat {request.chat_id}: {event.failure}")
                yield event

        service.stream = observed  # type: ignore[method-assign]


class ErrorLog(logging.Handler):
    """Counts ERROR records from any logger of this process and keeps the first few with their tracebacks:
    "error while handling update 144" alone does not say what to fix. Installed until the event loop is
    gone, so a task that failed unawaited during shutdown is counted too."""

    KEPT = 3

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.setFormatter(logging.Formatter("%(name)s: %(message)s"))
        self.count = 0
        self.first: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
        if len(self.first) < self.KEPT:
            self.first.append(self.format(record))

    @contextmanager
    def installed(self) -> Iterator[ErrorLog]:
        root = logging.getLogger()
        root.addHandler(self)
        try:
            yield self
        finally:
            gc.collect()
            root.removeHandler(self)


@dataclass
class Measured:
    scenario: Scenario
    learners: list[Played]
    wall: float
    ledger: CallLedger
    handler_errors: int
    logged_errors: int
    recorded: int
    late_polls: int
    round_calls: list[int]
    bot_calls: dict[str, int]
    model_calls: int
    peak_model_calls: int
    bot_seconds: float
    cpu_seconds: float
    worker_cpu_seconds: float | None
    world_cpu_seconds: float


def load_settings_for(folder: Path, info: dict[str, Any], scenario: Scenario) -> Settings:
    settings = bot_settings(folder, info["base_url"])
    settings.telegram.status_after = TelegramSettings().status_after  # production behaviour, not the tests'
    settings.telegram.rate_limit = scenario.rate_limit
    settings.graph.workers = scenario.workers
    settings.llm = LLMSettings(
        provider="openai",
        base_url=info["model_url"],
        model="fake-exam-writer",
        api_key_env=_KEY_ENV,
        max_concurrency=256,
    )
    return settings


async def recorded_answers(database: Path, learners: list[Played]) -> int:
    """How many of the answers the learners sent are in the store, for that learner and those options."""
    store = await Store.open(database)
    try:
        found = 0
        for learner in learners:
            for poll_id, chosen in learner.answers:
                delivery = await store.deliveries.by_poll(poll_id)
                attempts = await store.attempts.for_delivery(delivery.id) if delivery else []
                found += any(
                    a.user_id == learner.user_id and sorted(a.option_ids) == sorted(chosen) for a in attempts
                )
        return found
    finally:
        await store.close()


@dataclass(frozen=True)
class BotRun:
    """The world's report, and the bot's own account of the same span: CPU seconds and errors counted
    before it began to stop."""

    report: dict[str, Any]
    seconds: float
    cpu_seconds: float
    worker_cpu_seconds: float | None
    handler_errors: int
    logged_errors: int


async def bot_run(
    application: Application, world: WorldProcess, ledger: CallLedger, error_log: ErrorLog
) -> BotRun:
    async with running(application):
        ledger.watch(state(application).generation)
        assert application.updater is not None
        await application.updater.start_polling(poll_interval=0.0, timeout=5)
        wall, cpu, workers = time.monotonic(), time.process_time(), worker_cpu()
        report = await world.play()
        wall, cpu = time.monotonic() - wall, time.process_time() - cpu
        workers = None if workers is None or (now := worker_cpu()) is None else now - workers
        handled = state(application).metrics.registry.get_sample_value("examforge_errors_total")
        return BotRun(report, wall, cpu, workers, int(handled or 0), error_log.count)


def worker_cpu() -> float | None:
    """CPU seconds used so far by this process's generation workers, from /proc (None where there is none)."""
    proc, total = Path("/proc"), 0.0
    if not proc.is_dir():
        return None
    for entry in proc.iterdir():
        try:
            if not entry.name.isdigit() or b"graph.worker" not in (entry / "cmdline").read_bytes():
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile, or not ours to read
        if int(fields[1]) == os.getpid():  # fields[1] is the parent's pid; utime and stime follow at 11, 12
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


async def measure(folder: Path, learners: int, scenario: Scenario, error_log: ErrorLog) -> Measured:
    world = await WorldProcess.start(learners, scenario)
    try:
        settings = load_settings_for(folder, world.info, scenario)
        application = build_application(settings, world.info["token"])
        ledger = CallLedger()
        with patch.dict(os.environ, {_KEY_ENV: "sk-bench"}):
            bot = await bot_run(application, world, ledger, error_log)
    finally:
        await world.close()
    report = bot.report
    played = [Played(**{**p, "answers": [(a, list(o)) for a, o in p["answers"]]}) for p in report["played"]]
    return Measured(
        scenario=scenario,
        learners=played,
        wall=float(report["wall"]),
        ledger=ledger,
        handler_errors=bot.handler_errors,
        logged_errors=bot.logged_errors,
        recorded=await recorded_answers(settings.storage.database, played),
        late_polls=int(report["late_polls"]),
        round_calls=[int(n) for n in report["round_calls"]],
        bot_calls={str(k): int(v) for k, v in report["calls"].items()},
        model_calls=int(report["model_calls"]),
        peak_model_calls=int(report["peak_model_calls"]),
        bot_seconds=bot.seconds,
        cpu_seconds=bot.cpu_seconds,
        worker_cpu_seconds=bot.worker_cpu_seconds,
        world_cpu_seconds=float(report["cpu"]),
    )


# ---- figures ----------------------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def ideal_end(learner: Played, calls: list[int]) -> float:
    """When the learner would be done with an infinitely fast bot and Telegram: its own pauses, the first
    question's model time, and of each later question only what the pause before it did not cover (it is
    written while the previous one is being answered)."""
    model = [n * MODEL_LATENCY_S for n in calls[:ANSWERED]]
    hidden = sum(max(0.0, m - p) for m, p in zip(model[1:], learner.pauses, strict=False))
    return learner.joined + learner.tapped + sum(model[:1]) + sum(learner.pauses) + hidden


def first_poll_rows(name: str, m: Measured) -> list[Row]:
    """A learner who got no poll before the deadline counts as slower than every one who did."""
    seconds = [math.inf if p.first_poll is None else p.first_poll for p in m.learners]
    # A learner's private chat has the learner's id.
    first_calls = [m.ledger.calls[p.user_id][0] for p in m.learners if m.ledger.calls[p.user_id]]
    ratios = [
        s / (m.ledger.calls[p.user_id][0] * MODEL_LATENCY_S) if p.first_poll is not None else math.inf
        for s, p in zip(seconds, m.learners, strict=True)
    ]
    p95_ratio = percentile(ratios, 0.95)

    def shown(value: float) -> str:
        return f"> {m.scenario.deadline:g} s" if math.isinf(value) else f"{value:.2f} s"

    judged = m.scenario.judged
    result: list[Row] = [
        (
            f"{name}: first poll after pressing the count button, p50 / p95",
            f"{shown(percentile(seconds, 0.5))} / {shown(percentile(seconds, 0.95))}"
            + ("" if math.isinf(p95_ratio) else f" (p95 {p95_ratio:.1f}× ideal)"),
            f"p95 ≤ {FIRST_POLL_TARGET:g}× ideal" if judged else "",
            p95_ratio <= FIRST_POLL_TARGET if judged else None,
        )
    ]
    if first_calls:
        low, high = min(first_calls), max(first_calls)
        result.append(
            (
                f"{name}: model-bound ideal of a first question (calls × {MODEL_LATENCY_S * 1000:.0f} ms)",
                f"{low * MODEL_LATENCY_S:.1f}–{high * MODEL_LATENCY_S:.1f} s ({low}–{high} calls,"
                f" mean {statistics.mean(first_calls):.2f})",
                "",
                None,
            )
        )
    return result


def rows(m: Measured, error_log: ErrorLog) -> list[Row]:
    count = len(m.learners)
    name = f"bot load[{count} learners, {m.scenario.name}]"
    finished = sum(p.finished for p in m.learners)
    learner_errors = [p.error for p in m.learners if p.error]
    sent = sum(len(p.answers) for p in m.learners)
    throttled = sum(n for method, n in m.bot_calls.items() if method not in UNTHROTTLED)
    ideal = max((ideal_end(p, m.ledger.calls[p.user_id]) for p in m.learners), default=0.0)
    stopping = error_log.count - m.logged_errors
    versus = f"{m.wall:.1f} s vs {ideal:.1f} s ({m.wall / ideal:.2f}×)" if ideal else f"{m.wall:.1f} s"
    by_method = sorted(m.bot_calls.items(), key=lambda item: -item[1])
    result = [
        *first_poll_rows(name, m),
        (
            f"{name}: wall time from the first /quiz to the last round's end vs the ideal"
            " (the latest learner's pauses + model time)",
            versus if finished == count else f"{versus}, cut at the deadline",
            "",
            None,
        ),
        (
            f"{name}: rounds finished within {m.scenario.deadline:g} s",
            f"{finished} / {count} ({finished / m.wall * 60:.0f} a minute)",
            f"{count}",
            finished == count,
        ),
        (
            f"{name}: errors during the run (bot error handler / bot ERROR logs / learners)",
            f"{m.handler_errors} / {m.logged_errors} / {len(learner_errors)}",
            "0 / 0 / 0",
            m.handler_errors == m.logged_errors == len(learner_errors) == 0,
        ),
        (
            f"{name}: bot ERROR logs while the bot stopped (after the run)",
            f"{stopping}",
            "0",
            stopping == 0,
        ),
        (f"{name}: answers recorded / sent", f"{m.recorded} / {sent}", "equal", m.recorded == sent),
        (
            f"{name}: questions the bot could not write, retried by the learner",
            f"{sum(p.retries for p in m.learners)}",
            "",
            None,
        ),
        (
            f"{name}: quizzes posted after 「{FINISHED_MARK}」 ({finished} finished rounds)",
            f"{m.late_polls}" if finished else "no round finished",
            "0",
            m.late_polls == 0 if finished else None,
        ),
        (
            f"{name}: bot process CPU while the learners played and settled (one core = 100%), per learner",
            f"{m.cpu_seconds:.1f} s in {m.bot_seconds:.1f} s ({m.cpu_seconds / m.bot_seconds:.0%}),"
            f" {m.cpu_seconds / count * 1000:.0f} ms",
            "",
            None,
        ),
        (
            f"{name}: generation workers' CPU ({m.scenario.workers}) over the same span, per learner",
            "none"
            if not m.scenario.workers or m.worker_cpu_seconds is None
            else f"{m.worker_cpu_seconds:.1f} s ({m.worker_cpu_seconds / m.bot_seconds:.0%}),"
            f" {m.worker_cpu_seconds / count * 1000:.0f} ms",
            "",
            None,
        ),
        (
            f"{name}: world process CPU (emulator, model server, learners) over the same span",
            f"{m.world_cpu_seconds:.1f} s ({m.world_cpu_seconds / m.bot_seconds:.0%})",
            "",
            None,
        ),
        (
            f"{name}: Bot API calls per learner: " + ", ".join(method for method, _ in by_method[:5]),
            f"{sum(m.bot_calls.values()) / count:.1f}: "
            + ", ".join(f"{n / count:.1f}" for _, n in by_method[:5]),
            "",
            None,
        ),
        (
            f"{name}: messages sent or edited per {ANSWERED}-question round (from the settings line),"
            " mean / max",
            f"{statistics.mean(m.round_calls):.1f} / {max(m.round_calls)}"
            if m.round_calls
            else "no round finished",
            f"mean ≤ {ROUND_CALLS_TARGET}",
            statistics.mean(m.round_calls) <= ROUND_CALLS_TARGET if m.round_calls else None,
        ),
        (
            f"{name}: calls counting against Telegram's {TELEGRAM_RATE:g}/s, per learner; rate asked of it",
            f"{throttled / count:.1f}; {throttled / m.wall:.0f}/s over the run"
            f" ({throttled / TELEGRAM_RATE:.0f} s of budget)",
            "",
            None,
        ),
        (
            f"{name}: generations per learner; model calls served, peak in flight",
            f"{sum(m.ledger.outcomes.values()) / count:.1f}"
            f" ({', '.join(f'{n} {o}' for o, n in sorted(m.ledger.outcomes.items()))});"
            f" {m.model_calls}, {m.peak_model_calls}",
            "",
            None,
        ),
    ]
    return result


def learner_count() -> int:
    raw = os.environ.get(LEARNERS_ENV, str(DEFAULT_LEARNERS))
    if not raw.isdigit() or int(raw) < 1:
        raise SystemExit(f"{LEARNERS_ENV} must be a whole number of learners ≥ 1, not {raw!r}")
    return int(raw)


def run(learners: int | None = None, scenarios: tuple[str, ...] = tuple(SCENARIOS)) -> list[Row]:
    result: list[Row] = []
    for name in scenarios:
        with (
            tempfile.TemporaryDirectory(prefix="examforge-bench-load-") as folder,
            ErrorLog().installed() as error_log,
        ):
            scenario = SCENARIOS[name]
            measured = run_loop(measure(Path(folder), learners or learner_count(), scenario, error_log))
        stuck = [p.error for p in measured.learners if p.error]
        for problem in [*error_log.first, *measured.ledger.failures, *stuck[: ErrorLog.KEPT]]:
            print(f"bot_load[{name}]: {problem}", file=sys.stderr)
        result.extend(rows(measured, error_log))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bot_load", description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=None, help=f"default ${LEARNERS_ENV} or 200")
    parser.add_argument("--scenario", choices=list(SCENARIOS), action="append", help="default: each in turn")
    parser.add_argument("--profile", type=Path, help="write a cProfile of this process (the bot), CPU time")
    parser.add_argument("--world", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.learners is not None and args.learners < 1:
        parser.error("--learners must be at least 1")
    if args.world:
        scenario = SCENARIOS[(args.scenario or ["paced"])[0]]
        asyncio.run(world(args.learners or learner_count(), scenario, MODEL_LATENCY_S))
        return 0
    from bench.__main__ import render

    # CPU time, not wall time: the bot's share of the processor is what is measured, not its waits.
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    if profiler is not None:
        profiler.enable()
    table = render(run(args.learners, tuple(args.scenario or SCENARIOS)))
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args.profile)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
