"""The bot token never reaches the logs of a running bot (PTB's and the HTTP client's included)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from bot.app import build_application
from bot.runner import configure_logging, serve_polling
from emulator import EmulatorClient, EmulatorOptions, EmulatorServer
from testkit.botharness import bot_settings

TOKEN = "424242:VERY-SECRET-TOKEN-VALUE"


async def test_polling_logs_never_contain_the_token(tmp_path: Path, caplog):
    configure_logging()
    caplog.set_level(logging.DEBUG, logger="telegram")
    caplog.set_level(logging.INFO)
    async with EmulatorServer(EmulatorOptions(token=TOKEN)) as emulator:
        settings = bot_settings(tmp_path, emulator.base_url)
        stop = asyncio.Event()
        runner = asyncio.create_task(serve_polling(build_application(settings, TOKEN), settings, stop))
        async with EmulatorClient(emulator.root_url) as client:
            olga = await client.create_user("Olga")
            await client.send_text(olga, "/start")
            assert "欢迎" in (await client.next_message(olga, timeout=20)).text
        stop.set()
        await runner
    assert "polling" in caplog.text
    assert "VERY-SECRET" not in caplog.text
