"""Webhook mode: an aiohttp server in front of the PTB Application.

Telegram signs each delivery with the secret given to setWebhook; a request without the right
`X-Telegram-Bot-Api-Secret-Token` is refused with 403 before anything is parsed. A signed body that is not an
update (a proxy's probe, a replay of something else) is refused with 400 and one log line: it must never
reach the handlers or fill the log with tracebacks. `/healthz` serves the load balancer and `/metrics`
Prometheus, here or on a listener of its own (`[telegram] metrics_port`).
"""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from telegram import Update
from telegram.ext import Application

from engines.metrics import Metrics
from handlers.context import state

log = logging.getLogger(__name__)
UPDATE_PATH = "/telegram"
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
# What PTB may raise on JSON of the wrong shape; RecursionError covers absurdly deep nesting.
_NOT_AN_UPDATE = (TypeError, KeyError, ValueError, AttributeError, IndexError, RecursionError)


def _parse_update(body: bytes, application: Application) -> Update:
    data = json.loads(body)
    if not isinstance(data, dict) or not isinstance(data.get("update_id"), int):
        raise ValueError("no update_id")
    update = Update.de_json(data, application.bot)
    if update is None:
        raise ValueError("empty update")
    return update


def create_webhook_app(
    application: Application, secret: str, metrics: Metrics, with_metrics: bool = True
) -> web.Application:
    async def receive(request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), secret.encode()):
            return web.Response(status=403, text="forbidden")
        body = await request.read()
        try:
            update = _parse_update(body, application)
        except (json.JSONDecodeError, UnicodeDecodeError):
            log.warning("webhook: refused a body that is not JSON")
            return web.Response(status=400, text="body is not JSON")
        except _NOT_AN_UPDATE as exc:
            log.warning("webhook: refused a body that is not a Telegram update (%s)", type(exc).__name__)
            return web.Response(status=400, text="not an update")
        await application.update_queue.put(update)
        return web.Response(text="ok")

    async def healthz(request: web.Request) -> web.Response:
        found = state(application)
        checks = {
            "running": application.running,
            "store": found.running and found.store.db.readable(),
        }
        healthy = all(checks.values())
        return web.json_response({"ok": healthy, **checks}, status=200 if healthy else 503)

    app = web.Application()
    app.router.add_post(UPDATE_PATH, receive)
    app.router.add_get("/healthz", healthz)
    if with_metrics:
        app.router.add_get("/metrics", metrics_endpoint(metrics))
    return app


def metrics_endpoint(metrics: Metrics) -> Callable[[web.Request], Awaitable[web.Response]]:
    async def serve(request: web.Request) -> web.Response:
        return web.Response(body=metrics.render(), headers={"Content-Type": metrics.content_type})

    return serve


def create_metrics_app(metrics: Metrics) -> web.Application:
    """/metrics alone, for a listener apart from the public webhook."""
    app = web.Application()
    app.router.add_get("/metrics", metrics_endpoint(metrics))
    return app
