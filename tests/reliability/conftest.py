"""Fixtures for faults that really happen: dependency servers of this run's own, stopped and
started again by the tests, and a node stack wired to them.

One throwaway Redis and one throwaway Postgres cluster serve the whole folder (session scope);
a test that stops one starts it again before it ends (``servers.stopped``). The nodes under test
run in this process over a ``Clients`` opened once on these servers, exactly as ``twin up``
shares its clients; the shared Postgres (5432) and Redis (6379) are never touched here except
through the run's own test database.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager

import asyncpg
import httpx
import msgspec
import pytest

from services.core.app import create_app
from services.core.deps import STORES, Clients
from services.core.migrate import apply_migrations
from services.core.settings import Settings
from services.nodes import node_spec
from tests.reliability.servers import DelayProxy, PostgresServer, RedisServer

RETRY_AFTER_S = 3


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
async def pg_server() -> AsyncIterator[PostgresServer]:
    server = PostgresServer()
    await asyncio.to_thread(server.init)
    await asyncio.to_thread(server.start)
    admin = await asyncpg.connect(server.admin_url)
    try:
        await admin.execute('CREATE DATABASE "twin"')
    finally:
        await admin.close()
    await apply_migrations(server.url("twin"))
    yield server
    await asyncio.to_thread(server.remove)


def fault_settings(database_url: str, redis_url: str, qdrant_path: str, **extra) -> Settings:
    """Short timeouts, so a dead dependency answers within a second or two, never hangs."""
    return Settings(
        database_url=database_url,
        redis_url=redis_url,
        qdrant_path=qdrant_path,
        embedder="hashing",
        pg_timeout_s=2.0,
        redis_timeout_s=0.5,
        ready_timeout_s=0.5,
        retry_after_s=RETRY_AFTER_S,
        log_json=True,
        **{"index_sweep_s": 0, **extra},  # a test that sweeps says so
    )


@pytest.fixture(scope="session")
def throwaway_settings(
    pg_server: PostgresServer, redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> Settings:
    return fault_settings(
        pg_server.url("twin"), redis_server.url, str(tmp_path_factory.mktemp("qdrant-faults"))
    )


@pytest.fixture(scope="session")
async def throwaway(throwaway_settings: Settings) -> AsyncIterator[Clients]:
    """Every client over the throwaway servers, opened once (as ``twin up`` does)."""
    res = await Clients.open(throwaway_settings, STORES)
    yield res
    await res.close()


@pytest.fixture(scope="session")
def slow_pg(pg_server: PostgresServer) -> Iterator[DelayProxy]:
    """The throwaway Postgres behind a proxy; set ``delay_s`` to slow every byte down."""
    proxy = DelayProxy(pg_server.port)
    proxy.start()
    yield proxy
    proxy.stop()


@pytest.fixture(scope="session")
async def slow_resources(
    slow_pg: DelayProxy, redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Clients]:
    settings = fault_settings(
        f"postgresql://postgres@127.0.0.1:{slow_pg.port}/twin",
        redis_server.url,
        str(tmp_path_factory.mktemp("qdrant-slow")),
    )
    settings = msgspec.structs.replace(settings, pg_timeout_s=1.0)
    res = await Clients.open(settings, STORES)
    yield res
    await res.close()


NodeClient = Callable[[str, Clients], AbstractAsyncContextManager[httpx.AsyncClient]]


@pytest.fixture
def node(app_client) -> NodeClient:
    """``async with node("rag-gate", resources) as client``: the node's app over those clients."""

    @asynccontextmanager
    async def open_node(name: str, res: Clients) -> AsyncIterator[httpx.AsyncClient]:
        async with app_client(create_app(node_spec(name), res.settings, res)) as client:
            yield client

    return open_node
