"""End-to-end harness: the real PTB Application, polling the local Bot API emulator over HTTP, with the
offline author and the bundled sample, every file it writes kept in a temporary folder."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from telegram.ext import Application

from bot.app import build_application, running
from emulator import EmulatorClient, EmulatorOptions, EmulatorServer
from engines.clock import Clock, Pace
from engines.sending import Sender
from retrieval.sources import Sources, load_sources
from settings import Settings, load_settings

ROOT = Path(__file__).resolve().parent.parent


def bot_settings(folder: Path, base_url: str) -> Settings:
    settings = load_settings(ROOT / "config.toml", environ={})
    settings.telegram.base_url = base_url
    settings.graph.checkpoint_db = folder / "checkpoints.sqlite"
    settings.storage.database = folder / "examforge.sqlite"
    settings.telegram.status_after = 0  # always show the live status, so tests can watch the loop
    return settings


_LOADED: dict[tuple[tuple[str, int, int], ...], Sources] = {}


def _load_once(*paths: str | Path) -> Sources:
    """`load_sources` remembered per file, modification time and size: most tests start the bot on the
    bundled sample, some several times, and reading it again cost every start some 65 ms of CPU. A file
    changed or missing is read (and reported) afresh."""
    try:
        key = tuple(
            (str(Path(p).resolve()), Path(p).stat().st_mtime_ns, Path(p).stat().st_size) for p in paths
        )
    except OSError:
        return load_sources(*paths)
    if key not in _LOADED:
        _LOADED[key] = load_sources(*paths)
    return _LOADED[key]


@asynccontextmanager
async def bot_running(
    emulator: EmulatorServer,
    settings: Settings,
    pace: Pace | None = None,
    clock: Clock | None = None,
    wrap_sender: Callable[[Sender], Sender] | None = None,
) -> AsyncIterator[Application]:
    """`pace`: shrunk round and posting times (testkit.roundharness.quick_pace); `clock`: a time a test
    moves forward; `wrap_sender`: a sender around the bot's own, to hold or fail a send."""
    application = build_application(
        settings, emulator.token, pace=pace, clock=clock, wrap_sender=wrap_sender, read_sources=_load_once
    )
    async with running(application):
        await application.updater.start_polling(poll_interval=0.0, timeout=1)
        yield application


@asynccontextmanager
async def world(folder: Path, options: EmulatorOptions | None = None):
    """An emulator, a client of it, and settings for a bot aimed at it (start the bot with `bot_running`)."""
    async with EmulatorServer(options) as emulator, EmulatorClient(emulator.root_url) as client:
        yield emulator, client, bot_settings(folder, emulator.base_url)
