"""Schema migrations: the numbered SQL files in ``migrations/``, applied once each, in order.

Guarantees:

- each file runs in its own transaction together with its row in ``schema_migrations``, so a
  file is either fully applied and recorded or not at all;
- a session-level advisory lock serializes concurrent runners (two nodes starting at once): the
  second waits, then finds nothing left to do;
- an applied file whose content has since changed is refused, never re-run or ignored — fix it
  with a new file instead;
- versions recorded in the database but absent from the files (a newer deploy already ran) are
  tolerated, so an older node can still start during a rolling deploy.

A version is the file name without ``.sql`` (``0001_foundation``); files sort by their number.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

import asyncpg

if TYPE_CHECKING:
    from services.core.deps import Connection

MIGRATIONS_DIR = Path(__file__).with_name("migrations")

# pg_advisory_lock key: the first 8 bytes of sha256("twin-core:migrate"), as a signed bigint.
LOCK_KEY = int.from_bytes(hashlib.sha256(b"twin-core:migrate").digest()[:8], "big", signed=True)

_FILE_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")

_CREATE_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    text PRIMARY KEY,
    checksum   text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)
"""


class MigrationError(RuntimeError):
    """The migrations cannot be applied as they stand; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class Migration:
    version: str
    sql: str
    checksum: str


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migration files, in order. Checksums ignore CRLF vs LF line endings."""
    migrations: list[Migration] = []
    numbers: dict[str, str] = {}
    for path in sorted(directory.glob("*.sql")):
        match = _FILE_NAME.match(path.name)
        if match is None:
            raise MigrationError(
                f"{path.name}: migration files must be named NNNN_lowercase_words.sql"
            )
        number = match.group(1)
        if number in numbers:
            raise MigrationError(f"{path.name} and {numbers[number]} share the number {number}")
        numbers[number] = path.name
        sql = path.read_text(encoding="utf-8").replace("\r\n", "\n")
        checksum = hashlib.sha256(sql.encode("utf-8")).hexdigest()
        migrations.append(Migration(version=path.stem, sql=sql, checksum=checksum))
    return migrations


async def apply_migrations(
    dsn: str, *, directory: Path = MIGRATIONS_DIR, lock_timeout_s: float = 60.0
) -> list[str]:
    """Apply every migration not yet applied; return the versions applied by this call."""
    migrations = load_migrations(directory)
    conn = await asyncpg.connect(dsn)
    try:
        await _lock(conn, lock_timeout_s)
        try:
            await conn.execute(_CREATE_VERSION_TABLE)
            applied = await _applied(conn)
            _check_checksums(migrations, applied)
            done: list[str] = []
            for migration in migrations:
                if migration.version in applied:
                    continue
                await _apply_one(conn, migration)
                done.append(migration.version)
            return done
        finally:
            # Closing the connection would release it too; unlocking first is just tidy, and
            # must not hide the error that got us here if the connection is already broken.
            with contextlib.suppress(asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                await conn.execute("SELECT pg_advisory_unlock($1)", LOCK_KEY)
    finally:
        await conn.close()


async def current_version(conn: asyncpg.Connection) -> str | None:
    """The newest applied version, or None on a database never migrated."""
    if not await _has_version_table(conn):
        return None
    version: str | None = await conn.fetchval("SELECT max(version) FROM schema_migrations")
    return version


def latest_version(directory: Path = MIGRATIONS_DIR) -> str | None:
    """The newest migration of this code (``0008_message_index``): the schema version it needs."""
    names = sorted(path.stem for path in directory.glob("*.sql") if _FILE_NAME.match(path.name))
    return names[-1] if names else None


async def missing_versions(conn: Connection, *, directory: Path = MIGRATIONS_DIR) -> list[str]:
    """Versions of the files not applied yet, on a connection the caller holds (readiness)."""
    applied = await _applied(conn) if await _has_version_table(conn) else {}
    return [m.version for m in load_migrations(directory) if m.version not in applied]


async def pending(dsn: str, *, directory: Path = MIGRATIONS_DIR) -> list[str]:
    """Versions not applied yet; a node is not ready while this is non-empty."""
    conn = await asyncpg.connect(dsn)
    try:
        return await missing_versions(conn, directory=directory)
    finally:
        await conn.close()


async def _lock(conn: asyncpg.Connection, timeout_s: float) -> None:
    # lock_timeout bounds the wait for another runner; reset so it never applies to the DDL.
    await conn.execute(f"SET lock_timeout = {max(1, int(timeout_s * 1000))}")
    try:
        await conn.execute("SELECT pg_advisory_lock($1)", LOCK_KEY)
    except asyncpg.LockNotAvailableError:
        raise MigrationError(
            f"another process has held the migration lock for over {timeout_s:g} s; "
            "is a migration stuck? (see pg_locks where locktype = 'advisory')"
        ) from None
    finally:
        await conn.execute("RESET lock_timeout")


async def _has_version_table(conn: Connection) -> bool:
    exists: bool = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    return exists


async def _applied(conn: Connection) -> dict[str, str]:
    rows = await conn.fetch("SELECT version, checksum FROM schema_migrations")
    return {row["version"]: row["checksum"] for row in rows}


def _check_checksums(migrations: list[Migration], applied: dict[str, str]) -> None:
    changed = [
        m.version for m in migrations if m.version in applied and applied[m.version] != m.checksum
    ]
    if changed:
        raise MigrationError(
            f"applied migration(s) {', '.join(changed)} changed since they ran; an applied file "
            "must never be edited: restore it and put the change in a new numbered file"
        )


async def _apply_one(conn: asyncpg.Connection, migration: Migration) -> None:
    try:
        async with conn.transaction():
            await conn.execute(migration.sql)
            await conn.execute(
                "INSERT INTO schema_migrations (version, checksum) VALUES ($1, $2)",
                migration.version,
                migration.checksum,
            )
    except asyncpg.PostgresError as exc:
        raise MigrationError(
            f"migration {migration.version} failed and was rolled back: {type(exc).__name__}: {exc}"
        ) from exc


async def ensure_database(dsn: str) -> bool:
    """Create the database named in ``dsn`` if it does not exist (connecting to ``postgres``).

    Returns True when it was created. Used by ``twin migrate`` so a new user needs no psql step.
    """
    try:
        conn = await asyncpg.connect(dsn)
    except asyncpg.InvalidCatalogNameError:
        pass
    else:
        await conn.close()
        return False
    parts = urlsplit(dsn)
    name = parts.path.lstrip("/")
    if not re.fullmatch(r"[A-Za-z0-9_]+", name):
        raise MigrationError(f"database {name!r} does not exist; create it first")
    admin = await asyncpg.connect(urlunsplit(parts._replace(path="/postgres")))
    try:
        with contextlib.suppress(asyncpg.DuplicateDatabaseError):
            await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return True
