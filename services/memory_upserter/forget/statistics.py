"""After a hard forget: refresh the planner statistics of the tables it touched, and rewrite the
catalog table that held the old ones, so no sample of forgotten text stays in ``pg_statistic``.

``ANALYZE`` copies sample values of each column (most common values, histogram bounds) into
``pg_statistic``; a forgotten message's text can be one of them. A fresh ``ANALYZE`` samples
only live rows, so the new statistics hold none of it, but it replaces the old statistics rows
by an update, and the old tuples stay in ``pg_statistic``'s file (and its TOAST) until that
table is rewritten. And ``ANALYZE`` of a table left empty keeps its old statistics (it has no
sample to replace them with): so the touched tables' statistics rows are deleted first, when
this role may (a superuser); a role that may not reports the old ones left (the receipt's
``postgres_statistics``).

``VACUUM FULL pg_statistic`` rewrites it; Postgres allows it to a superuser
(or, from Postgres 17, a role with ``MAINTAIN`` on it). Without that right the old samples stay
in the catalog file until an administrator rewrites it: the receipt says so
(:data:`STATISTICS_LEFT`).

Cost: ``ANALYZE`` reads a bounded sample (30,000 rows per table at the default statistics
target) under a lock that never blocks reads or writes; the catalog rewrite takes
``pg_statistic``'s exclusive lock for milliseconds (it holds a few hundred rows), waiting at
most ``LOCK_TIMEOUT_S`` for it.
"""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from services.core.deps import Connection, Database
from services.memory_upserter.forget.compact import LOCK_TIMEOUT_S, user_tables


async def refresh(pool: Database, tables: Sequence[str]) -> tuple[list[str], bool]:
    """ANALYZE each table, then rewrite ``pg_statistic`` when this role may; returns (the
    tables analyzed, whether no old sample is left in the catalog)."""
    if not tables:
        return [], True
    async with pool.acquire() as conn:
        known = set(await user_tables(conn)) | {"idempotency_keys"}
        unknown = [t for t in tables if t not in known]
        if unknown:
            raise ValueError(f"not a table of person data: {unknown!r}")
        superuser = await conn.fetchval("SELECT current_setting('is_superuser') = 'on'")
        if superuser:  # ANALYZE of a table left empty would keep its old rows
            await conn.execute(
                "DELETE FROM pg_catalog.pg_statistic WHERE starelid = ANY("
                "SELECT to_regclass(quote_ident(t))::oid FROM unnest($1::text[]) t)",
                list(tables),
            )
        for table in tables:
            await conn.execute(f'ANALYZE "{table}"')
        if not superuser and await _any_empty(conn, tables):
            return sorted(tables), False
        if not await may_rewrite_catalog(conn):
            return sorted(tables), False
        await conn.execute(f"SET lock_timeout = '{int(LOCK_TIMEOUT_S * 1000)}ms'")
        try:
            await conn.execute("VACUUM (FULL) pg_catalog.pg_statistic")
        except asyncpg.LockNotAvailableError:
            return sorted(tables), False
        finally:
            await conn.execute("RESET lock_timeout")
    return sorted(tables), True


async def _any_empty(conn: Connection, tables: Sequence[str]) -> bool:
    """Whether a table is left empty: its ANALYZE kept the old statistics."""
    for table in tables:
        if not await conn.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{table}")'):
            return True
    return False


async def may_rewrite_catalog(conn: Connection) -> bool:
    """Whether this role may ``VACUUM FULL pg_statistic`` (Postgres only warns, and skips it,
    when it may not, so ask first)."""
    if await conn.fetchval("SELECT current_setting('is_superuser') = 'on'"):
        return True
    if int(await conn.fetchval("SHOW server_version_num")) < 170000:
        return False
    return bool(
        await conn.fetchval("SELECT has_table_privilege('pg_catalog.pg_statistic', 'MAINTAIN')")
    )
