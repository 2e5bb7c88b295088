"""The bot's aiohttp client for the Bot API keeps PTB's meaning of timeouts and failures, and never puts the
token (which is part of every request URL) into an error."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from aiohttp import web
from telegram import Bot
from telegram.error import NetworkError, TimedOut

from bot.transport import AiohttpRequest

TOKEN = "123456:SECRET-token-value"


@asynccontextmanager
async def bot_api(handler) -> AsyncIterator[str]:
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}/bot"
    finally:
        await runner.cleanup()


@asynccontextmanager
async def make_bot(base_url: str) -> AsyncIterator[Bot]:
    """A bot whose client is open; not `async with Bot`, which would ask the server for getMe first."""
    bot = Bot(TOKEN, base_url=base_url, request=AiohttpRequest(connections=4, read_timeout=0.3))
    await bot.request.initialize()
    try:
        yield bot
    finally:
        await bot.request.shutdown()


async def test_a_bot_api_that_does_not_answer_in_time_is_a_timeout_without_the_token():
    async def slow(request: web.Request) -> web.Response:
        await asyncio.sleep(5)
        return web.json_response({"ok": True, "result": True})

    async with bot_api(slow) as url, make_bot(url) as bot:
        with pytest.raises(TimedOut) as caught:
            await bot.delete_webhook()
    assert "SECRET" not in str(caught.value)


async def test_a_refused_connection_is_a_network_error_naming_the_address_not_the_token():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    async with make_bot(f"http://127.0.0.1:{port}/bot") as bot:
        with pytest.raises(NetworkError) as caught:
            await bot.delete_webhook()
    assert f"127.0.0.1:{port}" in str(caught.value)
    assert "SECRET" not in str(caught.value)


async def test_parameters_go_as_json_and_files_as_multipart():
    seen: list[tuple[str, dict]] = []

    async def record(request: web.Request) -> web.Response:
        if request.content_type == "application/json":
            seen.append(("json", await request.json()))
        else:
            form = await request.post()
            seen.append(("multipart", {k: getattr(v, "filename", v) for k, v in form.items()}))
        return web.json_response({"ok": True, "result": True})

    async with bot_api(record) as url, make_bot(url) as bot:
        await bot.set_my_commands([("quiz", "练习")])
        await bot.set_chat_photo(7, b"\x89PNG fake bytes")
    (kind, body), (file_kind, file_body) = seen
    assert kind == "json" and "quiz" in str(body["commands"])
    assert file_kind == "multipart" and str(file_body["chat_id"]) == "7" and file_body["photo"]
