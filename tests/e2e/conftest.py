"""The E2E stack: a real n8n (installed by ``tools/n8n/install.sh``), the six real nodes
(``twin up``), a stub LLM and a fake Telegram Bot API — all on 127.0.0.1.

One session fixture builds it in an order that overlaps the slow parts: the nodes start while
n8n imports and publishes the workflows; n8n starts with every workflow already published, so
its triggers (the Telegram ``setWebhook`` included) come up with the server. Each mode's stack,
and the agent n8n beside it (``tests/e2e/agent_stack.py``), is built once and shared by every
test of that mode; a test that proves nothing about the mode runs in one (``ONE_MODE``).

Skips only when n8n is not installed and the npm registry cannot be reached to install it;
every other problem fails, with the logs that explain it.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import asyncpg
import httpx
import pytest
import redis

from services.core.settings import NODE_PORTS
from tests.e2e import n8n as n8n_tools
from tests.e2e import workflows as workflows_edit
from tests.e2e.agent_stack import (  # noqa: F401 - the agent tests' fixtures, one per mode
    agent_package,
    agent_stack_fixture,
)
from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.n8n import URL_SETTINGS, N8nInstance, Queue
from tests.e2e.processes import Process, free_port, port_in_use
from tests.e2e.stack import (
    AGENT_ID,
    ANAKETA_ALLOWED,
    N8N_MODES,
    Secrets,
    Stack,
    credentials_for,
)
from tests.e2e.stub_llm import StubLLM

if TYPE_CHECKING:
    from tests.conftest import RunStores
    from tests.e2e.measure import Baseline

REPO = n8n_tools.REPO


def _run_async(coro: Any) -> Any:
    with ThreadPoolExecutor(1) as pool:  # outside pytest-asyncio's loop
        return pool.submit(asyncio.run, coro).result()


async def _create_database(pg_admin: str, name: str) -> None:
    admin = await asyncpg.connect(pg_admin)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()


def _forget_keys(redis_url: str, pattern: str) -> None:
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=pattern, count=500))
    if keys:
        client.delete(*keys)
    client.close()


async def _drop_database(pg_admin: str, name: str) -> None:
    admin = await asyncpg.connect(pg_admin)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


def _forget_working_memory(redis_url: str, users: set[str]) -> None:
    """Delete this run's Redis keys (every working-memory key names its user, quoted)."""
    client = redis.Redis.from_url(redis_url)
    for user_id in users:
        keys = list(client.scan_iter(match=f"*:{quote(user_id, safe='')}:*", count=500))
        if keys:
            client.delete(*keys)
    client.close()


def _free_offset() -> int:
    """A port offset (``TWIN_PORT_OFFSET``) at which all six node ports are free, so the test
    runs beside a developer's own ``twin up`` on 8101–8106; ``TWIN_E2E_PORT_OFFSET`` fixes it
    (a machine whose ports are shared out between runs)."""
    if fixed := os.environ.get("TWIN_E2E_PORT_OFFSET"):
        return int(fixed)
    for _ in range(50):  # random: parallel runs (and tests/core's offset 1000) stay apart
        # below Linux's ephemeral range (32768+): an outgoing connection made after this check
        # (n8n's to Postgres, a test's to Redis) can never take a node's port before it binds
        offset = random.randrange(2_000, 24_000, 10)
        if not any(port_in_use(port + offset) for port in NODE_PORTS.values()):
            return offset
    raise RuntimeError("no free block of node ports")


def _nodes_ready(ports: list[int]) -> bool:
    return all(
        httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200 for port in ports
    )


@pytest.fixture(scope="session")
def n8n_home(request: pytest.FixtureRequest) -> Path:
    try:
        home, seconds = n8n_tools.install(progress=_shown(request.config))
    except n8n_tools.NpmMissing as exc:
        pytest.skip(f"n8n is not installed and there is no npm to install it with: {exc}")
    except n8n_tools.RegistryUnreachable as exc:
        pytest.skip(
            f"n8n is not installed and the npm registry cannot be reached to install "
            f"it (tools/n8n/install.sh exit 75): {exc}"
        )
    print(f"\n[e2e] n8n install: {seconds:.1f}s ({home})")
    return home


