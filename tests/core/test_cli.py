"""The two commands a new user runs: ``twin migrate`` (idempotent) and ``twin up``."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import uuid

import asyncpg
import httpx
import pytest

from services.core.settings import NODE_PORTS, Settings

TWIN = [sys.executable, "-m", "services.cli"]


@pytest.fixture
async def fresh_database(settings: Settings):
    """A database name that does not exist yet, dropped afterwards."""
    base = settings.database_url.rpartition("/")[0]
    name = f"twin_cli_{uuid.uuid4().hex[:8]}"
    yield name, f"{base}/{name}"
    admin = await asyncpg.connect(f"{base}/postgres")
    await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await admin.close()


def test_twin_migrate_creates_the_database_then_changes_nothing(fresh_database) -> None:
    _, dsn = fresh_database
    env = {**os.environ, "DATABASE_URL": dsn}
    first = subprocess.run([*TWIN, "migrate"], env=env, capture_output=True, text=True, timeout=60)
    second = subprocess.run([*TWIN, "migrate"], env=env, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    assert "created the database" in first.stdout and "applied: 0001_foundation" in first.stdout
    assert second.returncode == 0 and second.stdout.strip() == "schema is up to date"


def _start_up(dsn: str, tmp_path, settings: Settings) -> tuple[subprocess.Popen, int]:
    offset = random.randrange(2_000, 22_000, 10)  # below the ephemeral range; runs side by side
    env = {
        **os.environ,
        "DATABASE_URL": dsn,
        "REDIS_URL": settings.redis_url,
        "QDRANT_PATH": str(tmp_path / "qdrant"),
        "TWIN_PORT_OFFSET": str(offset),
        "TWIN_LOG_JSON": "true",
    }
    proc = subprocess.Popen(
        [*TWIN, "up"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    return proc, offset


def _wait_healthy(offset: int) -> dict[str, int]:
    started = time.monotonic()
    healthy: dict[str, int] = {}
    while time.monotonic() - started < 60 and len(healthy) < len(NODE_PORTS):
        for node, port in NODE_PORTS.items():
            try:
                reply = httpx.get(f"http://127.0.0.1:{port + offset}/healthz", timeout=1)
                healthy[node] = reply.status_code
            except httpx.TransportError:
                pass
        time.sleep(0.3)
    return healthy


def test_twin_up_serves_all_six_nodes_and_stops_cleanly(
    fresh_database, tmp_path, settings: Settings
) -> None:
    _, dsn = fresh_database
    proc, offset = _start_up(dsn, tmp_path, settings)
    try:
        healthy = _wait_healthy(offset)
        assert healthy == dict.fromkeys(NODE_PORTS, 200), healthy
        for node, port in NODE_PORTS.items():
            ready = httpx.get(f"http://127.0.0.1:{port + offset}/readyz", timeout=5)
            assert ready.status_code == 200, (node, ready.text)
    finally:
        proc.send_signal(signal.SIGTERM)
        output, _ = proc.communicate(timeout=30)
    # uvicorn re-raises the captured SIGTERM after its graceful shutdown
    assert proc.returncode in (0, -signal.SIGTERM), output
    assert "Application shutdown complete" in output


def test_ctrl_c_on_twin_up_shuts_down_without_a_traceback(
    fresh_database, tmp_path, settings: Settings
) -> None:
    _, dsn = fresh_database
    proc, offset = _start_up(dsn, tmp_path, settings)
    try:
        assert _wait_healthy(offset) == dict.fromkeys(NODE_PORTS, 200)
    finally:
        proc.send_signal(signal.SIGINT)  # what Ctrl-C in the terminal sends
        output, _ = proc.communicate(timeout=30)
    assert "Application shutdown complete" in output
    assert "Traceback" not in output and "KeyboardInterrupt" not in output, output
    assert proc.returncode == 130  # the shell's convention for "stopped by Ctrl-C"
