"""Redis really stopped: working memory is lost, nothing durable is, and nodes come back alone."""

from __future__ import annotations

import msgspec

from services.core.deps import Clients
from services.core.settings import Settings
from tests.reliability.helpers import (
    commit_body,
    later,
    pulse_body,
    rows,
)
from tests.reliability.servers import DelayProxy, RedisServer, stopped


async def test_pulse_goes_on_degraded_while_redis_is_down_and_recovers_by_itself(
    node, throwaway: Clients, redis_server: RedisServer, user_id: str
) -> None:
    """Affect is volatile: with Redis stopped the turn gets a neutral AFFECT flagged
    ``degraded`` (200, so the flow goes on), and nothing is counted or saved."""
    async with node("pulse-decay", throwaway) as client:
        assert (await client.post("/v1/pulse", json=pulse_body(user_id))).status_code == 200
        with stopped(redis_server):
            down = await client.post("/v1/pulse", json=pulse_body(user_id, "I'm furious"))
            assert down.status_code == 200, down.text
            answer = down.json()
            assert answer["degraded"] is True
            assert answer["AFFECT"]["affect"]["label"] == "furious"  # this turn's own words
            assert answer["session"]["msg_count"] == 1 and answer["session"]["turns"] == []
            ready = await client.get("/readyz")
            assert ready.status_code == 503
            assert ready.headers["x-unready"] == "redis"
        back = await client.post("/v1/pulse", json=pulse_body(user_id, "and now?"))
        assert back.status_code == 200, back.text
        assert back.json()["degraded"] is False
        assert (await client.get("/readyz")).status_code == 200
        # the restarted Redis kept nothing (no persistence): the count starts again
        assert back.json()["session"]["msg_count"] == 1


async def test_a_commit_while_redis_is_down_is_saved_and_says_working_memory_missed_it(
    node, throwaway: Clients, redis_server: RedisServer, user_id: str
) -> None:
    async with node("memory-upserter", throwaway) as client:
        with stopped(redis_server):
            answer = await client.post("/v1/commit", json=commit_body(user_id, "Hello there."))
            assert answer.status_code == 200, answer.text
            codes = [w["code"] for w in answer.json()["warnings"]]
            assert "working_memory_not_updated" in codes
        after = await client.post(
            "/v1/commit", json=commit_body(user_id, "Back again.", at=later(1))
        )
        assert after.status_code == 200, after.text
        assert "working_memory_not_updated" not in [w["code"] for w in after.json()["warnings"]]
    logged = await rows(
        throwaway, "SELECT text FROM messages WHERE user_id = $1 ORDER BY seq", user_id
    )
    assert [r["text"] for r in logged] == ["Hello there.", "Noted.", "Back again.", "Noted."]
    session = await throwaway.memory.load_session(user_id, "deanna", "tg:rel")
    assert session is not None and [t.text for t in session.turns][-2:] == ["Back again.", "Noted."]


async def test_reflection_writer_needs_no_redis(
    node, throwaway: Clients, redis_server: RedisServer
) -> None:
    async with node("reflection-writer", throwaway) as client:
        with stopped(redis_server):
            assert (await client.get("/readyz")).status_code == 200
            answer = await client.post("/v1/consolidate", json={"user_id": "r-nobody"})
            assert answer.status_code == 200, answer.text


async def test_a_stalled_redis_gives_a_degraded_pulse_within_its_timeout_then_recovers(
    node, throwaway_settings: Settings, redis_server: RedisServer, user_id: str
) -> None:
    proxy = DelayProxy(redis_server.port)
    proxy.start()
    settings = msgspec.structs.replace(
        throwaway_settings, redis_url=f"redis://127.0.0.1:{proxy.port}/0"
    )
    res = await Clients.open(settings, {"redis"})
    try:
        async with node("pulse-decay", res) as client:
            assert (await client.post("/v1/pulse", json=pulse_body(user_id))).status_code == 200
            proxy.delay_s = 4 * settings.redis_timeout_s
            try:
                stalled = await client.post("/v1/pulse", json=pulse_body(user_id))
                assert stalled.status_code == 200, stalled.text
                assert stalled.json()["degraded"] is True
            finally:
                proxy.delay_s = 0.0
            back = await client.post("/v1/pulse", json=pulse_body(user_id, "and now?"))
            assert back.status_code == 200, back.text
            # the stalled turn wrote nothing, and no late reply was taken for this one's
            assert back.json()["session"]["msg_count"] == 2
    finally:
        await res.close()
        proxy.stop()
