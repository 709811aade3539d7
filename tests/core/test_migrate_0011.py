"""Migration 0011 re-keys the facts written before it: one predicate is one key whatever memory
type or fact type it was filed under, and two live rows the old keys had split are one key
again, the one that began last holding it."""

from __future__ import annotations

import shutil
import uuid
from datetime import UTC, datetime
from pathlib import Path

import asyncpg

from services.core.migrate import MIGRATIONS_DIR, apply_migrations
from tests.core.test_migrate import NewDatabase, _fact, new_database  # noqa: F401 - fixture

T0 = datetime(2026, 11, 1, tzinfo=UTC)
T1 = datetime(2026, 11, 20, tzinfo=UTC)


async def test_0011_rekeys_facts_and_closes_the_job_an_old_key_kept_apart(
    new_database: NewDatabase,  # noqa: F811 - the fixture imported above
    tmp_path: Path,
) -> None:
    for path in sorted(MIGRATIONS_DIR.glob("*.sql")):
        if path.stem < "0011":
            shutil.copy(path, tmp_path)
    dsn = await new_database()
    await apply_migrations(dsn, directory=tmp_path)
    conn = await asyncpg.connect(dsn)
    try:
        user = f"u-{uuid.uuid4().hex[:10]}"
        await conn.execute("INSERT INTO users (user_id) VALUES ($1)", user)
        me = await conn.fetchval(
            "INSERT INTO entities (user_id, name, category, entity_ref) "
            "VALUES ($1, 'me', 'Person', 'self:user') RETURNING entity_id",
            user,
        )
        job = {"predicate": "WORKS_AT", "valid_from": T0}
        acme = await _fact(
            conn, user, me, **job, memory_type="PROJECT", text="User works at Acme",
            object_value='"Acme"', memory_key="project|person|self|fact|works_at",
        )  # fmt: skip
        globex = await _fact(
            conn, user, me, **job | {"valid_from": T1}, memory_type="PROFILE",
            text="User works at Globex", object_value='"Globex"',
            memory_key="profile|person|self|relationship|works_at",
        )  # fmt: skip
        guess = await _fact(conn, user, me, predicate="VALUES", memory_type="PSYCHE",
                            fact_type="value", text="Values honesty", object_value='"honesty"',
                            memory_key="psyche|person|self|value|values|v:honesty")  # fmt: skip
        shutil.copy(MIGRATIONS_DIR / "0011_one_key_per_predicate.sql", tmp_path)
        assert await apply_migrations(dsn, directory=tmp_path) == ["0011_one_key_per_predicate"]
        rows = {
            r["rel_id"]: r
            for r in await conn.fetch(
                "SELECT rel_id, status, memory_key, valid_to, superseded_by FROM relations"
            )
        }
        assert [rows[acme]["status"], rows[acme]["valid_to"], rows[acme]["superseded_by"]] == [
            "SUPERSEDED", T1, globex
        ]  # fmt: skip
        assert [rows[globex]["status"], rows[globex]["memory_key"]] == [
            "ACTIVE", "fact|person|self|works_at"
        ]  # fmt: skip
        assert rows[acme]["memory_key"] == "fact|person|self|works_at"
        assert rows[guess]["memory_key"] == "psyche|person|self|values|v:honesty"
    finally:
        await conn.close()
