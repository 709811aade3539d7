"""Redis working memory against a real Redis: one round trip, TTLs, key safety."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import redis.asyncio as aioredis

from contracts.slots import Affect, AffectSlot, SessionState, Turn
from services.core.working_memory import WorkingMemory, affect_key, session_key


@pytest.fixture
async def redis(redis_url: str):
    client = aioredis.Redis.from_url(redis_url)
    yield client
    await client.aclose()


@pytest.fixture
def memory(redis: aioredis.Redis) -> WorkingMemory:
    return WorkingMemory(redis, affect_ttl_s=1800, session_ttl_s=86_400)


def _affect(user_id: str, chat_id: str = "tg:1") -> AffectSlot:
    now = datetime(2026, 1, 3, 1, 1, 50, tzinfo=UTC)
    return AffectSlot(
        user_id=user_id,
        agent_id="deanna",
        chat_id=chat_id,
        ts=now,
        affect=Affect(label="stressed", confidence=0.85, decay_at=now + timedelta(minutes=30)),
    )


async def test_save_then_load_both_blobs(memory: WorkingMemory, user_id: str) -> None:
    session = SessionState(
        user_id=user_id,
        agent_id="deanna",
        chat_id="tg:1",
        msg_count=3,
        turns=[Turn(role="user", text="hi")],
    )
    await memory.save(session, _affect(user_id))
    loaded_session, loaded_affect = await memory.load(user_id, "deanna", "tg:1")
    assert loaded_session == session
    assert loaded_affect == _affect(user_id)


async def test_missing_keys_read_as_none(memory: WorkingMemory, user_id: str) -> None:
    assert await memory.load(user_id, "deanna", "tg:1") == (None, None)


async def test_affect_expires_and_session_lasts(memory: WorkingMemory, redis, user_id: str) -> None:
    await memory.save(
        SessionState(user_id=user_id, agent_id="deanna", chat_id="tg:1"), _affect(user_id)
    )
    affect_ttl = await redis.ttl(affect_key(user_id, "deanna", "tg:1"))
    session_ttl = await redis.ttl(session_key(user_id, "deanna", "tg:1"))
    assert 0 < affect_ttl <= 1800 < session_ttl


async def test_a_corrupt_blob_reads_as_missing(memory: WorkingMemory, redis, user_id: str) -> None:
    await redis.set(session_key(user_id, "deanna", "tg:1"), b"{not json")
    assert await memory.load_session(user_id, "deanna", "tg:1") is None


def test_ids_with_separators_cannot_collide() -> None:
    assert session_key("a:b", "c", "d") != session_key("a", "b:c", "d")
    assert "*" not in session_key("u*", "a?", "[c]")


async def test_delete_all_touches_only_that_user(memory: WorkingMemory, user_id: str) -> None:
    other = user_id + "-other"
    prefix_twin = user_id[:-1]  # a user whose id is a prefix of this one's
    for uid in (user_id, other, prefix_twin):
        await memory.save(
            SessionState(user_id=uid, agent_id="deanna", chat_id="tg:1"), _affect(uid)
        )
    assert await memory.delete_all(user_id) == 2
    assert await memory.load(user_id, "deanna", "tg:1") == (None, None)
    for uid in (other, prefix_twin):
        assert (await memory.load(uid, "deanna", "tg:1"))[0] is not None
