"""Webhook mode: an aiohttp server in front of the PTB Application.

Telegram signs each delivery with the secret given to setWebhook; a request without the right
`X-Telegram-Bot-Api-Secret-Token` is refused with 403 before anything is parsed. `/healthz` and `/metrics`
serve the load balancer and Prometheus.
"""

from __future__ import annotations

import hmac
import json
import logging

from aiohttp import web
from telegram import Update
from telegram.ext import Application

from bot.metrics import Metrics

log = logging.getLogger(__name__)
UPDATE_PATH = "/telegram"
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


def create_webhook_app(application: Application, secret: str, metrics: Metrics) -> web.Application:
    async def receive(request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), secret.encode()):
            return web.Response(status=403, text="forbidden")
        try:
            data = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return web.Response(status=400, text="body is not JSON")
        update = Update.de_json(data, application.bot)
        if update is None:
            return web.Response(status=400, text="not an update")
        await application.update_queue.put(update)
        return web.Response(text="ok")

    async def healthz(request: web.Request) -> web.Response:
        running = application.running
        return web.json_response({"ok": running}, status=200 if running else 503)

    async def metrics_endpoint(request: web.Request) -> web.Response:
        return web.Response(body=metrics.render(), headers={"Content-Type": metrics.content_type})

    app = web.Application()
    app.router.add_post(UPDATE_PATH, receive)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics_endpoint)
    return app
