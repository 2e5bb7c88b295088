"""Webhook delivery: POST each update, in order, to the bot's URL until it answers 2xx.

Like Telegram, a failed delivery is retried (with growing pauses) and reported through getWebhookInfo;
updates wait in the same queue getUpdates reads, so switching modes loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import time
from urllib.parse import urlsplit

import aiohttp

from emulator.errors import bad_request
from emulator.objects import JsonDict
from emulator.state import EmulatorOptions
from emulator.updates import UpdateQueue

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
_SECRET_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _is_loopback(host: str | None) -> bool:
    if host in (None, ""):
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class WebhookDelivery:
    def __init__(self, updates: UpdateQueue, options: EmulatorOptions) -> None:
        self._updates = updates
        self._options = options
        self._task: asyncio.Task[None] | None = None
        self._session: aiohttp.ClientSession | None = None
        self.url = ""
        self.secret: str | None = None
        self.max_connections = 40
        self.last_error_date: int | None = None
        self.last_error_message: str | None = None
        self.delivered = 0

    @property
    def active(self) -> bool:
        return bool(self.url)

    async def configure(self, url: str, secret: str | None, max_connections: int | None) -> None:
        """Start delivering to `url`; the emulator never posts beyond this machine."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not _is_loopback(parts.hostname):
            raise bad_request(
                "bad webhook: the emulator delivers only to http(s)://127.0.0.1, ::1 or localhost"
            )
        if secret is not None and not (1 <= len(secret) <= 256 and set(secret) <= _SECRET_CHARS):
            raise bad_request("secret token contains unallowed characters")
        await self.clear()
        self.url, self.secret = url, secret
        self.max_connections = max_connections or 40
        self._task = asyncio.create_task(self._deliver_forever(), name="emulator-webhook")

    async def clear(self) -> None:
        self.url, self.secret = "", None
        self.last_error_date = self.last_error_message = None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def close(self) -> None:
        await self.clear()
        if self._session is not None:
            await self._session.close()
            self._session = None

    def info(self) -> JsonDict:
        data: JsonDict = {
            "url": self.url,
            "has_custom_certificate": False,
            "pending_update_count": self._updates.pending_count,
        }
        if self.url:
            data["max_connections"] = self.max_connections
            if self._updates.allowed_updates is not None:
                data["allowed_updates"] = self._updates.allowed_updates
        if self.last_error_date is not None:
            data.update(last_error_date=self.last_error_date, last_error_message=self.last_error_message)
        return data

    async def _post(self, update: JsonDict) -> str | None:
        """Deliver one update; the failure in Telegram's words, or None on success."""
        if self._session is None:
            self._session = aiohttp.ClientSession()
        headers = {"Content-Type": "application/json"}
        if self.secret:
            headers[SECRET_HEADER] = self.secret
        try:
            async with self._session.post(
                self.url,
                data=json.dumps(update, ensure_ascii=False).encode(),
                headers=headers,
                timeout=aiohttp.ClientTimeout(total=self._options.webhook_timeout),
            ) as response:
                if 200 <= response.status < 300:
                    return None
                return f"Wrong response from the webhook: {response.status} {response.reason}"
        except TimeoutError:
            return "Read timeout expired"
        except aiohttp.ClientConnectionError:
            return "Connection refused"

    async def _deliver_forever(self) -> None:
        next_id = 0
        pause = self._options.webhook_retry_delay
        while not self._updates.closed:
            batch = await self._updates.get(offset=next_id, limit=1, timeout=30.0)
            if not batch:
                continue
            update = batch[0]
            failure = await self._post(update)
            if failure is None:
                next_id = int(update["update_id"]) + 1
                self.delivered += 1
                pause = self._options.webhook_retry_delay
                continue
            self.last_error_date, self.last_error_message = int(time.time()), failure
            await asyncio.sleep(pause)
            pause = min(pause * 2, self._options.webhook_retry_max)
