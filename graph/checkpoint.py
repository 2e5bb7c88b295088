"""The SQLite checkpointer: one connection per process, plus the thread housekeeping LangGraph leaves to us
(pruning finished threads to their latest checkpoint, purging a chat, finding interrupted runs).

Checkpoint statements run on the event loop's own thread, through LangGraph's synchronous `SqliteSaver`.
Its asynchronous sibling hands every statement to a worker thread (aiosqlite) and holds one lock across all
the hand-overs, so under load every graph step of every generation queued behind the others' checkpoint
writes: 200 learners in bench.bot_load waited ~7 s per question that the model answered in 0.9 s. A
checkpoint write here takes well under a millisecond.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import ChannelVersions, Checkpoint, CheckpointMetadata, CheckpointTuple
from langgraph.checkpoint.sqlite import SqliteSaver

from storage.db import connect_checked
from storage.errors import DatabaseFileError

# Seconds SQLite may wait for another process's write lock (a CLI run sharing the file); it blocks the loop,
# so it stays short: checkpoint transactions last microseconds.
BUSY_TIMEOUT_S = 1.0


class LoopSqliteSaver(SqliteSaver):
    """`SqliteSaver` with the asynchronous methods the graph calls, done in place."""

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        return self.get_tuple(config)

    async def alist(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        for item in self.list(config, filter=filter, before=before, limit=limit):
            yield item

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        return self.put(config, checkpoint, metadata, new_versions)

    async def aput_writes(
        self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        self.put_writes(config, writes, task_id, task_path)

    async def adelete_thread(self, thread_id: str) -> None:
        self.delete_thread(thread_id)


def open_checkpointer(path: Path) -> LoopSqliteSaver:
    """Open (creating if needed) the checkpoint file; one this process cannot use stops the command here."""
    conn = connect_checked(
        path, "checkpoint database", "[graph] checkpoint_db", timeout=BUSY_TIMEOUT_S, check_same_thread=False
    )
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        saver = LoopSqliteSaver(conn)
        saver.setup()
    except sqlite3.Error as exc:
        conn.close()
        raise DatabaseFileError(
            f"{path}: not a usable checkpoint database ({exc}); move it away to start afresh, "
            "or set [graph] checkpoint_db to another file"
        ) from None
    return saver


def close_checkpointer(saver: LoopSqliteSaver) -> None:
    saver.conn.close()


def prune_thread(saver: LoopSqliteSaver, thread_id: str) -> int:
    """Keep only the newest checkpoint of a finished thread: enough to resume it for a revision."""
    with saver.cursor() as cur:
        row = cur.execute(
            "SELECT max(checkpoint_id) FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ''",
            (thread_id,),
        ).fetchone()
        if row is None or row[0] is None:
            return 0
        latest = row[0]
        deleted = cur.execute(
            "DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_id != ?", (thread_id, latest)
        ).rowcount
        cur.execute("DELETE FROM writes WHERE thread_id = ? AND checkpoint_id != ?", (thread_id, latest))
        cur.execute(
            "UPDATE checkpoints SET parent_checkpoint_id = NULL WHERE thread_id = ? AND checkpoint_id = ?",
            (thread_id, latest),
        )
        return deleted


def thread_ids(saver: LoopSqliteSaver, prefix: str = "") -> list[str]:
    with saver.cursor(transaction=False) as cur:
        rows = cur.execute(
            "SELECT DISTINCT thread_id FROM checkpoints WHERE thread_id LIKE ? ORDER BY thread_id",
            (prefix + "%",),
        ).fetchall()
    return [row[0] for row in rows]


def purge_chat(saver: LoopSqliteSaver, chat_id: int) -> int:
    threads = thread_ids(saver, f"{chat_id}/")
    for thread in threads:
        saver.delete_thread(thread)
    return len(threads)


def checkpoint_rows(saver: LoopSqliteSaver, thread_id: str) -> int:
    with saver.cursor(transaction=False) as cur:
        row = cur.execute("SELECT count(*) FROM checkpoints WHERE thread_id = ?", (thread_id,)).fetchone()
    return int(row[0]) if row else 0