def _shown(config: pytest.Config) -> Callable[[str], None]:
    """Write a line to the terminal now, past pytest's capture: the first install takes minutes
    (~3 GB), and a run that shows nothing meanwhile looks hung."""
    capture = config.pluginmanager.getplugin("capturemanager")

    def show(line: str) -> None:
        with capture.global_and_fixture_disabled():
            print(f"[e2e] {line}", file=sys.stderr, flush=True)

    return show


SCHEDULE_SECONDS = 10  # the slow brain's schedule, on the real clock
ANAKETA_WORKFLOW = json.loads((n8n_tools.WORKFLOWS / "persona-anaketa.json").read_text())["id"]
SETTINGS_WORKFLOW = json.loads((n8n_tools.WORKFLOWS / "settings.json").read_text())["id"]
ONE_CALL_TURN = json.loads((n8n_tools.WORKFLOWS / "fast-brain-one-call.json").read_text())["id"]


@pytest.fixture(scope="session", params=N8N_MODES)
def stack(
    request: pytest.FixtureRequest,
    n8n_home: Path,
    tmp_path_factory: pytest.TempPathFactory,
    test_stores: RunStores,
) -> Iterator[Stack]:
    """The whole stack; ``single``: one n8n process on SQLite (``tools/n8n/n8n.sh``);
    ``queue``: n8n on Postgres in queue mode, main + one worker + Redis (compose.yaml). The
    nodes use the run's stores (tests/conftest.py: the machine's, else embedded ones)."""
    redis_url = os.environ.get("TWIN_TEST_E2E_REDIS_URL", test_stores.redis_url)
    queue = request.param == "queue"
    with (
        _over_tcp(redis_url) if queue else nullcontext(redis_url) as queue_redis_url,
        open_stack(
            tmp_path_factory.mktemp(f"e2e-{request.param}"),
            queue=queue,
            pg_admin=test_stores.pg_admin,
            redis_url=redis_url,
            queue_redis_url=queue_redis_url,
        ) as built,
    ):
        yield built


@contextmanager
def _over_tcp(redis_url: str) -> Iterator[str]:
    """``redis_url`` as n8n's queue can reach it: over TCP. The run's embedded Valkey listens on
    a Unix socket only; for the queue-mode run it also opens a loopback port (chosen free), and
    closes it at the end. A Redis already on TCP is used as it is."""
    if redis_url.startswith("redis://"):
        yield redis_url
        return
    client = redis.Redis.from_url(redis_url)
    db = client.connection_pool.connection_kwargs.get("db", 0)
    port = free_port()
    client.config_set("bind", "127.0.0.1")
    client.config_set("port", port)
    try:
        yield f"redis://127.0.0.1:{port}/{db}"
    finally:
        client.config_set("port", 0)
        client.close()


