"""Start-up through the real command line: every way `run` or `generate` can fail to start ends in one
`cannot start:` line and exit status 2, naming what is wrong and never quoting a secret; what is merely
cosmetic is logged and the bot goes on."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import sys
import tempfile
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from emulator import EmulatorClient, EmulatorOptions, EmulatorServer
from emulator.api import BotApi
from emulator.errors import bad_request
from graph.checkpoint import close_checkpointer, open_checkpointer
from storage import Store

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "424242:START-UP-SECRET-TOKEN"
WEBHOOK_SECRET = "start_up-webhook-secret"
# Root ignores file permissions: the permission cases run the command as `nobody` instead.
AS_ROOT = os.geteuid() == 0
AS_NOBODY = ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")


@dataclass
class Outcome:
    status: int
    out: str
    err: str

    def refused(self, *expected: str, secrets: tuple[str, ...] = (TOKEN,)) -> str:
        """The one `cannot start:` line, after checking everything else the operator must not see."""
        both = self.out + self.err
        assert self.status == 2, both
        assert "Traceback" not in both, both
        lines = [line for line in self.err.splitlines() if line.startswith("cannot start: ")]
        assert len(lines) == 1, both
        for part in expected:
            assert part in lines[0], lines[0]
        for secret in secrets:
            assert secret not in both
        return lines[0]


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder every user may enter (pytest's own is private to root), so `nobody` can run there."""
    made = Path(tempfile.mkdtemp(prefix="examforge-start-"))
    made.chmod(0o777)
    yield made
    shutil.rmtree(made, ignore_errors=True)


def write_config(folder: Path) -> Path:
    path = folder / "config.toml"
    path.write_text(
        f'[data]\nknowledge_base = "{ROOT / "data/knowledge_base.jsonl"}"\n'
        f'question_bank = "{ROOT / "data/question_bank.xlsx"}"\nfacts_cache = "{folder / "facts"}"\n'
        f'[graph]\ncheckpoint_db = "{folder / "checkpoints.sqlite"}"\n'
        f'[storage]\ndatabase = "{folder / "examforge.sqlite"}"\n',
        encoding="utf-8",
    )
    path.chmod(0o644)
    return path


