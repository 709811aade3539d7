"""Test fixtures: real Postgres, real Redis, a real Qdrant Edge shard — never mocks of them.

A database is created for the run (schema by the same migrations ``twin migrate`` applies) and
dropped at the end; Redis uses its own db index; Qdrant Edge lives in a temporary folder. Only
the model endpoint, which cannot be reached from here, is mocked (with respx) where needed.
Environment overrides: ``TWIN_TEST_PG_ADMIN`` (an admin DSN), ``TWIN_TEST_REDIS_URL``.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

import asyncpg
import httpx
import pytest
import redis.asyncio as aioredis
from litestar import Litestar

from services.core.migrate import apply_migrations
from services.core.resources import ALL_DEPENDENCIES, Resources
from services.core.settings import Settings

PG_ADMIN = os.environ.get("TWIN_TEST_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("TWIN_TEST_REDIS_URL", "redis://127.0.0.1:6379/13")


def _dsn_for(database: str) -> str:
    base, _, _ = PG_ADMIN.rpartition("/")
    return f"{base}/{database}"


@pytest.fixture(scope="session")
async def database_url() -> AsyncIterator[str]:
    name = f"twin_test_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(PG_ADMIN)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    dsn = _dsn_for(name)
    await apply_migrations(dsn)
    yield dsn
    admin = await asyncpg.connect(PG_ADMIN)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@pytest.fixture(scope="session")
async def redis_url() -> AsyncIterator[str]:
    """Redis db 13, shared by concurrent runs: never flushed; each test's keys are its users'."""
    client = aioredis.Redis.from_url(REDIS_URL)
    await client.ping()
    await client.aclose()
    yield REDIS_URL


@pytest.fixture(scope="session")
def settings(database_url: str, redis_url: str,
             tmp_path_factory: pytest.TempPathFactory) -> Settings:
    return Settings(
        database_url=database_url,
        redis_url=redis_url,
        qdrant_path=str(tmp_path_factory.mktemp("qdrant")),
        embedder="minilm",
        log_json=True,
        # a test reads the index right after a write: commit indexes before it answers
        # (the after-reply default has its own tests: tests/memory_upserter/test_index_after_reply.py)
        index_after_reply=False,
    )


@pytest.fixture(scope="session")
async def resources(settings: Settings) -> AsyncIterator[Resources]:
    """Every client, opened once for the whole run (as ``twin up`` does)."""
    res = await Resources.open(settings, ALL_DEPENDENCIES)
    yield res
    await res.close()


@pytest.fixture
def user_id() -> str:
    """A fresh user per test: tests never see each other's memory."""
    return f"u-{uuid.uuid4().hex[:12]}"


@asynccontextmanager
async def _lifespan(app: Litestar) -> AsyncIterator[None]:
    """Drive the ASGI lifespan protocol from a task of its own (so fixtures may span tasks)."""
    inbox: asyncio.Queue = asyncio.Queue()
    outbox: asyncio.Queue = asyncio.Queue()
    task = asyncio.create_task(app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}},
                                   inbox.get, outbox.put))
    await inbox.put({"type": "lifespan.startup"})
    started = await outbox.get()
    if started["type"] != "lifespan.startup.complete":
        await task
        raise RuntimeError(started.get("message", "startup failed"))
    try:
        yield
    finally:
        await inbox.put({"type": "lifespan.shutdown"})
        await outbox.get()
        await task


@asynccontextmanager
async def _open_app_client(app: Litestar) -> AsyncIterator[httpx.AsyncClient]:
    async with _lifespan(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield client


@pytest.fixture(scope="session")
def app_client() -> Callable[[Litestar], AbstractAsyncContextManager[httpx.AsyncClient]]:
    """``async with app_client(create_app(SPEC, settings, resources)) as client: ...``

    Runs the app in the test's own event loop (litestar's AsyncTestClient uses a separate
    thread and loop, where the shared pools of the ``resources`` fixture cannot be used).
    """
    return _open_app_client
