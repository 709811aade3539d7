"""A store that is down or held by another process answers 503 with Retry-After where a route
cannot do without it (issue 31 §3), and on ``/readyz``; the routes that degrade instead (a
pulse, a commit, knowledge, a retrieve) are tests/reliability/test_redis_down.py and
test_vectors_down.py; a full Postgres pool is test_pool_full.py. Real servers, really stopped."""

from __future__ import annotations

from services.core.deps import Clients
from tests.reliability.helpers import assert_unavailable
from tests.reliability.servers import RedisServer, stopped
from tests.reliability.test_vectors_down import edge_taken  # noqa: F401 - a fixture

__all__ = ["edge_taken"]


async def test_a_forget_while_redis_is_down_answers_503_naming_redis(
    node, throwaway: Clients, redis_server: RedisServer, user_id: str
) -> None:
    """A forget must clear working memory too: with Redis down it is refused, to retry."""
    body = {"user_id": user_id, "scope": "global", "everything": True}
    async with node("memory-upserter", throwaway) as client:
        with stopped(redis_server):
            answer = await client.post("/v1/forget", json=body)
            assert_unavailable(answer, "redis")
            ready = await client.get("/readyz")
            assert ready.status_code == 503 and int(ready.headers["retry-after"]) > 0
        assert (await client.post("/v1/forget", json=body)).status_code == 200


async def test_an_edge_shard_another_process_holds_makes_readyz_503_with_retry_after(
    node, edge_taken
) -> None:
    """The index busy elsewhere: writes degrade (stored, indexed later: test_vectors_down),
    and readiness tells a load balancer when to ask again."""
    res, _owner = edge_taken
    async with node("rag-gate", res) as client:
        ready = await client.get("/readyz")
        assert ready.status_code == 503, ready.text
        assert ready.json()["checks"]["vectors"].startswith("VectorIndexUnavailable")
        assert int(ready.headers["retry-after"]) > 0