def closed_port() -> int:
    with closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def environment(folder: Path, **variables: str) -> dict[str, str]:
    """This process's environment without any bot setting or secret of the person running the tests."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("EXAMFORGE_", "TELEGRAM_", "OPENAI_"))
    }
    env |= {
        "EXAMFORGE_CONFIG": str(write_config(folder)),
        "EXAMFORGE_TELEGRAM_BASE_URL": f"http://127.0.0.1:{closed_port()}/bot",
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "HOME": str(folder),
    }
    return env | variables


async def start_cli(env: dict[str, str], *args: str, as_nobody: bool = False) -> asyncio.subprocess.Process:
    prefix = [*AS_NOBODY] if as_nobody and AS_ROOT else []
    return await asyncio.create_subprocess_exec(
        *prefix,
        sys.executable,
        "-m",
        "bot",
        *args,
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def cli(env: dict[str, str], *args: str, as_nobody: bool = False) -> Outcome:
    process = await start_cli(env, *args, as_nobody=as_nobody)
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout=120)
    except TimeoutError:
        process.kill()  # it started after all: the case failed, and no bot may outlive the test
        await process.wait()
        raise
    return Outcome(process.returncode, out.decode(), err.decode())


# ---- the bot token and the Bot API ------------------------------------------------------------------------


async def test_a_rejected_token_is_refused_without_quoting_it(folder: Path):
    wrong = "123:WRONG-TOKEN-VALUE"
    async with EmulatorServer(EmulatorOptions(token=TOKEN)) as emulator:
        env = environment(folder, TELEGRAM_BOT_TOKEN=wrong, EXAMFORGE_TELEGRAM_BASE_URL=emulator.base_url)
        outcome = await cli(env, "run")
    outcome.refused("rejected the token in $TELEGRAM_BOT_TOKEN", "@BotFather", secrets=(wrong, "WRONG-TOKEN"))


@pytest.mark.parametrize("token", ["   ", "\t\n", "424242:START UP"])
async def test_a_token_of_spaces_is_refused_before_any_request(folder: Path, token: str):
    outcome = await cli(environment(folder, TELEGRAM_BOT_TOKEN=token), "run")
    outcome.refused("$TELEGRAM_BOT_TOKEN", "@BotFather", secrets=("START UP",))


async def test_an_unreachable_bot_api_is_named(folder: Path):
    env = environment(folder)
    outcome = await cli(env, "run")
    outcome.refused(
        f"cannot reach the Bot API at {env['EXAMFORGE_TELEGRAM_BASE_URL']}", "[telegram] base_url"
    )


async def test_a_refused_command_menu_is_logged_and_the_bot_goes_on(folder: Path, monkeypatch):
    async def refuse(self: BotApi, params: object) -> object:
        raise bad_request("BOT_COMMANDS_DISABLED")

    monkeypatch.setattr(BotApi, "set_my_commands", refuse)
    async with EmulatorServer(EmulatorOptions(token=TOKEN)) as emulator:
        env = environment(folder, EXAMFORGE_TELEGRAM_BASE_URL=emulator.base_url)
        process = await start_cli(env, "run")
        try:
            async with EmulatorClient(emulator.root_url) as client:
                olga = await client.create_user("Olga")
                await client.send_text(olga, "/start")
                assert "欢迎" in (await client.next_message(olga, timeout=90)).text
        finally:
            process.send_signal(signal.SIGTERM)
            out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    log = out.decode() + err.decode()
    assert process.returncode == 0, log
    assert "refused setMyCommands" in log and "bot_commands_disabled" in log.lower()
    assert "Traceback" not in log and TOKEN not in log


# ---- the language model -----------------------------------------------------------------------------------


async def test_openai_without_its_key_stops_generate(folder: Path):
    outcome = await cli(environment(folder, EXAMFORGE_LLM_PROVIDER="openai"), "generate")
    outcome.refused("$OPENAI_API_KEY is not set", 'provider = "offline"')


async def test_openai_without_its_key_stops_run(folder: Path):
    async with EmulatorServer(EmulatorOptions(token=TOKEN)) as emulator:
        env = environment(
            folder, EXAMFORGE_LLM_PROVIDER="openai", EXAMFORGE_TELEGRAM_BASE_URL=emulator.base_url
        )
        outcome = await cli(env, "run")
    outcome.refused("$OPENAI_API_KEY is not set")


# ---- settings checked when they are loaded ----------------------------------------------------------------


@pytest.mark.parametrize("secret", ["has spaces in it", "point.and:colon", "秘密", "x" * 257])
async def test_a_webhook_secret_telegram_would_refuse_is_refused_at_load(folder: Path, secret: str):
    env = environment(
        folder,
        EXAMFORGE_TELEGRAM_MODE="webhook",
        EXAMFORGE_TELEGRAM_WEBHOOK_URL="https://bot.example.com",
        TELEGRAM_WEBHOOK_SECRET=secret,
    )
    outcome = await cli(env, "run")
    outcome.refused("$TELEGRAM_WEBHOOK_SECRET", "A-Z a-z 0-9 _ -", secrets=(TOKEN, secret))


async def test_a_seed_beyond_64_bits_is_refused_at_load(folder: Path):
    outcome = await cli(environment(folder, EXAMFORGE_GRAPH_SEED=str(2**64)), "generate")
    outcome.refused("graph.seed", str(2**64 - 1))


async def test_a_taken_webhook_port_is_named(folder: Path):
    with closing(socket.socket()) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = environment(
            folder,
            EXAMFORGE_TELEGRAM_MODE="webhook",
            EXAMFORGE_TELEGRAM_WEBHOOK_URL="https://bot.example.com",
            EXAMFORGE_TELEGRAM_PORT=str(port),
            TELEGRAM_WEBHOOK_SECRET=WEBHOOK_SECRET,
        )
        outcome = await cli(env, "run")
    outcome.refused(
        f"cannot listen on 127.0.0.1:{port}", "[telegram] listen / port", secrets=(TOKEN, WEBHOOK_SECRET)
    )


# ---- the two database files -------------------------------------------------------------------------------


async def real_file(path: Path, which: str) -> bytes:
    """A database as the bot leaves it (WAL folded back in), to damage in the ways disks and people do."""
    if which == "store":
        store = await Store.open(path)
        await store.close()
    else:
        close_checkpointer(open_checkpointer(path))
    return path.read_bytes()


def damage(path: Path, original: bytes, how: str) -> None:
    page = 4096
    if how == "garbage":
        path.write_bytes(os.urandom(len(original)))
    elif how == "truncated":
        path.write_bytes(original[: len(original) // 2])
    elif how == "zeroed page":
        path.write_bytes(original[: 2 * page] + bytes(page) + original[3 * page :])
    elif how == "unreadable":
        path.chmod(0o000)
    elif how == "read-only":
        path.chmod(0o444)


# What each database is called in the line, the variable that moves it, and a command that opens it.
DATABASES = {
    "store": ("EXAMFORGE_STORAGE_DATABASE", "run"),
    "checkpoints": ("EXAMFORGE_GRAPH_CHECKPOINT_DB", "generate"),
}
EXPECTED = {
    "garbage": "not a usable",
    "truncated": "not a usable",
    "zeroed page": "not a usable",
    "unreadable": "may not read and write it",
    "read-only": "may not read and write it",
}


@pytest.mark.parametrize("how", list(EXPECTED))
@pytest.mark.parametrize("which", list(DATABASES))
async def test_a_database_file_that_cannot_serve_is_named(folder: Path, which: str, how: str):
    data = folder / "data"
    data.mkdir(mode=0o777)
    data.chmod(0o777)
    path = data / f"{which}.sqlite"
    damage(path, await real_file(path, which), how)
    variable, command = DATABASES[which]
    as_nobody = how in ("unreadable", "read-only")
    if as_nobody and AS_ROOT and shutil.which(AS_NOBODY[0]) is None:
        pytest.skip("running as root without setpriv: permissions cannot be tried")
    async with EmulatorServer(EmulatorOptions(token=TOKEN)) as emulator:
        env = environment(folder, **{variable: str(path), "EXAMFORGE_TELEGRAM_BASE_URL": emulator.base_url})
        outcome = await cli(env, command, as_nobody=as_nobody)
    line = outcome.refused(str(path), EXPECTED[how])
    assert "move it away" in line or "permissions" in line


@pytest.mark.parametrize("which", list(DATABASES))
async def test_a_database_in_a_folder_that_cannot_be_made_is_named(folder: Path, which: str):
    (folder / "a-file").write_text("not a folder", encoding="utf-8")
    path = folder / "a-file" / "var" / f"{which}.sqlite"
    variable, command = DATABASES[which]
    async with EmulatorServer(EmulatorOptions(token=TOKEN)) as emulator:
        env = environment(folder, **{variable: str(path), "EXAMFORGE_TELEGRAM_BASE_URL": emulator.base_url})
        outcome = await cli(env, command)
    setting = "[storage] database" if which == "store" else "[graph] checkpoint_db"
    outcome.refused(str(path), f"cannot create its folder {path.parent}", setting)


# ---- webhook mode: health and metrics ---------------------------------------------------------------------


async def wait_healthy(http: aiohttp.ClientSession, url: str, process: asyncio.subprocess.Process) -> None:
    for _ in range(600):
        assert process.returncode is None, "the bot stopped during start-up"
        try:
            async with http.get(url) as response:
                if response.status == 200:
                    return
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.2)
    raise AssertionError("the bot never became healthy")


async def test_metrics_on_their_own_listener_and_health_follows_the_store(folder: Path):
    port, metrics_port = closed_port(), closed_port()
    store = folder / "examforge.sqlite"
    async with EmulatorServer(EmulatorOptions(token=TOKEN)) as emulator:
        env = environment(
            folder,
            EXAMFORGE_TELEGRAM_BASE_URL=emulator.base_url,
            EXAMFORGE_TELEGRAM_MODE="webhook",
            EXAMFORGE_TELEGRAM_WEBHOOK_URL=f"http://127.0.0.1:{port}",
            EXAMFORGE_TELEGRAM_PORT=str(port),
            EXAMFORGE_TELEGRAM_METRICS_PORT=str(metrics_port),
            TELEGRAM_WEBHOOK_SECRET=WEBHOOK_SECRET,
        )
        process = await start_cli(env, "run")
        try:
            async with aiohttp.ClientSession() as http, EmulatorClient(emulator.root_url) as client:
                await wait_healthy(http, f"http://127.0.0.1:{port}/healthz", process)
                hana = await client.create_user("Hana")
                await client.send_text(hana, "/start")
                assert "欢迎" in (await client.next_message(hana, timeout=60)).text
                async with http.get(f"http://127.0.0.1:{metrics_port}/metrics") as scraped:
                    assert scraped.status == 200
                    assert "examforge_updates_handled_total 1.0" in await scraped.text()
                async with http.get(f"http://127.0.0.1:{port}/metrics") as public:
                    assert public.status == 404, "the public webhook port no longer shows the metrics"

                store.unlink()  # a clean-up job took the file from under the running bot
                async with http.get(f"http://127.0.0.1:{port}/healthz") as health:
                    assert health.status == 503
                    assert (await health.json())["store"] is False
        finally:
            process.send_signal(signal.SIGTERM)
            out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    log = out.decode() + err.decode()
    assert "Traceback" not in log and TOKEN not in log and WEBHOOK_SECRET not in log
