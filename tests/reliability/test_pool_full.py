"""A full Postgres pool answers 503 with Retry-After within the acquire timeout, never a hang
(issue 31 §3: twelve clients that stopped reading a large export held every connection, and a
commit waited 56.6 s). Real connections of a real pool are held here, not a mock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack

import msgspec
import pytest

from services.core.deps import STORES, Clients
from services.core.settings import Settings
from tests.reliability.helpers import assert_unavailable, commit_body, hydrate_body

POOL = 2


@pytest.fixture
async def small_pool(throwaway_settings: Settings) -> AsyncIterator[Clients]:
    settings = msgspec.structs.replace(
        throwaway_settings, pg_pool_max=POOL, pg_acquire_timeout_s=0.3
    )
    res = await Clients.open(settings, STORES)
    yield res
    await res.close()


async def test_a_request_finding_every_connection_taken_answers_503_naming_postgres(
    node, small_pool: Clients, user_id: str
) -> None:
    async with AsyncExitStack() as held:
        for _ in range(POOL):  # clients that stopped reading, each holding a connection
            await held.enter_async_context(small_pool.db.acquire())
        async with node("memory-upserter", small_pool) as upserter:
            problem = assert_unavailable(
                await upserter.post("/v1/commit", json=commit_body(user_id, "Anyone home?")),
                "postgres",
            )
        assert "pool exhausted" in problem["detail"], problem
        async with node("graph-hydrator", small_pool) as hydrator:
            assert_unavailable(
                await hydrator.post("/v1/hydrate", json=hydrate_body(user_id)), "postgres"
            )

    async with node("memory-upserter", small_pool) as upserter:  # the same pool, released
        again = await upserter.post("/v1/commit", json=commit_body(user_id, "Anyone home?"))
        assert again.status_code == 200, again.text
