"""Test fixtures: real Postgres, real Redis, a real Qdrant Edge shard — never mocks of them.

A database is created for the run (schema by the same migrations ``twin migrate`` applies) and
dropped at the end; Redis uses its own db index; Qdrant Edge lives in a temporary folder. Only
the model endpoint, which cannot be reached from here, is mocked (with respx) where needed.

Where the stores come from (``_store_plan``): the servers at ``TWIN_TEST_PG_ADMIN`` (an admin
DSN, default the local Postgres) and ``TWIN_TEST_REDIS_URL`` (default the local Redis, db 13)
when they answer; on a bare machine, where they do not, the embedded ones ``twin up`` runs
(``services.core.embedded``) in a temporary folder for the run. ``TWIN_TEST_EMBEDDED=1`` forces
the embedded ones, ``=0`` forbids them (a store that does not answer fails the run). The
terminal summary says which the run used.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import os
import shutil
import socket
import tempfile
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import httpx
import pytest
import redis.asyncio as aioredis
from litestar import Litestar

from services.core.deps import STORES, Clients
from services.core.embedded import EmbeddedPostgres, EmbeddedRedis
from services.core.migrate import apply_migrations
from services.core.settings import Settings

pytest.register_assert_rewrite("tests.workers")  # imported here before it is a plugin
from tests.workers import STORES_KEY  # noqa: E402

pytest_plugins = ("tests.workers",)  # the suite on every core (pytest-xdist)

PG_ADMIN = os.environ.get("TWIN_TEST_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("TWIN_TEST_REDIS_URL", "redis://127.0.0.1:6379/13")


def _answers(url: str, default_port: int) -> bool:
    """A TCP connection to the URL's host and port opens within half a second."""
    parts = urlsplit(url)
    try:
        with socket.create_connection(
            (parts.hostname or "127.0.0.1", parts.port or default_port), timeout=0.5
        ):
            return True
    except OSError:
        return False


@functools.cache
def _store_plan() -> dict[str, str]:
    """``{"postgres": "external" | "embedded", "redis": ...}`` for this run."""
    forced = os.environ.get("TWIN_TEST_EMBEDDED", "").strip().lower()
    if forced in {"1", "true", "yes"}:
        return {"postgres": "embedded", "redis": "embedded"}
    if forced in {"0", "false", "no"}:
        return {"postgres": "external", "redis": "external"}
    return {
        "postgres": "external" if _answers(PG_ADMIN, 5432) else "embedded",
        "redis": "external" if _answers(REDIS_URL, 6379) else "embedded",
    }


class RunStores:
    """The run's admin DSN and Redis URL, from the plan; embedded servers stopped at the end."""

    def __init__(self, config: pytest.Config) -> None:
        self.plan = _store_plan()
        self.pg_admin, self.redis_url = PG_ADMIN, REDIS_URL
        self._servers: list[EmbeddedPostgres | EmbeddedRedis] = []
        self._root: Path | None = None
        self._config = config

    def start(self) -> None:
        """Start the embedded servers the plan asks for (in this, the main, thread: they die
        with the thread that started them)."""
        if "embedded" in self.plan.values():
            # not under pytest's tmp folder: its 0700 parents keep the Postgres user out
            self._root = Path(tempfile.mkdtemp(prefix="twin-test-stores-"))
        described = {}
        if self.plan["postgres"] == "embedded":
            postgres = EmbeddedPostgres(self._root / "postgres", durable=False)
            self._servers.append(postgres)
            postgres.start()
            self.pg_admin = postgres.url("postgres")
            described["postgres"] = f"embedded (pid {postgres.pid}, {postgres.data_dir})"
        if self.plan["redis"] == "embedded":
            redis = EmbeddedRedis(self._root / "redis")
            self._servers.append(redis)
            redis.start()
            self.redis_url = redis.url(13)
            described["redis"] = f"embedded (pid {redis.pid}, {redis.socket_path})"
        self._config.stash[STORES_KEY] = {
            store: described.get(store, f"external ({url})")
            for store, url in (("postgres", PG_ADMIN), ("redis", REDIS_URL))
        }

    def stop(self) -> None:
        for server in reversed(self._servers):
            server.stop()
        if self._root is not None:
            shutil.rmtree(self._root, ignore_errors=True)

    def dsn_for(self, database: str) -> str:
        base, _, _ = self.pg_admin.rpartition("/")
        return f"{base}/{database}"


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    described = config.stash.get(STORES_KEY, None)
    if described:
        terminalreporter.write_line(
            "stores: " + ", ".join(f"{store}={how}" for store, how in described.items())
        )


