"""The database file: migrations, refusing files this code cannot use, WAL and foreign keys."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from storage import SchemaError, Store
from storage import db as db_module
from storage.db import Database
from storage.migrations import LATEST_VERSION, MIGRATIONS, Migration
from tests.test_storage_support import (
    Clock,
    deliver,
    make_world,
)

TABLES = {
    "users",
    "chats",
    "sampler_states",
    "sessions",
    "rounds",
    "questions",
    "question_versions",
    "deliveries",
    "attempts",
    "votes",
    "reports",
    "revisions",
}


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


async def test_empty_file_is_migrated_to_latest_version(store: Store, db_path: Path) -> None:
    rows = await store.db.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table'")
    assert {row["name"] for row in rows} >= TABLES
    assert user_version(db_path) == LATEST_VERSION == len(MIGRATIONS)


async def test_reopening_keeps_data_and_version(db_path: Path, clock: Clock) -> None:
    first = await Store.open(db_path, clock)
    await first.users.upsert(7, "李娜")
    await first.close()
    again = await Store.open(db_path, clock)
    try:
        assert (await again.users.get(7)).name == "李娜"
    finally:
        await again.close()
    assert user_version(db_path) == LATEST_VERSION


async def test_newer_schema_is_refused_with_both_versions_named(db_path: Path) -> None:
    store = await Store.open(db_path)
    await store.close()
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 3}")
    with pytest.raises(SchemaError) as caught:
        await Store.open(db_path)
    message = str(caught.value)
    assert str(db_path) in message
    assert f"version {LATEST_VERSION + 3}" in message and f"up to {LATEST_VERSION}" in message
    assert user_version(db_path) == LATEST_VERSION + 3


async def test_failed_migration_leaves_the_file_at_its_old_version(db_path: Path) -> None:
    broken = (*MIGRATIONS, Migration("add a column to a missing table", ("ALTER TABLE nowhere ADD x INT",)))
    with pytest.raises(SchemaError, match=rf"migration {len(broken)} \(add a column to a missing table\)"):
        await Database.open(db_path, migrations=broken)
    assert user_version(db_path) == 0
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'users'").fetchone()[0] == 0


async def test_a_file_that_is_not_sqlite_is_named_in_the_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    path.write_text("这不是数据库文件，只是一段笔记。" * 100, encoding="utf-8")
    with pytest.raises(SchemaError, match=r"notes\.sqlite: not a usable examforge database"):
        await Store.open(path)


async def test_wal_mode_is_on(store: Store, db_path: Path) -> None:
    row = await store.db.fetch_one("PRAGMA journal_mode")
    assert row[0] == "wal"
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize(("synchronous", "level"), [("full", 2), ("normal", 1)])
async def test_commits_wait_for_the_disk_as_configured(db_path: Path, synchronous: str, level: int) -> None:
    store = await Store.open(db_path, synchronous=synchronous)
    try:
        row = await store.db.fetch_one("PRAGMA synchronous")
    finally:
        await store.close()
    assert row[0] == level


async def test_foreign_keys_are_enforced(store: Store) -> None:
    world = await make_world(store)
    delivery = await deliver(store, world.version.id, world.chat_id, "poll-fk")
    await store.attempts.record(delivery.id, world.user_id, [1])
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        async with store.db.transaction() as conn:
            await conn.execute("DELETE FROM users WHERE id = ?", (world.user_id,))
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        async with store.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO votes (user_id, version_id, value, voted_at) VALUES (999, ?, 1, 0)",
                (world.version.id,),
            )
    assert await store.users.get(world.user_id) is not None
    assert len(await store.attempts.for_delivery(delivery.id)) == 1


async def test_a_write_waits_for_another_process_without_blocking_the_loop(
    store: Store, db_path: Path
) -> None:
    """Another process (a CLI export, say) holding the write lock delays a learner's write, not the bot: the
    event loop keeps running meanwhile, and the write lands once the lock is released."""
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    turned = asyncio.Event()

    async def ticking() -> None:
        for _ in range(5):
            await asyncio.sleep(0.01)
        turned.set()

    async def release_once_the_loop_turned() -> None:
        # Released only after the loop has turned while the write waits: a write that blocked the loop
        # would never see the lock released and would give up instead of landing.
        await turned.wait()
        other.execute("COMMIT")

    ticker = asyncio.create_task(ticking())
    releaser = asyncio.create_task(release_once_the_loop_turned())
    try:
        await store.users.upsert(7, "Waiting Learner", None)
    finally:
        ticker.cancel()
        releaser.cancel()
        if other.in_transaction:
            other.execute("ROLLBACK")
        other.close()
    assert turned.is_set()
    assert await store.users.get_locale(7) is None
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT name FROM users WHERE id = 7").fetchone() == ("Waiting Learner",)


async def test_a_write_gives_up_on_a_lock_never_released_and_keeps_what_was_stored(
    store: Store, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await store.users.upsert(1, "Stored Before", None)
    monkeypatch.setattr(db_module, "LOCK_WAIT_S", 0.2)
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            await store.users.upsert(2, "Never Written", None)
    finally:
        other.execute("ROLLBACK")
        other.close()
    await store.users.upsert(2, "Written Later", None)
    with sqlite3.connect(db_path) as conn:
        names = [row[0] for row in conn.execute("SELECT name FROM users ORDER BY id")]
    assert names == ["Stored Before", "Written Later"]
