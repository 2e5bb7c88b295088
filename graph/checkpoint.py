"""The SQLite checkpointer: one connection per process, plus the thread housekeeping LangGraph leaves to us
(pruning finished threads to their latest checkpoint, purging a chat, finding interrupted runs)."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver


async def open_checkpointer(path: Path) -> AsyncSqliteSaver:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = await aiosqlite.connect(str(path))
    await conn.execute("PRAGMA journal_mode=WAL")
    await conn.execute("PRAGMA synchronous=NORMAL")
    saver = AsyncSqliteSaver(conn)
    await saver.setup()
    return saver


async def close_checkpointer(saver: AsyncSqliteSaver) -> None:
    await saver.conn.close()


async def prune_thread(saver: AsyncSqliteSaver, thread_id: str) -> int:
    """Keep only the newest checkpoint of a finished thread: enough to resume it for a revision."""
    async with saver.lock:
        cursor = await saver.conn.execute(
            "SELECT max(checkpoint_id) FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ''",
            (thread_id,),
        )
        row = await cursor.fetchone()
        if row is None or row[0] is None:
            return 0
        latest = row[0]
        deleted = await saver.conn.execute(
            "DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_id != ?", (thread_id, latest)
        )
        await saver.conn.execute(
            "DELETE FROM writes WHERE thread_id = ? AND checkpoint_id != ?", (thread_id, latest)
        )
        await saver.conn.execute(
            "UPDATE checkpoints SET parent_checkpoint_id = NULL WHERE thread_id = ? AND checkpoint_id = ?",
            (thread_id, latest),
        )
        await saver.conn.commit()
        return deleted.rowcount


async def thread_ids(saver: AsyncSqliteSaver, prefix: str = "") -> list[str]:
    async with saver.lock:
        cursor = await saver.conn.execute(
            "SELECT DISTINCT thread_id FROM checkpoints WHERE thread_id LIKE ? ORDER BY thread_id",
            (prefix + "%",),
        )
        return [row[0] for row in await cursor.fetchall()]


async def purge_chat(saver: AsyncSqliteSaver, chat_id: int) -> int:
    threads = await thread_ids(saver, f"{chat_id}/")
    for thread in threads:
        await saver.adelete_thread(thread)
    return len(threads)


async def checkpoint_rows(saver: AsyncSqliteSaver, thread_id: str) -> int:
    async with saver.lock:
        cursor = await saver.conn.execute(
            "SELECT count(*) FROM checkpoints WHERE thread_id = ?", (thread_id,)
        )
        row = await cursor.fetchone()
        return int(row[0]) if row else 0