@contextmanager
def open_stack(
    folder: Path,
    *,
    pg_admin: str,
    redis_url: str,
    queue: bool = False,
    queue_redis_url: str | None = None,
    schedule_seconds: int | None = SCHEDULE_SECONDS,
    baseline: Baseline | None = None,
    one_call: bool = False,
    inline_settings: bool = False,
) -> Iterator[Stack]:
    """Build the stack (the E2E fixture and ``tests/e2e/measure.py`` share it). ``baseline``
    (measure only) runs other workflows instead of the shipped ones; ``queue_redis_url``: the
    same Redis as n8n's queue reaches it (over TCP), when ``redis_url`` is a Unix socket;
    ``one_call`` points the second persona (Anaketa) at the one-call Twin turn;
    ``inline_settings`` copies the settings into each workflow instead of the call (measure
    only)."""
    offset = _free_offset()
    ports = {node: port + offset for node, port in NODE_PORTS.items()}
    keys = Secrets()
    timings: dict[str, float] = {}
    started = time.monotonic()
    llm, telegram = StubLLM().start(), FakeTelegram().start()

    run = uuid.uuid4().hex[:10]
    database = f"twin_e2e_{run}"
    database_url = f"{pg_admin.rpartition('/')[0]}/{database}"
    node_env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("OPENAI_", "TWIN_", "DATABASE_URL", "REDIS_URL", "QDRANT_"))
    }
    node_env.update(
        {
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "QDRANT_PATH": str(folder / "qdrant"),
            "TWIN_NODE_TOKEN": keys.node_token,
            "TWIN_PORT_OFFSET": str(offset),
            "TWIN_LOG_JSON": "true",  # no OPENAI_*: the nodes run their offline engines
        }
    )
    twin = Path(sys.executable).with_name("twin")
    nodes = Process("twin up", [twin, "up"], node_env, folder / "twin.log", cwd=REPO)
    n8n_queue = None
    if queue:
        n8n_queue = Queue(
            f"{pg_admin.rpartition('/')[0]}/n8n_e2e_{run}",
            queue_redis_url or redis_url,
            f"bull-e2e-{run}",
        )
        _run_async(_create_database(pg_admin, n8n_queue.database))
    n8n = N8nInstance(
        folder / "n8n", baseline.env(ports, llm.base_url) if baseline else {}, queue=n8n_queue
    )
    stack = Stack(n8n, nodes, llm, telegram, keys, database_url, ports, timings)

    def restart_nodes() -> None:
        stack.nodes.stop()
        stack.nodes = Process("twin up", [twin, "up"], node_env, folder / "twin.log", cwd=REPO)
        stack.nodes.wait_until(lambda: _nodes_ready(list(ports.values())), 120, "ready")

    stack.restart_nodes = restart_nodes
    settings = {field: f"http://127.0.0.1:{ports[node]}" for node, field in URL_SETTINGS.items()}
    settings.update(
        {
            "model_url": llm.base_url,
            "model": "stub-model",
            "commit_retry_seconds": 66,  # the shortest wait n8n keeps in its database
            "alert_url": f"{telegram.base_url}/alerts",
        }
    )
    try:
        workflows = [
            workflows_edit.configure(json.loads(p.read_text()), settings)
            for p in n8n_tools.workflow_files()
        ]
        workflows = [  # Anaketa: an allow-list, and the person's memory in groups too
            workflows_edit.group_memory(workflows_edit.allow_users(w, list(ANAKETA_ALLOWED)), True)
            if w["id"] == ANAKETA_WORKFLOW
            else w
            for w in workflows
        ]
        if schedule_seconds:
            workflows = [workflows_edit.every_seconds(w, schedule_seconds) for w in workflows]
        if inline_settings:
            held = next(w for w in workflows if w["id"] == SETTINGS_WORKFLOW)
            workflows = [workflows_edit.inline_settings(w, held) for w in workflows]
        if one_call:
            workflows = [
                workflows_edit.twin_turn(w, ONE_CALL_TURN) if w["id"] == ANAKETA_WORKFLOW else w
                for w in workflows
            ]
        credentials = credentials_for(keys, telegram.base_url)
        if baseline is not None:
            workflows, credentials = baseline.workflows, baseline.credentials(credentials)
        n8n.import_all(workflows, credentials)
        n8n.publish_in_db([w["id"] for w in workflows])
        n8n.start()
        timings["nodes_ready"] = nodes.wait_until(
            lambda: _nodes_ready(list(ports.values())), 120, "ready"
        )
        for agent, token in keys.bot_tokens.items():
            if baseline is None or agent == AGENT_ID:  # (the baseline has one bot)
                stack.bot_webhooks[agent] = telegram.wait_for_webhook(60, token=token)
        stack.telegram_webhook = stack.bot_webhooks[AGENT_ID]
        for path in (
            "twin/fast-brain",
            "twin/one-call",
            "twin/slow-brain",
            "twin/forget",
            "twin/knowledge",
        ):
            n8n.wait_for_webhook(path)
        timings.update({f"n8n_{k}": v for k, v in n8n.timings.items()})
        timings["stack"] = time.monotonic() - started
        print(
            f"[e2e] stack up ({'queue' if queue else 'single'}): "
            f"{json.dumps({k: round(v, 1) for k, v in timings.items()})}"
        )
        yield stack
    except Exception:
        print(f"--- n8n log ---\n{n8n.log_tail()}\n--- twin up log ---\n{stack.nodes.log_tail()}")
        raise
    finally:
        n8n.stop()
        stack.nodes.stop()
        llm.stop()
        telegram.stop()
        if os.environ.get("TWIN_E2E_KEEP"):  # debugging: look at what the run wrote
            print(f"[e2e] kept {database_url} and {redis_url}")
        else:
            _run_async(_drop_database(pg_admin, database))
            if n8n_queue is not None:
                _run_async(_drop_database(pg_admin, n8n_queue.database))
                _forget_keys(redis_url, f"{n8n_queue.prefix}:*")
            _forget_working_memory(redis_url, stack.users)
