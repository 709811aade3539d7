"""Throwaway dependency servers the reliability tests really stop and start again.

Never the shared Postgres (5432) or Redis (6379): each server here is this run's own, on a
free port, in a temporary folder, and stopped by its own process id. ``DelayProxy`` sits in
front of a server and holds every byte back for ``delay_s`` (a slow network or a stalled
database), in a thread of its own so any event loop can use what it fronts.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

from services.core.embedded import postgres as embedded_postgres
from services.core.embedded import redis as embedded_redis
from services.core.embedded.process import give_to, run_as_for_postgres
from tests.e2e.processes import free_port, port_in_use

__all__ = ["DelayProxy", "PostgresServer", "RedisServer", "free_port", "stopped", "wait_for_port"]


def _pg_bin() -> Path:
    """Where initdb and pg_ctl are: ``TWIN_TEST_PG_BIN``, else the embedded Postgres's (the
    binaries ``twin up`` runs with nothing configured: nothing to install)."""
    if given := os.environ.get("TWIN_TEST_PG_BIN"):
        return Path(given)
    return embedded_postgres.bin_dir()


def _redis_server() -> str:
    """``TWIN_TEST_REDIS_SERVER``, else the embedded Redis's server binary (Valkey)."""
    return os.environ.get("TWIN_TEST_REDIS_SERVER") or str(embedded_redis.server_binary())


PG_BIN = _pg_bin()


class Startable(Protocol):
    def start(self) -> None: ...
    def stop(self) -> None: ...


@contextmanager
def stopped(server: Startable) -> Iterator[None]:
    """The server is down inside the block and up again after it, whatever happens."""
    server.stop()
    try:
        yield
    finally:
        server.start()


def wait_for_port(port: int, *, up: bool, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while port_in_use(port) != up:
        if time.monotonic() > deadline:
            raise TimeoutError(f"port {port} still {'closed' if up else 'open'} after {timeout}s")
        time.sleep(0.05)


class RedisServer:
    """``redis-server`` without persistence: stopping it loses its data, as losing Redis may."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                _redis_server(),
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_for_port(self.port, up=True)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None
        wait_for_port(self.port, up=False)


class PostgresServer:
    """A Postgres cluster of its own (initdb once, then ``pg_ctl`` start/stop at will).

    initdb refuses to run as root: the cluster belongs to the user the embedded Postgres runs
    as when the tests run as root, and to the current user otherwise.
    """

    def __init__(self, root: Path | None = None, port: int | None = None) -> None:
        # Not under pytest's tmp folder: its 0700 parents keep the ``postgres`` user out.
        self.root = root or Path(tempfile.mkdtemp(prefix="twin-pg-"))
        self.port = port or free_port()
        self.data = self.root / "data"
        self.socket_dir = self.root / "sock"
        self._run_as = run_as_for_postgres()

    @property
    def admin_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        as_other = self._run_as.name is not None
        done = subprocess.run(
            list(argv),
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=60,
            user=self._run_as.uid if as_other else None,
            group=self._run_as.gid if as_other else None,
            extra_groups=[] if as_other else None,
        )
        if check and done.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed ({done.returncode}): {done.stderr[-2000:]}")
        return done

    def init(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self.socket_dir.mkdir(exist_ok=True)
        for path in (self.root, self.socket_dir):
            give_to(path, self._run_as)
        give_to(PG_BIN, self._run_as, own=False)
        self._run(
            str(PG_BIN / "initdb"),
            "-D",
            str(self.data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--no-sync",
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.socket_dir} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c full_page_writes=off"
        )
        self._run(
            str(PG_BIN / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "server.log"),
            "-w",
            "start",
        )
        wait_for_port(self.port, up=True)

    def stop(self, mode: str = "immediate") -> None:
        """``immediate`` is a crash: no checkpoint, in-flight transactions die with it."""
        self._run(
            str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop", check=False
        )
        wait_for_port(self.port, up=False)

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


class DelayProxy:
    """A TCP proxy to ``127.0.0.1:target`` that holds each chunk back ``delay_s`` seconds."""

    def __init__(self, target: int, port: int | None = None) -> None:
        self.target = target
        self.port = port or free_port()
        self.delay_s = 0.0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="delay-proxy", daemon=True)

    def start(self) -> None:
        self._thread.start()
        self._ready.wait(10)

    def stop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(
            asyncio.start_server(self._client, "127.0.0.1", self.port)
        )
        self._ready.set()
        try:
            self._loop.run_forever()
        finally:
            server.close()
            pending = asyncio.all_tasks(self._loop)
            for task in pending:
                task.cancel()
            self._loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            self._loop.close()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError, OSError):
            while chunk := await reader.read(65536):
                if self.delay_s:
                    await asyncio.sleep(self.delay_s)
                writer.write(chunk)
                await writer.drain()
        with contextlib.suppress(ConnectionError, OSError, RuntimeError):
            writer.close()
