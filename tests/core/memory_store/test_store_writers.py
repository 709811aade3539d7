"""The shared memory store's writers (services.core.memory_store: users, entities, facts) against
the real Postgres."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta

import asyncpg
import pytest

from services.core.deps import Clients
from services.core.memory_store import (
    EntityWrite,
    FactWrite,
    apply_facts,
    ensure_user_and_agent,
    self_entity_id,
    upsert_entities,
    upsert_entity,
)

NOW = datetime(2026, 1, 7, 15, 0, tzinfo=UTC)


async def _entities(pool: asyncpg.Pool, user_id: str) -> list[dict]:
    async with pool.acquire() as conn:
        return [
            dict(r)
            for r in await conn.fetch(
                """SELECT e.name, e.category, e.entity_ref,
                      ARRAY(SELECT alias FROM entity_aliases a WHERE a.entity_id = e.entity_id
                            ORDER BY alias) AS aliases
                 FROM entities e WHERE user_id = $1 ORDER BY created_at, name""",
                user_id,
            )
        ]


async def test_the_users_own_entity_is_created_once_even_when_raced(
    pool: asyncpg.Pool, user_id: str
) -> None:
    async def one() -> uuid.UUID:
        async with pool.acquire() as conn, conn.transaction():
            return await self_entity_id(conn, user_id)

    ids = await asyncio.gather(*(one() for _ in range(5)))
    assert len(set(ids)) == 1
    assert await _entities(pool, user_id) == [
        {"name": "me", "category": "Person", "entity_ref": "self:user", "aliases": []}
    ]


async def test_an_alias_joins_its_entity_instead_of_making_a_twin(
    pool: asyncpg.Pool, user_id: str
) -> None:
    """000 "entity key variants": Makesh / Mukesh."""
    async with pool.acquire() as conn:
        makesh, created = await upsert_entity(
            conn, user_id, name="Makesh", category="Person", aliases=["Mukesh"], now=NOW
        )
        assert created
        again, created = await upsert_entity(
            conn, user_id, name="mukesh", category="Person", now=NOW
        )
        assert (again, created) == (makesh, False)
        raj, _ = await upsert_entity(conn, user_id, name="Raj", category="Person", now=NOW)
        (joined,) = await upsert_entities(
            conn, user_id, [EntityWrite("Rajesh", "Person", ("Raj",))], now=NOW
        )
    assert (joined.entity_id, joined.outcome) == (raj, "updated")
    assert await _entities(pool, user_id) == [
        {
            "name": "Makesh",
            "category": "Person",
            "entity_ref": "person:makesh",
            "aliases": ["Mukesh"],
        },
        {"name": "Raj", "category": "Person", "entity_ref": "person:raj", "aliases": ["Rajesh"]},
    ]


async def test_names_match_without_case_or_accents_and_within_one_batch(
    pool: asyncpg.Pool, user_id: str
) -> None:
    async with pool.acquire() as conn:
        first = await upsert_entities(
            conn,
            user_id,
            [EntityWrite("Márta", "Person"), EntityWrite("marta", "Person", ("Mar",))],
            now=NOW,
        )
        later = await upsert_entities(conn, user_id, [EntityWrite("MARTA", "Person")], now=NOW)
    assert first[0].entity_id == first[1].entity_id == later[0].entity_id
    assert [r.outcome for r in first] == ["created", "created"]
    assert later[0].outcome == "unchanged"
    assert (await _entities(pool, user_id))[0]["aliases"] == ["Mar"]  # marta = Márta


async def test_another_category_is_another_entity_and_refs_stay_unique(
    pool: asyncpg.Pool, user_id: str
) -> None:
    async with pool.acquire() as conn:
        await conn.execute(
            "INSERT INTO entities (user_id, name, category, entity_ref) "
            "VALUES ($1, 'Someone', 'Person', 'person:jordan')",
            user_id,
        )
        results = await upsert_entities(
            conn,
            user_id,
            [EntityWrite("Jordan", "Person"), EntityWrite("Jordan", "Location")],
            now=NOW,
        )
    # one name, two categories: the writes share the name, so they are one group (Person)
    assert results[0].entity_id == results[1].entity_id
    assert results[0].entity_ref == "person:jordan_2"
    async with pool.acquire() as conn:
        (place,) = await upsert_entities(
            conn, user_id, [EntityWrite("Jordan", "Location")], now=NOW
        )
    assert place.outcome == "created" and place.entity_ref == "place:jordan"


def _fact(
    user_me: uuid.UUID,
    obj: uuid.UUID | None = None,
    *,
    value: str | None = None,
    predicate: str = "LIVES_IN",
    key: str | None = None,
    **extra,
) -> FactWrite:
    return FactWrite(
        subject_entity_id=user_me,
        predicate=predicate,
        memory_type="PROFILE",
        text=extra.pop("text", f"{predicate} {obj or value}"),
        object_entity_id=obj,
        value=value,
        memory_key=key,
        **extra,
    )


async def test_a_contradiction_closes_the_old_fact_and_links_its_replacement(
    pool: asyncpg.Pool, user_id: str
) -> None:
    async with pool.acquire() as conn, conn.transaction():
        me = await self_entity_id(conn, user_id)
        lisbon, _ = await upsert_entity(conn, user_id, name="Lisbon", category="Location", now=NOW)
        porto, _ = await upsert_entity(conn, user_id, name="Porto", category="Location", now=NOW)
        (first,) = await apply_facts(conn, user_id, [_fact(me, lisbon)], now=NOW)
        (same,) = await apply_facts(conn, user_id, [_fact(me, lisbon)], now=NOW)
        later = NOW + timedelta(days=3)
        (moved,) = await apply_facts(conn, user_id, [_fact(me, porto)], now=later)
        rows = {
            r["rel_id"]: dict(r)
            for r in await conn.fetch(
                "SELECT rel_id, status, valid_to, superseded_by, memory_key, reference_count "
                "FROM relations WHERE user_id = $1",
                user_id,
            )
        }
    assert first.outcome == "created" and same.outcome == "unchanged"
    assert same.rel_id == first.rel_id
    assert moved.outcome == "superseded_previous" and moved.replaced_id == first.rel_id
    old, new = rows[first.rel_id], rows[moved.rel_id]
    assert (old["status"], old["valid_to"], old["superseded_by"]) == (
        "SUPERSEDED",
        later,
        moved.rel_id,
    )
    assert old["reference_count"] == 2 and new["status"] == "ACTIVE"
    assert old["memory_key"] == new["memory_key"] == "profile|person|self|fact|lives_in"


async def test_multi_valued_facts_accumulate_and_scopes_keep_apart(
    pool: asyncpg.Pool, user_id: str
) -> None:
    async with pool.acquire() as conn, conn.transaction():
        me = await self_entity_id(conn, user_id)
        results = await apply_facts(
            conn,
            user_id,
            [
                _fact(me, value="peanuts", predicate="ALLERGY"),
                _fact(me, value="shellfish", predicate="allergic_to"),
                _fact(me, value="keto", predicate="DIET"),
                _fact(me, value="vegan", predicate="DIET", scope="agent", agent_id="deanna"),
            ],
            now=NOW,
        )
        live = await conn.fetchval(
            "SELECT count(*) FROM relations WHERE user_id = $1 AND status = 'ACTIVE'", user_id
        )
    assert [r.outcome for r in results] == ["created"] * 4 and live == 4


async def test_two_turns_racing_on_one_key_both_land_without_an_error(
    pool: asyncpg.Pool, user_id: str
) -> None:
    async with pool.acquire() as conn:
        me = await self_entity_id(conn, user_id)

    async def say(city: str) -> str:
        async with pool.acquire() as conn, conn.transaction():
            place, _ = await upsert_entity(conn, user_id, name=city, category="Location", now=NOW)
            (result,) = await apply_facts(conn, user_id, [_fact(me, place)], now=NOW)
            return result.outcome

    outcomes = await asyncio.gather(say("Lisbon"), say("Porto"), say("Lisbon"), say("Porto"))
    assert outcomes.count("created") == 1 and "superseded_previous" in outcomes
    async with pool.acquire() as conn:
        statuses = [
            r[0]
            for r in await conn.fetch("SELECT status FROM relations WHERE user_id = $1", user_id)
        ]
        places = await conn.fetchval(
            "SELECT count(*) FROM entities WHERE user_id = $1 AND category = 'Location'", user_id
        )
    assert statuses.count("ACTIVE") == 1 and places == 2


async def test_a_key_is_computed_when_the_writer_gives_none(
    pool: asyncpg.Pool, user_id: str
) -> None:
    async with pool.acquire() as conn, conn.transaction():
        me = await self_entity_id(conn, user_id)
        marta, _ = await upsert_entity(conn, user_id, name="Marta", category="Person", now=NOW)
        await apply_facts(
            conn,
            user_id,
            [
                FactWrite(
                    me, "values", "Values honesty", "PSYCHE", fact_type="value", source="reflection"
                ),
                FactWrite(
                    marta,
                    "has_brother",
                    "Marta has a brother",
                    "PEOPLE",
                    fact_type="relationship",
                    object_entity_id=me,
                ),
            ],
            now=NOW,
        )
        keys = {
            r[0]
            for r in await conn.fetch(
                "SELECT memory_key FROM relations WHERE user_id = $1", user_id
            )
        }
    assert keys == {
        "psyche|person|self|value|values|v:values_honesty",
        "people|person|marta|relationship|has_brother|self",
    }


async def test_facts_can_only_name_the_writers_own_entities(
    pool: asyncpg.Pool, user_id: str, resources: Clients
) -> None:
    other = user_id + "-b"
    async with pool.acquire() as conn:
        await ensure_user_and_agent(conn, other, "deanna")
        theirs, _ = await upsert_entity(conn, other, name="Marta", category="Person", now=NOW)
        me = await self_entity_id(conn, user_id)
        with pytest.raises(ValueError, match="does not have|the user does not have"):
            await apply_facts(
                conn,
                user_id,
                [FactWrite(me, "KNOWS", "x", "PEOPLE", object_entity_id=theirs)],
                now=NOW,
            )
        assert (
            await conn.fetchval("SELECT count(*) FROM relations WHERE user_id = $1", user_id) == 0
        )
