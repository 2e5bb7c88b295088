"""The one SQLite connection a process uses, and bringing its schema up to date.

Statements run on the event loop's own thread. SQLite answers this schema's indexed reads and writes in tens
of microseconds, far less than handing each statement to a worker thread and back (aiosqlite): under load
every hand-over waits for a turn of a busy event loop, and a transaction of several statements held the
store for all of those turns while every other learner queued behind it (bench.bot_load: 0.7 s at p50
between pressing the count button and the question being started, for 200 learners). What may wait on
something outside this process is taking the write lock from another process (a CLI export while the bot
runs): that wait is an asyncio sleep between tries, never a blocked loop.

Why a lock around every call: nothing inside a repository call yields today, but one that did (a retried
`BEGIN IMMEDIATE`, a future change) must not let another coroutine's statements land inside its transaction.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager, closing
from pathlib import Path
from typing import Any, Literal

from storage.errors import DatabaseFileError, NotFoundError
from storage.migrations import MIGRATIONS, Migration

Clock = Callable[[], float]
Synchronous = Literal["full", "normal"]
Params = Sequence[Any]

# How long a write waits for another process's write lock before giving up, and how often it retries.
LOCK_WAIT_S = 5.0
LOCK_RETRY_S = 0.01
# SQLite's own wait inside a statement: short, because it blocks the event loop (reads rarely need it in WAL).
BUSY_TIMEOUT_MS = 50
_REMEDY = "move it away to start afresh, or restore it from a backup"


def connect_checked(path: Path, what: str, setting: str, **options: Any) -> sqlite3.Connection:
    """Connect to a SQLite file this process must read and write, and prove it can.

    A zeroed page or a read-only file otherwise lets the bot start and look healthy, then fails every update
    ("database disk image is malformed"). `quick_check` reads every page once; on the sizes a bot keeps
    that is milliseconds. Every refusal names the file, says why, and says which setting moves it.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatabaseFileError(
            f"{path}: cannot create its folder {path.parent} ({exc.strerror}); create it, "
            f"or set {setting} to a writable place"
        ) from None
    if path.exists() and not path.is_file():
        raise DatabaseFileError(f"{path}: not a file; set {setting} to a file")
    if (path.exists() and not os.access(path, os.R_OK | os.W_OK)) or not os.access(path.parent, os.W_OK):
        raise DatabaseFileError(
            f"{path}: this user may not read and write it (or create its -wal file beside it); "
            f"fix the permissions, or set {setting} to another file"
        )
    try:
        conn = sqlite3.connect(str(path), **options)
    except sqlite3.Error as exc:
        raise DatabaseFileError(
            f"{path}: cannot open the {what} ({exc}); set {setting} to another file"
        ) from None
    try:
        problems = [row[0] for row in conn.execute("PRAGMA quick_check").fetchall()]
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise DatabaseFileError(f"{path}: not a usable {what} ({exc}); {_REMEDY}") from None
    if problems != ["ok"]:
        conn.close()
        found = " ".join(" ".join(problems).split())[:200]
        raise DatabaseFileError(f"{path}: not a usable {what} (damaged: {found}); {_REMEDY}")
    return conn


class Connection:
    """A sqlite3 connection with the awaitable `execute` the repositories use, so they read the same whether
    a statement suspends or not."""

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    async def execute(self, sql: str, params: Params = ()) -> sqlite3.Cursor:
        return self.raw.execute(sql, params)

    async def begin_immediate(self) -> None:
        """Take the write lock, waiting without blocking the loop while another process holds it."""
        deadline = time.monotonic() + LOCK_WAIT_S
        while True:
            try:
                self.raw.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc).lower() or time.monotonic() >= deadline:
                    raise
            await asyncio.sleep(LOCK_RETRY_S)

    async def close(self) -> None:
        self.raw.close()


