"""The bot's HTTP client for the Bot API: aiohttp under python-telegram-bot's `BaseRequest`.

Why not PTB's default httpx client: profiled over the load bench, the httpx/httpcore stack was over a third
of the bot's CPU — its pool scans every idle connection with a syscall on each request, and it form-encodes
bodies in pure Python. aiohttp (already a dependency) parses HTTP in C, and the body goes as JSON, which the
Bot API accepts. That JSON is written and read with orjson, as PTB's documentation suggests for speed (the
standard library's encoder and decoder were about 4% of the bot's CPU). Timeouts and errors keep PTB's
meaning: a timeout is `TimedOut`, a transport failure is `NetworkError`, and neither message carries the
request URL, which holds the bot token."""

from __future__ import annotations

from typing import Any

import aiohttp
import orjson
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

# PTB's defaults for its own client, so a setting means the same here.
READ_S = 5.0
WRITE_S = 5.0
CONNECT_S = 5.0
POOL_S = 1.0
MEDIA_WRITE_S = 20.0
_DEFAULT = type(BaseRequest.DEFAULT_NONE)


class AiohttpRequest(BaseRequest):
    """`connections`: requests in flight at once; more wait up to the pool timeout for a free one."""

    def __init__(self, connections: int, read_timeout: float | None = READ_S) -> None:
        self._connections = connections
        self._read_timeout = read_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    @staticmethod
    def parse_json_payload(payload: bytes) -> Any:
        try:
            return orjson.loads(payload)
        except orjson.JSONDecodeError:
            # PTB's own reading replaces bytes that are not UTF-8, and words the failure its way.
            return BaseRequest.parse_json_payload(payload)

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._connections),
                headers={"User-Agent": self.USER_AGENT},
            )

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: float | object | None = BaseRequest.DEFAULT_NONE,
        write_timeout: float | object | None = BaseRequest.DEFAULT_NONE,
        connect_timeout: float | object | None = BaseRequest.DEFAULT_NONE,
        pool_timeout: float | object | None = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            raise RuntimeError("AiohttpRequest is not initialized")
        files = request_data.multipart_data if request_data else {}
        read = _given(read_timeout, self._read_timeout)
        write = _given(write_timeout, MEDIA_WRITE_S if files else WRITE_S)
        connect = _given(connect_timeout, CONNECT_S)
        pool = _given(pool_timeout, POOL_S)
        # aiohttp has no write timeout of its own: the whole request is bounded by the sum of the parts.
        parts = (pool, connect, write, read)
        timeout = aiohttp.ClientTimeout(
            total=None if None in parts else sum(parts),  # type: ignore[arg-type]
            connect=None if pool is None or connect is None else pool + connect,
            sock_connect=connect,
            sock_read=read,
        )
        body: aiohttp.FormData | bytes | None = None
        headers = {}
        if files and request_data:
            body = aiohttp.FormData(request_data.json_parameters)
            for name, (filename, content, mime) in _parts(files):
                body.add_field(name, content, filename=filename, content_type=mime)
        elif request_data:
            body, headers = _json_body(request_data), {"Content-Type": "application/json"}
        try:
            async with self._session.request(method, url, data=body, headers=headers, timeout=timeout) as res:
                return res.status, await res.read()
        except (TimeoutError, aiohttp.ServerTimeoutError) as exc:
            raise TimedOut from exc
        except aiohttp.ClientConnectorError as exc:
            raise NetworkError(f"cannot connect to {exc.host}:{exc.port}") from exc
        except aiohttp.ClientError as exc:
            raise NetworkError(f"aiohttp.{type(exc).__name__}") from exc


def _json_body(request_data: RequestData) -> bytes:
    """The body PTB's `json_payload` would give: each parameter that is not a string JSON-encoded on its own
    (the Bot API reads a nested object given as a string)."""
    return orjson.dumps(
        {
            name: value if isinstance(value, str) else orjson.dumps(value).decode()
            for name, value in request_data.parameters.items()
        }
    )


def _given(value: float | object | None, default: float | None) -> float | None:
    """PTB marks "not given" with a DefaultValue (a bot's `Defaults` may hold others than DEFAULT_NONE)."""
    return default if isinstance(value, _DEFAULT) else value  # type: ignore[return-value]


def _parts(files: dict) -> list[tuple[str, tuple[str, bytes, str]]]:
    """PTB gives each file as (filename, content, mime) or (filename, content); content may be a handle."""
    parts = []
    for name, given in files.items():
        filename, content, *rest = given
        data = content if isinstance(content, bytes) else content.read()
        parts.append((name, (filename, data, rest[0] if rest else "application/octet-stream")))
    return parts
