"""Nothing to install: with no DATABASE_URL and no REDIS_URL, ``twin`` runs a Postgres and a
Redis of its own, owns them, and leaves none behind — on Ctrl-C, and even when it is killed.

These tests run whatever stores the rest of the suite uses: they start their own embedded
servers in temporary folders, and never touch the machine's Postgres or Redis.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import httpx
import psutil
import pytest
from redis import Redis

from services.core.embedded import EmbeddedPostgres, EmbeddedRedis
from services.core.settings import NODE_PORTS
from tests.reliability.helpers import PLAN, commit_body, hydrate_body

REPO = Path(__file__).resolve().parents[2]
TWIN = [sys.executable, "-m", "services.cli"]
UNREACHABLE = {
    "TWIN_TEST_PG_ADMIN": "postgresql://postgres@127.0.0.1:1/postgres",
    "TWIN_TEST_REDIS_URL": "redis://127.0.0.1:1/13",
}


@pytest.fixture
def workdir() -> Iterator[Path]:
    """A folder like a fresh clone's working directory (``./data`` appears in it). Not under
    pytest's tmp folder, whose 0700 parents keep the Postgres user out when run as root."""
    path = Path(tempfile.mkdtemp(prefix="twin-embedded-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _bare_env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DATABASE_URL", "REDIS_URL", "QDRANT_", "TWIN_", "OPENAI_"))
    }
    return {**env, "PYTHONPATH": str(REPO), **extra}


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def _wait_for(predicate, what: str, limit_s: float = 60.0) -> None:
    deadline = time.monotonic() + limit_s
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {limit_s:g} s")
        time.sleep(0.1)


class TwinUp:
    """``twin up`` in a working directory with no store configured."""

    def __init__(self, cwd: Path, *, offset: int | None = None, **env: str) -> None:
        self.cwd = cwd
        self.offset = random.randrange(2_000, 22_000, 10) if offset is None else offset
        self.proc = subprocess.Popen(
            [*TWIN, "up"],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=_bare_env(
                TWIN_PORT_OFFSET=str(self.offset),
                TWIN_EMBEDDER="hashing",
                TWIN_LOG_JSON="true",
                **env,
            ),
        )

    def url(self, node: str, path: str) -> str:
        return f"http://127.0.0.1:{NODE_PORTS[node] + self.offset}{path}"

    def ready(self) -> dict:
        def answered() -> bool:
            assert self.proc.poll() is None, self.proc.stdout.read()
            try:
                return httpx.get(self.url("memory-upserter", "/readyz"), timeout=2).is_success
            except httpx.TransportError:
                return False

        _wait_for(answered, "twin up ready", limit_s=120)
        return httpx.get(self.url("memory-upserter", "/readyz"), timeout=5).json()

    def server_pids(self) -> tuple[int, int]:
        postgres = int((self.cwd / "data/postgres/postmaster.pid").read_text().split()[0])
        redis = int((self.cwd / "data/redis/redis.pid").read_text().strip())
        return postgres, redis

    def stop(self, sig: int) -> str:
        self.proc.send_signal(sig)
        output, _ = self.proc.communicate(timeout=60)
        return output