class Database:
    """Connection, lock and clock shared by every repository of one `Store`."""

    def __init__(self, conn: Connection, path: Path, clock: Clock) -> None:
        self.conn = conn
        self.path = path
        self.clock = clock
        self._lock = asyncio.Lock()

    @classmethod
    async def open(
        cls,
        path: Path,
        clock: Clock = time.time,
        migrations: Sequence[Migration] = MIGRATIONS,
        synchronous: Synchronous = "full",
        setting: str = "[storage] database",
    ) -> Database:
        """Open (creating if needed) and migrate; a file this code cannot use fails here, not mid-quiz."""
        path = Path(path)
        # isolation_level=None: the sqlite3 module must not open transactions behind our back.
        conn = Connection(connect_checked(path, "examforge database", setting, isolation_level=None))
        try:
            conn.raw.row_factory = sqlite3.Row
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            mode = await _pragma(conn, "journal_mode = WAL")
            if str(mode).lower() != "wal":
                raise DatabaseFileError(f"{path}: cannot switch the database to WAL mode (it stays {mode!r})")
            # FULL: a committed answer survives a power cut, not only a crash of the bot; NORMAL trades
            # that for commits that do not wait for the disk ([storage] synchronous).
            await conn.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            await conn.execute("PRAGMA foreign_keys = ON")
            await _migrate(conn, path, migrations)
        except sqlite3.DatabaseError as exc:
            await conn.close()
            raise DatabaseFileError(f"{path}: not a usable examforge database ({exc}); {_REMEDY}") from exc
        except BaseException:
            await conn.close()
            raise
        return cls(conn, path, clock)

    async def close(self) -> None:
        async with self._lock:
            await self.conn.close()

    def readable(self) -> bool:
        """Whether the file still reads, asked on a connection of its own: this one's page cache would go on
        answering from memory after the file underneath was damaged or removed."""
        try:
            with closing(sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)) as probe:
                probe.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error:
            return False
        return True

    def now(self) -> float:
        return self.clock()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """A write transaction, committed before the block's caller gets control back."""
        async with self._lock:
            await self.conn.begin_immediate()
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")

    async def fetch_one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        async with self._lock:
            return await fetch_one(self.conn, sql, params)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        async with self._lock:
            return await fetch_all(self.conn, sql, params)


# The module-level readers are for use inside `transaction()`, where the lock is already held.
async def fetch_one(conn: Connection, sql: str, params: Params = ()) -> sqlite3.Row | None:
    return (await conn.execute(sql, params)).fetchone()


async def fetch_all(conn: Connection, sql: str, params: Params = ()) -> list[sqlite3.Row]:
    return (await conn.execute(sql, params)).fetchall()


async def require(conn: Connection, refs: Iterable[tuple[str, str, int | None]]) -> None:
    """Check that each (label, table, id) exists, so a bad reference is named instead of surfacing as
    SQLite's anonymous "FOREIGN KEY constraint failed". None ids are optional references and skipped."""
    for label, table, row_id in refs:
        if (
            row_id is not None
            and await fetch_one(conn, f"SELECT 1 FROM {table} WHERE id = ?", (row_id,)) is None
        ):
            raise NotFoundError(f"{label} {row_id} is not stored")


async def _pragma(conn: Connection, pragma: str) -> Any:
    row = await fetch_one(conn, f"PRAGMA {pragma}")
    return row[0] if row is not None else None


async def _migrate(conn: Connection, path: Path, migrations: Sequence[Migration]) -> None:
    """Apply the pending migrations in one transaction: a failure leaves the file at its old version."""
    latest = len(migrations)
    if _check_version(await _pragma(conn, "user_version"), latest, path) == latest:
        return
    await conn.begin_immediate()
    try:
        # Re-read under the write lock: another process may have migrated since.
        current = _check_version(await _pragma(conn, "user_version"), latest, path)
        for number in range(current + 1, latest + 1):
            migration = migrations[number - 1]
            try:
                for statement in migration.statements:
                    await conn.execute(statement)
            except sqlite3.Error as exc:
                raise DatabaseFileError(
                    f"{path}: migration {number} ({migration.description}) failed: {exc}"
                ) from exc
            await conn.execute(f"PRAGMA user_version = {number}")
    except BaseException:
        await conn.execute("ROLLBACK")
        raise
    await conn.execute("COMMIT")


def _check_version(found: int, latest: int, path: Path) -> int:
    if found > latest:
        raise DatabaseFileError(
            f"{path}: database schema version {found} is newer than this examforge supports "
            f"(up to {latest}); upgrade examforge, or set [storage] database to another file"
        )
    return found