@pytest.fixture(scope="session")
def test_stores(pytestconfig: pytest.Config) -> Iterator[RunStores]:
    stores = RunStores(pytestconfig)
    try:
        stores.start()
        yield stores
    finally:
        stores.stop()


@pytest.fixture(scope="session")
async def database_url(test_stores: RunStores) -> AsyncIterator[str]:
    name = f"twin_test_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(test_stores.pg_admin)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    dsn = test_stores.dsn_for(name)
    await apply_migrations(dsn)
    yield dsn
    admin = await asyncpg.connect(test_stores.pg_admin)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@pytest.fixture(scope="session")
async def redis_url(test_stores: RunStores) -> AsyncIterator[str]:
    """Redis db 13, shared by concurrent runs: never flushed; each test's keys are its users'."""
    client = aioredis.Redis.from_url(test_stores.redis_url)
    await client.ping()
    await client.aclose()
    yield test_stores.redis_url


@pytest.fixture(scope="session")
def settings(
    database_url: str,
    redis_url: str,
    test_stores: RunStores,
    tmp_path_factory: pytest.TempPathFactory,
) -> Settings:
    return Settings(
        database_url=database_url,
        redis_url=redis_url,
        embedded=frozenset(store for store, how in test_stores.plan.items() if how == "embedded"),
        qdrant_path=str(tmp_path_factory.mktemp("qdrant")),
        embedder="minilm",
        log_json=True,
        # a test reads the index right after a write: commit indexes before it answers
        # (the after-reply default has its own tests:
        # tests/memory_upserter/commit/test_index.py)
        index_after_reply=False,
        index_sweep_s=0,  # a test that sweeps says so (tests/reliability/test_index_sweep.py)
    )


@pytest.fixture(scope="session")
async def resources(settings: Settings) -> AsyncIterator[Clients]:
    """Every client, opened once for the whole run (as ``twin up`` does)."""
    res = await Clients.open(settings, STORES)
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
    task = asyncio.create_task(
        app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, inbox.get, outbox.put)
    )
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


# --- `pytest -m pure`: the tests that touch no store, no network and no subprocess -----------

# A test whose fixtures (followed transitively) include one of these touches a real store;
# every fixture that opens Postgres, Redis or the nodes' clients depends on one of them.
STORE_FIXTURES = frozenset(
    {"test_stores", "database_url", "redis_url", "settings", "resources", "app_client"}
)
# A test module that imports one of these (or a name from one) drives a store, a model or a
# process of its own: the vector index on disk, the embedded servers, MiniLM, sockets.
IO_MODULES = (
    "asyncpg",
    "redis",
    "subprocess",
    "socket",
    "qdrant_client",
    "services.core.vectors",
    "services.core.embedded",
    "services.core.embedder",
    "services.core.minilm",
)
# Folders whose tests start servers or processes of their own, whatever their fixtures.
PROCESS_FOLDERS = frozenset({"e2e", "reliability"})


def _uses_io(module: object) -> bool:
    for value in vars(module).values():
        name = getattr(value, "__name__", "") if inspect.ismodule(value) else ""
        name = name or getattr(value, "__module__", "") or ""
        if isinstance(name, str) and name.startswith(IO_MODULES):
            return True
    return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``pure`` every test that needs no store and starts nothing (``-m pure``)."""
    tests_root = Path(__file__).parent
    io_modules: dict[object, bool] = {}
    for item in items:
        module = getattr(item, "module", None)
        if module is not None and module not in io_modules:
            io_modules[module] = _uses_io(module)
        folder = (
            item.path.relative_to(tests_root).parts[0]
            if item.path.is_relative_to(tests_root)
            else ""
        )
        if (
            folder not in PROCESS_FOLDERS
            and not set(getattr(item, "fixturenames", ())) & STORE_FIXTURES
            and not io_modules.get(module, False)
        ):
            item.add_marker(pytest.mark.pure)
