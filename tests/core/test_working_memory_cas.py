"""Working memory's compare-and-set against a real Redis: one read, one conditional write."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import redis.asyncio as aioredis

from contracts.slots import Affect, AffectSlot, SessionState, Turn
from services.core.working_memory import WorkingMemory, affect_key, session_key

SESSION_TTL_S = 86_400

NOW = datetime(2026, 1, 3, 1, 1, 50, tzinfo=UTC)


@pytest.fixture
async def redis(redis_url: str):
    client = aioredis.Redis.from_url(redis_url)
    yield client
    await client.aclose()


class Store:
    """The snapshot / save-if-unchanged pair, raising on a refused save to keep tests terse."""

    def __init__(self, memory: WorkingMemory) -> None:
        self.memory = memory

    async def load(self, *ids):
        return await self.memory.snapshot(*ids)

    async def save(self, seen, session, affect) -> None:
        if not await self.memory.save_if_unchanged(seen, session, affect):
            raise Refused


class Refused(Exception):
    pass


@pytest.fixture
def store(redis: aioredis.Redis) -> Store:
    return Store(WorkingMemory(redis, affect_ttl_s=1800, session_ttl_s=SESSION_TTL_S))


def _session(user_id: str, msg_count: int = 1, **fields) -> SessionState:
    return SessionState(
        user_id=user_id, agent_id="deanna", chat_id="tg:1", msg_count=msg_count, **fields
    )


def _affect(user_id: str, label: str = "stressed") -> AffectSlot:
    return AffectSlot(
        user_id=user_id,
        agent_id="deanna",
        chat_id="tg:1",
        ts=NOW,
        affect=Affect(label=label, confidence=0.85, decay_at=NOW + timedelta(minutes=30)),
    )


async def test_an_unknown_conversation_loads_as_two_missing_blobs(
    store: Store, user_id: str
) -> None:
    seen = await store.load(user_id, "deanna", "tg:1")
    assert (seen.session, seen.affect) == (None, None)


async def test_save_then_load_round_trips_both_blobs(store: Store, user_id: str) -> None:
    session = _session(user_id, turns=[Turn(role="user", text="hi")])
    await store.save(await store.load(user_id, "deanna", "tg:1"), session, _affect(user_id))
    seen = await store.load(user_id, "deanna", "tg:1")
    assert (seen.session, seen.affect) == (session, _affect(user_id))


async def test_the_store_reads_what_working_memory_wrote_and_the_reverse(
    store: Store, redis: aioredis.Redis, user_id: str
) -> None:
    memory = WorkingMemory(redis, affect_ttl_s=1800, session_ttl_s=SESSION_TTL_S)
    await memory.save(_session(user_id, 4), _affect(user_id))
    seen = await store.load(user_id, "deanna", "tg:1")
    assert seen.session == _session(user_id, 4)
    await store.save(seen, _session(user_id, 5), _affect(user_id, "calm"))
    session, affect = await memory.load(user_id, "deanna", "tg:1")
    assert session.msg_count == 5 and affect.affect.label == "calm"


async def test_saving_sets_the_affect_ttl_and_a_day_for_the_session(
    store: Store, redis: aioredis.Redis, user_id: str
) -> None:
    await store.save(
        await store.load(user_id, "deanna", "tg:1"), _session(user_id), _affect(user_id)
    )
    assert 0 < await redis.ttl(affect_key(user_id, "deanna", "tg:1")) <= 1800
    assert 1800 < await redis.ttl(session_key(user_id, "deanna", "tg:1")) <= SESSION_TTL_S


async def test_a_write_in_between_makes_the_save_refuse_and_keeps_the_other_write(
    store: Store, redis: aioredis.Redis, user_id: str
) -> None:
    await store.save(
        await store.load(user_id, "deanna", "tg:1"), _session(user_id, 1), _affect(user_id)
    )
    seen = await store.load(user_id, "deanna", "tg:1")
    other = WorkingMemory(redis, affect_ttl_s=1800, session_ttl_s=SESSION_TTL_S)
    appended = _session(user_id, 1, turns=[Turn(role="user", text="kept")])
    await other.save(session=appended)  # e.g. memory-upserter appending a turn
    with pytest.raises(Refused):
        await store.save(seen, _session(user_id, 2), _affect(user_id))
    assert (await store.load(user_id, "deanna", "tg:1")).session == appended


async def test_a_conversation_created_in_between_also_refuses_the_save(
    store: Store, user_id: str
) -> None:
    first = await store.load(user_id, "deanna", "tg:1")
    second = await store.load(user_id, "deanna", "tg:1")
    await store.save(first, _session(user_id, 1), _affect(user_id))
    with pytest.raises(Refused):
        await store.save(second, _session(user_id, 1), _affect(user_id, "calm"))


async def test_an_expired_affect_reads_as_missing_and_the_session_survives(
    store: Store, redis: aioredis.Redis, user_id: str
) -> None:
    await store.save(
        await store.load(user_id, "deanna", "tg:1"), _session(user_id, 3), _affect(user_id)
    )
    await redis.delete(affect_key(user_id, "deanna", "tg:1"))  # what the TTL does
    seen = await store.load(user_id, "deanna", "tg:1")
    assert seen.affect is None and seen.session.msg_count == 3
    await store.save(seen, _session(user_id, 4), _affect(user_id, "neutral"))


async def test_a_corrupt_blob_reads_as_missing_and_is_overwritten(
    store: Store, redis: aioredis.Redis, user_id: str
) -> None:
    await redis.set(affect_key(user_id, "deanna", "tg:1"), b"{not json")
    seen = await store.load(user_id, "deanna", "tg:1")
    assert seen.affect is None
    await store.save(seen, _session(user_id), _affect(user_id))
    assert (await store.load(user_id, "deanna", "tg:1")).affect == _affect(user_id)


async def test_saving_another_conversation_than_the_one_loaded_is_a_bug(
    store: Store, user_id: str
) -> None:
    seen = await store.load(user_id, "deanna", "tg:1")
    with pytest.raises(ValueError):
        await store.save(seen, _session("someone-else"), _affect(user_id))


async def test_update_recomputes_after_a_concurrent_write(
    store: Store, redis: aioredis.Redis, user_id: str
) -> None:
    memory = store.memory
    calls = []

    def compute(seen):
        calls.append(seen.session.msg_count if seen.session else 0)
        if len(calls) == 1:  # another writer lands between this read and its write
            return _session(user_id, 99), None, "first"
        count = seen.session.msg_count if seen.session else 0
        return _session(user_id, count + 1), None, "second"

    await memory.save(session=_session(user_id, 1))
    original = memory.save_if_unchanged

    async def racing_save(seen, session, affect):
        if len(calls) == 1:
            await memory.save(session=_session(user_id, 5))
        return await original(seen, session, affect)

    memory.save_if_unchanged = racing_save
    assert await memory.update(user_id, "deanna", "tg:1", compute) == "second"
    assert calls == [1, 5]
    assert (await memory.load_session(user_id, "deanna", "tg:1")).msg_count == 6
