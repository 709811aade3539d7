"""The memory store against the real Postgres and the test vector index: facts carry time (a
fact that starts later keeps the old one current until then; an ended fact holds no key), a
restatement merges provenance, and the ``facts`` index follows the rows and skips what it
reflects already."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import asyncpg

from services.core.deps import Clients
from services.core.memory_store import (
    FactWrite,
    apply_facts,
    self_entity_id,
    sync_fact_vectors,
    upsert_entity,
)

NOW = datetime(2026, 2, 9, 10, 0, tzinfo=UTC)


async def _rows(conn: asyncpg.Connection, user_id: str) -> dict[object, dict]:
    return {
        r["rel_id"]: dict(r)
        for r in await conn.fetch(
            "SELECT rel_id, status, valid_from, valid_to, memory_key, provenance_message_ids, "
            "indexed_at FROM relations WHERE user_id = $1",
            user_id,
        )
    }


async def test_a_fact_starting_later_keeps_the_old_one_current_until_it_starts(
    pool: asyncpg.Pool, user_id: str
) -> None:
    starts = NOW + timedelta(days=5)
    async with pool.acquire() as conn, conn.transaction():
        me = await self_entity_id(conn, user_id)
        acme, _ = await upsert_entity(conn, user_id, name="Acme", category="Org", now=NOW)
        globex, _ = await upsert_entity(conn, user_id, name="Globex", category="Org", now=NOW)
        (old,) = await apply_facts(
            conn,
            user_id,
            [FactWrite(me, "WORKS_AT", "Works at Acme", "PROFILE", object_entity_id=acme)],
            now=NOW,
        )
        (new,) = await apply_facts(
            conn,
            user_id,
            [
                FactWrite(
                    me,
                    "WORKS_AT",
                    "Works at Globex from next week",
                    "PROFILE",
                    object_entity_id=globex,
                    valid_from=starts,
                )
            ],
            now=NOW + timedelta(hours=1),
        )
        rows = await _rows(conn, user_id)
    assert new.outcome == "created" and new.replaced_id == old.rel_id
    kept, coming = rows[old.rel_id], rows[new.rel_id]
    assert (kept["status"], kept["valid_to"], kept["memory_key"]) == ("ACTIVE", starts, None)
    assert coming["valid_from"] == starts
    assert coming["memory_key"] == "profile|person|self|fact|works_at"


async def test_an_ended_fact_is_history_and_holds_no_key(pool: asyncpg.Pool, user_id: str) -> None:
    async with pool.acquire() as conn, conn.transaction():
        me = await self_entity_id(conn, user_id)
        ended = FactWrite(
            me,
            "LIVES_IN",
            "Lived in Rome until last year",
            "PROFILE",
            value="Rome",
            valid_to=NOW - timedelta(days=200),
        )
        (result,) = await apply_facts(conn, user_id, [ended], now=NOW)
        rows = await _rows(conn, user_id)
    assert result.outcome == "ended"
    assert rows[result.rel_id]["memory_key"] is None


async def test_a_fact_said_again_after_its_end_is_a_new_row_and_the_old_stays_history(
    pool: asyncpg.Pool, user_id: str
) -> None:
    """On call "till friday", then on call again the next week: the expired row is closed as
    history and a new row opens — in the same transaction, never a unique-key clash (the
    identity is unique among ACTIVE rows)."""
    on_call = NOW + timedelta(days=2)
    async with pool.acquire() as conn, conn.transaction():
        me = await self_entity_id(conn, user_id)

        def said(**time: datetime) -> FactWrite:
            return FactWrite(me, "STATUS", "User is on call", "PROFILE", value="on call", **time)

        (first,) = await apply_facts(conn, user_id, [said(valid_to=on_call)], now=NOW)
        later = NOW + timedelta(days=7)
        (again,) = await apply_facts(conn, user_id, [said()], now=later)
        rows = await _rows(conn, user_id)
    assert again.outcome == "created" and again.rel_id != first.rel_id
    assert rows[first.rel_id]["status"] != "ACTIVE"
    assert rows[first.rel_id]["valid_to"] == on_call


async def test_a_restatement_merges_provenance_and_the_index_skips_what_it_reflects(
    resources: Clients, pool: asyncpg.Pool, user_id: str
) -> None:
    async with pool.acquire() as conn, conn.transaction():
        me = await self_entity_id(conn, user_id)
        first = FactWrite(
            me, "ALLERGY", "Allergic to peanuts", "PROFILE", value="peanuts", message_ids=["a"]
        )
        (written,) = await apply_facts(conn, user_id, [first], now=NOW)
    vectors, embedder = resources.vectors, resources.embedder
    assert await sync_fact_vectors(pool, vectors, embedder, user_id, [written.rel_id]) is None
    async with pool.acquire() as conn:
        indexed = (await _rows(conn, user_id))[written.rel_id]["indexed_at"]
    assert indexed is not None
    again = FactWrite(
        me, "ALLERGY", "Allergic to peanuts", "PROFILE", value="peanuts", message_ids=["b"]
    )
    async with pool.acquire() as conn, conn.transaction():
        (restated,) = await apply_facts(conn, user_id, [again], now=NOW + timedelta(days=1))
    assert await sync_fact_vectors(pool, vectors, embedder, user_id, [restated.rel_id]) is None
    async with pool.acquire() as conn:
        row = (await _rows(conn, user_id))[written.rel_id]
    assert restated.rel_id == written.rel_id and restated.outcome == "unchanged"
    assert [str(m) for m in row["provenance_message_ids"]] == ["a", "b"]
    assert row["indexed_at"] == indexed  # unchanged: not embedded again
