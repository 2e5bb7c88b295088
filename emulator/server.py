"""The emulator's HTTP server: Bot API at /bot<token>/, files at /file/bot<token>/, people at /_emu/.

`async with EmulatorServer() as emulator:` gives `emulator.base_url` for
`Application.builder().base_url(...)`; `python -m emulator` runs it standalone.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from types import TracebackType

from aiohttp import web
from telegram.ext import Application, ApplicationBuilder

from emulator.api import BotApi
from emulator.errors import ApiError, bad_request
from emulator.params import Params, Upload
from emulator.state import EmulatorOptions, World
from emulator.user_api import PREFIX, UserApi, ok
from emulator.webhook import WebhookDelivery

log = logging.getLogger(__name__)
MAX_UPLOAD = 50 * 1024 * 1024

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def _telegram_errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every refusal leaves as Telegram-shaped JSON; an emulator bug is a 500, never a hung client."""
    try:
        return await handler(request)
    except ApiError as error:
        return web.json_response(error.to_json(), status=error.status)
    except web.HTTPException:
        raise
    except Exception as error:
        log.exception("emulator failed on %s %s", request.method, request.path)
        body = {"ok": False, "error_code": 500, "description": f"Internal Server Error: {error}"}
        return web.json_response(body, status=500)


async def _bot_params(request: web.Request) -> Params:
    """Parameters from the query string and a JSON, urlencoded or multipart body."""
    values: dict[str, object] = dict(request.query)
    uploads: dict[str, Upload] = {}
    if request.method == "POST" and request.can_read_body:
        if request.content_type == "application/json":
            try:
                body = await request.json()
            except ValueError:
                raise bad_request("can't parse JSON body") from None
            if not isinstance(body, dict):
                raise bad_request("the JSON body must be an object")
            values.update(body)
        else:
            for key, value in (await request.post()).items():
                if isinstance(value, web.FileField):
                    uploads[key] = Upload(value.filename or key, value.file.read(), value.content_type)
                else:
                    values[key] = value
    return Params(values, uploads)


def create_app(world: World, webhook: WebhookDelivery) -> web.Application:
    bot_api = BotApi(world, webhook)
    token = world.options.token

    async def bot_endpoint(request: web.Request) -> web.Response:
        if request.match_info["token"] != token:
            raise ApiError(401, "Unauthorized")
        return ok(await bot_api.call(request.match_info["method"], await _bot_params(request)))

    async def file_endpoint(request: web.Request) -> web.Response:
        if request.match_info["token"] != token:
            raise ApiError(401, "Unauthorized")
        for stored in world.files.values():
            if stored.path == request.match_info["path"]:
                return web.Response(body=stored.content, content_type=stored.mime_type)
        raise ApiError(404, "Not Found")

    app = web.Application(middlewares=[_telegram_errors], client_max_size=MAX_UPLOAD)
    app.router.add_route("*", "/bot{token}/{method}", bot_endpoint)
    app.router.add_get("/file/bot{token}/{path:.+}", file_endpoint)
    app.add_routes(UserApi(world, bot_api).routes())
    return app


class EmulatorServer:
    """A running emulator on 127.0.0.1 (a free port unless one is given)."""

    def __init__(
        self, options: EmulatorOptions | None = None, *, host: str = "127.0.0.1", port: int = 0
    ) -> None:
        self.options = options or EmulatorOptions()
        self.host = host
        self.port = port
        self.world = World(self.options)
        self.webhook = WebhookDelivery(self.world.updates, self.options)
        self._runner: web.AppRunner | None = None

    @property
    def root_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """For `Application.builder().base_url(...)`: PTB appends the token."""
        return f"{self.root_url}/bot"

    @property
    def base_file_url(self) -> str:
        return f"{self.root_url}/file/bot"

    @property
    def user_api_url(self) -> str:
        return f"{self.root_url}{PREFIX}"

    @property
    def token(self) -> str:
        return self.options.token

    def application_builder(self) -> ApplicationBuilder:
        """A PTB builder aimed at this emulator; files too, so nothing ever reaches api.telegram.org."""
        return (
            Application.builder().token(self.token).base_url(self.base_url).base_file_url(self.base_file_url)
        )

    async def start(self) -> str:
        # handler_cancellation lets an abandoned long poll end with its client instead of lingering.
        runner = web.AppRunner(
            create_app(self.world, self.webhook),
            handler_cancellation=True,
            shutdown_timeout=1.0,
            access_log=None,
        )
        await runner.setup()
        await web.TCPSite(runner, self.host, self.port).start()
        self.port = runner.addresses[0][1]
        self._runner = runner
        return self.base_url

    async def stop(self) -> None:
        self.world.close()
        await self.webhook.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> EmulatorServer:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()


async def serve(options: EmulatorOptions, host: str, port: int) -> None:
    async with EmulatorServer(options, host=host, port=port) as emulator:
        print(f"Bot API:  {emulator.base_url}  (token {emulator.token})", flush=True)
        print(f"user API: {emulator.user_api_url}", flush=True)
        print(f"console:  python -m bot.console --url {emulator.root_url}", flush=True)
        await asyncio.Event().wait()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m emulator", description="Local Telegram Bot API emulator."
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8081)
    parser.add_argument("--token", default=EmulatorOptions.token)
    parser.add_argument("--bot-username", default=EmulatorOptions.bot_username)
    parser.add_argument(
        "--flood-control",
        action="store_true",
        help="answer 429 when a group gets more than 20 messages a minute",
    )
    parser.add_argument(
        "--min-open-period",
        type=float,
        default=EmulatorOptions.min_open_period,
        help="shortest poll open_period",
    )
    args = parser.parse_args(argv)
    options = EmulatorOptions(
        token=args.token,
        bot_username=args.bot_username,
        flood_control=args.flood_control,
        min_open_period=args.min_open_period,
    )
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(options, args.host, args.port))
    return 0
