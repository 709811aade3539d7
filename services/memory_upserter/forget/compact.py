"""After a hard forget: rewrite the Postgres tables it touched, so no deleted bytes stay in them.

A ``DELETE`` (or an ``UPDATE`` that scrubs a value) leaves the old tuple's bytes in the table's
heap and index pages; plain ``VACUUM`` marks the space reusable but does not zero it (measured:
the text is still in ``base/…`` after ``VACUUM`` + ``CHECKPOINT``). ``VACUUM FULL`` writes a
fresh copy of the table, its TOAST table and its indexes, and truncates the old files when it
commits, so the forgotten text is then in no table file; it takes the table's exclusive lock for
the rewrite, which grows with the table (bench/RESULTS.md, section "Forget").

Guarantees: a table's rewrite waits at most ``LOCK_TIMEOUT_S`` for its lock, so it never
queues behind a long transaction (while it waits and while it rewrites, the table's other users
wait too); tables up to ``INLINE_BYTES`` are rewritten before the forget answers, larger ones
and ones whose lock was busy right after it in the background, retried until ``SWEEP_S`` after
the forget, then logged as still pending. Not guaranteed: a deleted row that a transaction
older than the forget could still see is copied by the rewrite (Postgres keeps what a snapshot
may need) and stays until the table's next rewrite; the rewrite runs after the forget's
clean-up, by when a turn's transactions (well under a second) have ended. Postgres' WAL keeps
the deleted text until its segments are recycled (after the next checkpoints), and backups keep
theirs: the receipt says so.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Sequence

import asyncpg
import structlog

from services.core.deps import Connection, Database

LOCK_TIMEOUT_S = 2.0
SWEEP_S = 60.0
RETRY_S = 5.0
# A table up to this size is rewritten inside the forget request; a larger one right after it,
# in the background, so the answer never waits on a big rewrite (cost: bench/forget.py).
INLINE_BYTES = 64 * 1024 * 1024


USER_TABLES = """
SELECT c.table_name FROM information_schema.columns c
  JOIN information_schema.tables t USING (table_schema, table_name)
 WHERE c.table_schema = 'public' AND c.column_name = 'user_id' AND t.table_type = 'BASE TABLE'
 ORDER BY c.table_name
"""


async def user_tables(conn: Connection) -> list[str]:
    """Every table holding a person's rows (it has a ``user_id`` column), from the schema."""
    return [r[0] for r in await conn.fetch(USER_TABLES)]


def touched_tables(rows: dict[str, int]) -> list[str]:
    """The tables a receipt's row counts touched (``forget_log`` only gains an audit row)."""
    return sorted(t for t, n in rows.items() if n and t != "forget_log")


async def compact(
    pool: Database, tables: Iterable[str], *, inline_bytes: int | None = INLINE_BYTES
) -> tuple[list[str], list[str]]:
    """Rewrite each table; returns (rewritten, left for later): a table larger than
    ``inline_bytes`` (None: any size) is left for :func:`finish_later`, and so is one whose
    lock did not come within ``LOCK_TIMEOUT_S``. Other errors propagate."""
    done: list[str] = []
    pending: list[str] = []
    async with pool.acquire() as conn:
        known = set(await user_tables(conn)) | {"idempotency_keys"}
        for table in tables:
            if table not in known:
                raise ValueError(f"not a table of person data: {table!r}")
            if (
                inline_bytes is not None
                and await conn.fetchval(
                    "SELECT pg_total_relation_size($1::regclass)", f'public."{table}"'
                )
                > inline_bytes
            ):
                pending.append(table)
                continue
            await conn.execute(f"SET lock_timeout = '{int(LOCK_TIMEOUT_S * 1000)}ms'")
            try:
                await conn.execute(f'VACUUM (FULL) "{table}"', timeout=SWEEP_S)
                done.append(table)
            except asyncpg.LockNotAvailableError:
                pending.append(table)
            finally:
                await conn.execute("RESET lock_timeout")
    return done, pending


async def finish_later(pool: Database, tables: Sequence[str], *, started: float) -> None:
    """Rewrite the tables :func:`compact` left, whatever their size, retrying a busy lock every
    ``RETRY_S`` until ``SWEEP_S`` after ``started`` (monotonic); logs what it did."""
    log = structlog.get_logger()
    left = list(tables)
    while left:
        try:
            done, left = await compact(pool, left, inline_bytes=None)
        except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
            log.warning("forget_compaction_failed", error=type(exc).__name__, tables=left)
            done = []
        if done:
            log.info("forget_compacted", tables=done, after_s=round(time.monotonic() - started, 1))
        if not left or time.monotonic() - started + RETRY_S > SWEEP_S:
            break
        await asyncio.sleep(RETRY_S)
    if left:
        log.warning("forget_compaction_pending", tables=left)
