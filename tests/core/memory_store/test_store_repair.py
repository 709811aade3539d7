"""The memory store's lock and its repair paths, against the real Postgres and the test vector
index: :func:`lock_user` holds the user's writer lock until the transaction ends; a fact saved
while its index was unreachable stays unindexed, :func:`unindexed_facts` finds it and
:func:`sync_fact_vectors` writes it once the index is back (a fact closed since goes inactive
in the index); an episode committed without its vector is written by
:func:`reindex_episodes`, once."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import asyncpg

from services.core.deps import Clients
from services.core.memory_store import (
    FACTS,
    FactWrite,
    apply_facts,
    lock_user,
    self_entity_id,
    sync_fact_vectors,
    unindexed_facts,
    upsert_entity,
)
from services.core.memory_store.episode_index import EpisodeRow, embedding_text, reindex_episodes
from services.core.memory_store.keys import user_lock_key
from services.reflection_writer.store import insert_episode

NOW = datetime(2026, 2, 9, 10, 0, tzinfo=UTC)


async def _taken(pool: asyncpg.Pool, user_id: str) -> bool:
    """Whether another session finds the user's writer lock taken (it tries, never waits)."""
    async with pool.acquire() as conn, conn.transaction():
        got = await conn.fetchval("SELECT pg_try_advisory_xact_lock($1)", user_lock_key(user_id))
    return not got


async def test_the_user_lock_is_held_until_the_transaction_ends_and_is_per_user(
    pool: asyncpg.Pool, user_id: str
) -> None:
    async with pool.acquire() as conn:
        async with conn.transaction():
            await lock_user(conn, user_id)
            assert await _taken(pool, user_id)
            assert not await _taken(pool, user_id + "-other")
        assert not await _taken(pool, user_id)


async def _lives_in(conn: asyncpg.Connection, user_id: str, city: str) -> uuid.UUID:
    me = await self_entity_id(conn, user_id)
    place, _ = await upsert_entity(conn, user_id, name=city, category="Location", now=NOW)
    (made,) = await apply_facts(
        conn,
        user_id,
        [FactWrite(me, "LIVES_IN", f"Lives in {city}", "PROFILE", object_entity_id=place)],
        now=NOW,
    )
    return made.rel_id


async def test_a_fact_saved_while_the_index_was_away_is_found_and_indexed_later(
    resources: Clients, pool: asyncpg.Pool, user_id: str
) -> None:
    async with pool.acquire() as conn, conn.transaction():
        lisbon = await _lives_in(conn, user_id, "Lisbon")
    warning = await sync_fact_vectors(pool, None, None, user_id, [lisbon])
    assert warning is not None and "unindexed" in warning
    async with pool.acquire() as conn:
        assert await unindexed_facts(conn, user_id, 10) == {user_id: [lisbon]}
    vectors, embedder = resources.vectors, resources.embedder
    assert await sync_fact_vectors(pool, vectors, embedder, user_id, [lisbon]) is None
    assert await resources.vectors.count(FACTS, user_id=user_id) == 1
    async with pool.acquire() as conn:
        assert await unindexed_facts(conn, user_id, 10) == {}
        porto = await _lives_in(conn, user_id, "Porto")  # closes Lisbon: both rows change
    changed = [lisbon, porto]
    warning = await sync_fact_vectors(pool, resources.vectors, resources.embedder, user_id, changed)
    assert warning is None
    hits = await resources.vectors.search(
        FACTS, user_id=user_id, text="lives", include_inactive=True, limit=5, payload=["active"]
    )
    assert {h.id: h.payload["active"] for h in hits} == {str(lisbon): False, str(porto): True}


async def test_an_episode_committed_without_its_vector_is_indexed_once_by_the_repair(
    resources: Clients, pool: asyncpg.Pool, user_id: str
) -> None:
    row = EpisodeRow(
        episode_id=str(uuid.uuid4()),
        user_id=user_id,
        agent_id="deanna",
        chat_id="tg:1",
        session_id=None,  # type: ignore[arg-type]  # an episode of no session (an import)
        ts=NOW,
        day=NOW.date(),
        importance=0.5,
        reflection="Talked about the move to Porto.",
        reflection_json={},
        summary={"one_liner": "The move"},
        entity_ids=[],
        tags=[],
        first_message_seq=1,
        last_message_seq=4,
        provenance={"message_ids": []},
        previous_episode_id=None,
        text=embedding_text("The move", "Talked about the move to Porto."),
    )
    async with pool.acquire() as conn:
        assert await insert_episode(conn, row, NOW)
    db, embedder, vectors = resources.db, resources.embedder, resources.vectors
    later = NOW + timedelta(minutes=1)
    assert await reindex_episodes(db, embedder, vectors, user_id, later) == 1
    assert await vectors.count("episodes", user_id=user_id) == 1
    async with pool.acquire() as conn:
        stamped = await conn.fetchval(
            "SELECT indexed_at FROM episodes WHERE episode_id = $1::uuid", row.episode_id
        )
    assert stamped == later
    assert await reindex_episodes(db, embedder, vectors, user_id, later) == 0
