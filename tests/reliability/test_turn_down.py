"""``/v1/turn`` with a store really down degrades as the four routes do: Redis stopped gives a
neutral AFFECT and the rest of the turn (and rag-gate stays ready, naming the turn degraded:
``/v1/retrieve`` never reads Redis); Postgres stopped is one 503 naming it, with a
Retry-After, and the turn answers again once Postgres is back, through the same pools."""

from __future__ import annotations

import asyncio

from services.core.deps import Clients
from tests.reliability.helpers import AGENT, CHAT, assert_unavailable, later
from tests.reliability.servers import PostgresServer, RedisServer, stopped


def turn_body(user_id: str, message: str = "How is my sister doing?") -> dict:
    return {
        "user_id": user_id,
        "agent_id": AGENT,
        "chat_id": CHAT,
        "message": message,
        "now": later(5).isoformat(),
    }


async def test_the_turn_goes_on_with_a_neutral_affect_while_redis_is_down(
    node, throwaway: Clients, redis_server: RedisServer, user_id: str
) -> None:
    async with node("rag-gate", throwaway) as client:
        with stopped(redis_server):
            down = await client.post("/v1/turn", json=turn_body(user_id, "I'm furious"))
            ready = await client.get("/readyz")
        assert ready.status_code == 200, ready.text
        assert ready.json()["status"] == "ready" and ready.json()["checks"]["redis"] != "ok"
        assert ready.json()["degraded"] == {"/v1/turn": ["redis"]}
        assert down.status_code == 200, down.text
        answer = down.json()
        assert answer["pulse"]["degraded"] is True and answer["next"] == "model"
        assert answer["envelope"]["messages"][-1]["content"] == "I'm furious"
        back = await client.post("/v1/turn", json=turn_body(user_id, "and now?"))
        assert back.status_code == 200 and back.json()["pulse"]["degraded"] is False
        assert (await client.get("/readyz")).json()["degraded"] == {}


async def test_the_turn_is_a_503_naming_postgres_during_a_crash_and_answers_after(
    node, throwaway: Clients, pg_server: PostgresServer, user_id: str
) -> None:
    async with node("rag-gate", throwaway) as client:
        await asyncio.to_thread(pg_server.stop, "immediate")
        try:
            assert_unavailable(await client.post("/v1/turn", json=turn_body(user_id)), "postgres")
        finally:
            await asyncio.to_thread(pg_server.start)
        again = await client.post("/v1/turn", json=turn_body(user_id))
        assert again.status_code == 200, again.text
        assert again.json()["next"] == "model"
