"""Webhook mode: only Telegram (holding the secret) may push updates; health and metrics answer."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.app import build_application, running
from bot.webhook import SECRET_HEADER, UPDATE_PATH, create_webhook_app
from engines.metrics import Metrics
from testkit.botharness import bot_settings, world

SECRET = "s3cret-token_for-tests"


def start_update(update_id: int, user_id: int) -> dict:
    user = {"id": user_id, "is_bot": False, "first_name": "Hana"}
    return {
        "update_id": update_id,
        "message": {
            "message_id": 1,
            "date": 1_700_000_000,
            "chat": {"id": user_id, "type": "private", "first_name": "Hana"},
            "from": user,
            "text": "/start",
            "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
        },
    }


async def test_webhook_accepts_only_the_secret_and_serves_health_and_metrics(tmp_path: Path):
    async with world(tmp_path) as (emulator, client, settings):
        hana = await client.create_user("Hana")
        metrics = Metrics()
        application = build_application(settings, emulator.token, metrics)
        async with running(application):
            server = TestServer(create_webhook_app(application, SECRET, metrics))
            async with TestClient(server) as http:
                forged = await http.post(
                    UPDATE_PATH, json=start_update(1, hana.id), headers={SECRET_HEADER: "wrong"}
                )
                missing = await http.post(UPDATE_PATH, json=start_update(2, hana.id))
                assert (forged.status, missing.status) == (403, 403)
                before = await (await http.get("/metrics")).text()
                assert "examforge_updates_handled_total 0.0" in before, "nothing from a forged request ran"

                await application.bot.set_webhook(str(server.make_url(UPDATE_PATH)), secret_token=SECRET)
                await client.send_text(hana, "/start")
                welcome = await client.next_message(hana)
                assert "欢迎" in welcome.text

                health = await http.get("/healthz")
                assert health.status == 200 and (await health.json())["ok"] is True
                scraped = await (await http.get("/metrics")).text()
                assert "examforge_updates_handled_total 1.0" in scraped
                assert "examforge_generation_seconds" in scraped

                garbage = await http.post(UPDATE_PATH, data=b"not json", headers={SECRET_HEADER: SECRET})
                assert garbage.status == 400


def without_date(update: dict) -> dict:
    del update["message"]["date"]
    return update


@pytest.mark.parametrize(
    "body",
    [
        b"[1,2]",
        b"{}",
        b'{"update_id": "7"}',
        json.dumps(without_date(start_update(3, 42))).encode(),
        b"[" * 100_000 + b"]" * 100_000,
    ],
    ids=["list", "empty object", "update_id not a number", "message without date", "100000 deep"],
)
async def test_signed_json_that_is_not_an_update_is_refused_with_one_log_line(
    tmp_path: Path, caplog, body: bytes
):
    # Nothing is listening at this Bot API: refusing a body must not need Telegram.
    application = build_application(bot_settings(tmp_path, "http://127.0.0.1:9/bot"), "424242:TOKEN")
    caplog.set_level(logging.INFO)
    async with TestClient(TestServer(create_webhook_app(application, SECRET, Metrics()))) as http:
        response = await http.post(UPDATE_PATH, data=body, headers={SECRET_HEADER: SECRET})
        assert response.status == 400
    logged = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(logged) == 1, [r.getMessage() for r in logged]
    assert logged[0].exc_info is None and "\n" not in logged[0].getMessage()
    assert application.update_queue.empty(), "nothing reached the handlers"
