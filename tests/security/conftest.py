"""A real ``twin up`` (all six nodes, one process) with a node token, for tests that attack
it over HTTP as a stranger would: auth, hostile input, isolation through the real routes.

It uses the run's test database (migrated), Redis db 13 and its own Qdrant Edge folder, on a
free port offset; the token and a fake model key are this run's own, so a test can search the
server's log for them.
"""

from __future__ import annotations

import os
import random
import secrets
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from services.core.settings import NODE_PORTS, Settings
from tests.e2e.processes import Process, port_in_use


@dataclass(frozen=True)
class LiveStack:
    process: Process
    offset: int
    token: str
    model_key: str

    def url(self, node: str) -> str:
        return f"http://127.0.0.1:{NODE_PORTS[node] + self.offset}"

    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def log(self) -> str:
        return self.process.log_path.read_text(errors="replace")


def _free_offset() -> int:
    """Ports 10101…30106: below Linux's ephemeral range (32768+), where a client socket of
    this very run could hold one of them by the time the server binds."""
    for _ in range(50):
        offset = random.randrange(2_000, 22_000, 10)
        if not any(port_in_use(port + offset) for port in NODE_PORTS.values()):
            return offset
    raise RuntimeError("no free port offset for twin up")


@pytest.fixture(scope="session")
def live(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveStack]:
    folder = tmp_path_factory.mktemp("live")
    token, model_key = secrets.token_urlsafe(24), f"sk-test-{secrets.token_hex(12)}"
    env = {
        **os.environ,
        "DATABASE_URL": settings.database_url,
        "REDIS_URL": settings.redis_url,
        "QDRANT_PATH": str(folder / "qdrant"),
        "TWIN_NODE_TOKEN": token,
        "TWIN_LOG_JSON": "true",
        "TWIN_EMBEDDER": "hashing",
        # a key but an endpoint nobody listens on: the offline engines must not be needed
        # for the routes attacked here, and the key must never be logged
        "OPENAI_API_KEY": model_key,
        "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
        "TWIN_LLM_TIMEOUT_S": "0.5",
    }
    for attempt in range(3):  # a port taken between the check and the bind: another offset
        offset = _free_offset()
        process = Process(
            "twin up",
            [sys.executable, "-m", "services.cli", "up"],
            {**env, "TWIN_PORT_OFFSET": str(offset)},
            Path(folder / f"twin-up-{attempt}.log"),
            cwd=Path(__file__).parents[2],
        )
        stack = LiveStack(process, offset, token, model_key)
        try:
            process.wait_until(
                lambda s=stack: all(
                    httpx.get(f"{s.url(n)}/healthz", timeout=1).status_code == 200
                    for n in NODE_PORTS
                ),
                timeout=90,
                what="serving all six nodes",
            )
            break
        except RuntimeError:
            process.stop()
            if attempt == 2 or "Address already in use" not in process.log_tail():
                raise
    try:
        yield stack
    finally:
        process.stop()


def openapi(stack: LiveStack, node: str) -> dict:
    return httpx.get(f"{stack.url(node)}/schema/openapi.json", timeout=10).json()


def operations(stack: LiveStack) -> list[tuple[str, str, str]]:
    """Every (node, method, path) each node's own OpenAPI documents."""
    found = []
    for node in NODE_PORTS:
        for path, item in openapi(stack, node)["paths"].items():
            found += [
                (node, method.upper(), path)
                for method in item
                if method in ("get", "post", "put", "patch", "delete")
            ]
    return found