def test_twin_up_with_nothing_configured_owns_its_stores_and_leaves_none_behind(
    workdir: Path, user_id: str
) -> None:
    first = TwinUp(workdir)
    try:
        readiness = first.ready()
        assert readiness["status"] == "ready", readiness
        assert readiness["modes"] == {
            "postgres": "embedded",
            "redis": "embedded",
            "vectors": "embedded",
        }
        committed = httpx.post(
            first.url("memory-upserter", "/v1/commit"),
            timeout=30,
            json=commit_body(user_id, plan=PLAN),
        )
        assert committed.status_code == 200, committed.text
        postgres, redis = first.server_pids()
    finally:
        first.proc.kill()  # a crash: no shutdown code runs in twin
        first.proc.communicate(timeout=30)
    # the kernel takes both servers down with it; nothing is orphaned
    _wait_for(lambda: _gone(postgres) and _gone(redis), "the servers' exit after kill -9")

    second = TwinUp(workdir)  # the crashed folder is recovered (stale pid files, WAL replay)
    try:
        assert second.ready()["status"] == "ready"
        hydrated = httpx.post(
            second.url("graph-hydrator", "/v1/hydrate"), timeout=30, json=hydrate_body(user_id)
        )
        assert hydrated.status_code == 200, hydrated.text
        assert "Marta" in hydrated.text  # Postgres kept the committed turn across the crash
        postgres, redis = second.server_pids()
    finally:
        output = second.stop(signal.SIGINT)  # Ctrl-C
    # Ctrl-C ends `twin up` the shell's way (exit 130, no traceback), the stores stopped first
    assert second.proc.returncode == 130, output
    assert "Traceback" not in output
    assert _gone(postgres) and _gone(redis), output
    assert "embedded_postgres_stopped" in output and "embedded_redis_stopped" in output
    # working memory is volatile: the embedded Redis wrote nothing to disk
    assert sorted(p.name for p in (workdir / "data/redis").iterdir()) == ["redis.log"]


def test_a_stale_pid_file_naming_a_live_process_is_not_a_running_server(workdir: Path) -> None:
    postgres = EmbeddedPostgres(workdir / "postgres", durable=False)
    postgres.start()
    postgres.stop()
    # after a crash and a reboot, the old postmaster's pid may belong to anything, e.g. us
    pid_file = postgres.data_dir / "postmaster.pid"
    pid_file.write_text(f"{os.getpid()}\n{postgres.data_dir}\n0\n5432\n/nowhere\n\n\nready\n")
    postgres.start()
    try:
        assert postgres.pid != os.getpid()
        assert int(pid_file.read_text().split()[0]) == postgres.pid
    finally:
        postgres.stop()


async def test_a_second_process_on_the_same_folder_shares_the_running_server(workdir: Path) -> None:
    owner = EmbeddedPostgres(workdir / "postgres", durable=False)
    owner.start()
    pid = owner.pid
    try:
        guest = EmbeddedPostgres(workdir / "postgres", durable=False)
        guest.start()
        assert guest.pid == owner.pid and guest.proc is None
        guest.stop()  # not its server: it stays up for its owner
        conn = await asyncpg.connect(owner.url())
        try:
            assert await conn.fetchval("SELECT 1") == 1
            assert await conn.fetchval("SHOW server_version_num") >= "180000"
        finally:
            await conn.close()
    finally:
        owner.stop()
    assert _gone(pid)


def test_the_embedded_redis_keeps_nothing_on_disk_unless_asked(workdir: Path) -> None:
    volatile = EmbeddedRedis(workdir / "volatile")
    durable = EmbeddedRedis(workdir / "durable", persist=True)
    for server in (volatile, durable):
        server.start()
        client = Redis.from_url(server.url())
        client.set("k", "v", ex=60)
        assert 0 < client.ttl("k") <= 60
        client.close()
        server.stop()
    assert not (workdir / "volatile/dump.rdb").exists()
    assert (workdir / "durable/dump.rdb").exists()


def test_on_a_bare_machine_the_suite_runs_on_the_embedded_stores() -> None:
    """No Postgres, no Redis answering (the TWIN_TEST_* addresses point at a closed port): the
    tests fall back to the embedded servers — and every Redis command working memory uses
    (MGET, SET EX, the compare-and-set Lua script, SCAN, DEL) passes on them, as does the
    graph store on PostgreSQL 18 (twin_normalize agreeing with the Python fold included)."""
    tests = [
        "tests/core/test_working_memory_cas.py",
        "tests/core/test_working_memory.py",
        "tests/graph_hydrator/test_store.py",
    ]
    env = _bare_env(**UNREACHABLE)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            *tests,
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=-p no:valkey",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    summary = done.stdout.splitlines()
    stores = next(line for line in summary if line.startswith("stores: "))
    assert "postgres=embedded" in stores and "redis=embedded" in stores, stores
    assert any(" passed" in line and "failed" not in line for line in summary[-3:]), summary[-5:]
