"""The demo session: the emulator, the bot and a console client in one process — a working conversation with
no token, no model and no network. Kept out of `bot/commands/demo.py` so the command line does not import
Telegram and the bot unless the demo is what runs."""

from __future__ import annotations

import asyncio
import random
from contextlib import suppress

from bot.app import build_application, running
from bot.console import HELP, run_console
from bot.runner import configure_logging
from emulator import EmulatorClient, EmulatorError, EmulatorServer
from emulator.views import ChatMessage, EmuChat, EmuUser
from settings import Settings

BANNER = """examforge demo — you are "{user}" in a private chat with the bot (offline author, bundled data).
Try /quiz, then tap buttons by number and vote with the option number. An instructor is ready too:
":as teacher" switches to them. The bot's log is in {log}.
{keys}
"""
GROUP_BANNER = """A study group "{group}" is ready: you are its administrator, and {members} are simulated
members who answer every group quiz within a few seconds. Type ":group {group}", then /groupquiz;
after a round, /groupstats shows the class (":save" keeps its chart).
"""
GROUP_TITLE = "学习小组"
MEMBERS = ("小王", "小李", "小张", "小赵")


def _demo_settings(settings: Settings, base_url: str, instructor_id: int) -> None:
    demo_dir = settings.root / "var" / "demo"
    demo_dir.mkdir(parents=True, exist_ok=True)
    settings.telegram.base_url = base_url
    settings.llm.provider = "offline"
    settings.graph.checkpoint_db = demo_dir / "checkpoints.sqlite"
    settings.storage.database = demo_dir / "examforge.sqlite"
    settings.telegram.status_after = 0  # the offline author is quick: show the loop anyway
    # The emulator starts empty and hands out the same chat, message and poll ids every run: yesterday's
    # records would collide with today's, so the demo starts from empty databases too.
    for database in (settings.graph.checkpoint_db, settings.storage.database):
        for stale in demo_dir.glob(f"{database.name}*"):
            stale.unlink()
    settings.telegram.instructors = [*settings.telegram.instructors, instructor_id]


async def _answer(
    client: EmulatorClient, members: list[EmuUser], quiz: ChatMessage, rng: random.Random
) -> None:
    """The members answer one quiz, each after a few seconds, right about two times in three."""
    poll, waited = quiz.poll, 0.0
    for member, moment in sorted(((m, rng.uniform(2.0, 10.0)) for m in members), key=lambda pair: pair[1]):
        await asyncio.sleep(moment - waited)
        waited = moment
        wrong = [i for i in range(len(poll.options)) if i not in poll.correct_option_ids]
        choice = list(poll.correct_option_ids) if rng.random() < 0.65 else [rng.choice(wrong)]
        with suppress(EmulatorError):  # the poll closed first
            await client.vote(member, quiz, choice)


async def _simulate_members(root_url: str, group: EmuChat, members: list[EmuUser]) -> None:
    rng, answering = random.Random(), set()
    async with EmulatorClient(root_url) as client:
        while True:
            with suppress(TimeoutError):
                quiz = await client.wait_for_poll(group, timeout=3600)
                task = asyncio.create_task(_answer(client, members, quiz, rng))
                answering.add(task)
                task.add_done_callback(answering.discard)


async def _study_group(root_url: str, user: str) -> asyncio.Task[None]:
    """You as the administrator of a group with simulated members, and the task that makes them answer."""
    async with EmulatorClient(root_url) as client:
        you = await client.create_user(user)
        members = [await client.create_user(name) for name in MEMBERS]
        group = await client.create_group(GROUP_TITLE, members, admins=[you])
    return asyncio.create_task(_simulate_members(root_url, group, members))


async def play(settings: Settings, user: str, group: bool) -> int:
    """The console conversation as `user`; its exit status."""
    log_file = settings.root / "var" / "demo" / "bot.log"
    log_file.parent.mkdir(parents=True, exist_ok=True)
    configure_logging(str(log_file))
    async with EmulatorServer() as emulator:
        async with EmulatorClient(emulator.root_url) as client:
            teacher = await client.create_user("teacher")
        _demo_settings(settings, emulator.base_url, teacher.id)
        application = build_application(settings, emulator.token)
        async with running(application):
            await application.updater.start_polling(poll_interval=0.0, timeout=1)
            print(BANNER.format(user=user, log=log_file, keys=HELP), flush=True)
            received = settings.root / "var" / "demo" / "received"
            if not group:
                return await run_console(emulator.root_url, user, save_folder=received)
            members = await _study_group(emulator.root_url, user)
            print(GROUP_BANNER.format(group=GROUP_TITLE, members="、".join(MEMBERS)), flush=True)
            try:
                return await run_console(emulator.root_url, user, save_folder=received)
            finally:
                members.cancel()
