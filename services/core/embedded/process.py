"""What both embedded servers share: a child process that never outlives this one, a short
private folder for its socket, and (for Postgres, which refuses to run as root) a user to run as.

Guarantees:

- a server started here is in a session of its own, so the terminal's Ctrl-C reaches only
  ``twin``, which drains its requests first and then stops the server itself;
- on Linux the server gets a signal the moment the thread that started it dies (the kernel's
  parent-death signal), so even ``kill -9`` of ``twin`` leaves no server behind;
- a process is only ever stopped by its own id, after checking it is the server of this folder.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import hashlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psutil
import structlog

from services.core.embedded.private import grant_search

RUN_AS_USER = "twin-postgres"  # the system user the embedded Postgres runs as when twin is root
_SOCKET_PATH_MAX = 100  # sun_path is 108 bytes on Linux, 104 on macOS; keep a margin


class EmbeddedStoreError(RuntimeError):
    """An embedded server could not be started; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class RunAs:
    """The user a server runs as (``None``: the current one)."""

    name: str | None
    uid: int
    gid: int

    @classmethod
    def current(cls) -> RunAs:
        return cls(None, os.getuid(), os.getgid())


def run_as_for_postgres() -> RunAs:
    """The current user, or when that is root a system user created for it once (initdb and
    postgres refuse to run as root)."""
    if os.name != "posix" or os.geteuid() != 0:
        return RunAs.current()
    import pwd

    try:
        entry = pwd.getpwnam(RUN_AS_USER)
    except KeyError:
        done = subprocess.run(
            [
                "useradd",
                "--system",
                "--no-create-home",
                "--home-dir",
                "/nonexistent",
                "--shell",
                "/usr/sbin/nologin",
                "--user-group",
                RUN_AS_USER,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode not in (0, 9):  # 9: created meanwhile by a concurrent start
            raise EmbeddedStoreError(
                f"running as root, the embedded Postgres needs a user of its own and "
                f"`useradd {RUN_AS_USER}` failed: {done.stderr.strip()}"
            ) from None
        entry = pwd.getpwnam(RUN_AS_USER)
        structlog.get_logger("twin").info("embedded_user_created", user=RUN_AS_USER)
    return RunAs(RUN_AS_USER, entry.pw_uid, entry.pw_gid)


def give_to(path: Path, run_as: RunAs, *, own: bool = True) -> None:
    """Make ``path`` the server user's (``own``), and let that user reach it: every parent
    folder it cannot search gives that user alone the search bit (a POSIX ACL); only where
    the file system has no ACLs does the parent get the search bit for others (never read:
    names stay hidden), with a warning naming it."""
    if run_as.name is None:
        return
    if own:
        os.chown(path, run_as.uid, run_as.gid)
    opened = []
    for parent in path.resolve().parents:
        mode = parent.stat().st_mode
        if mode & 0o001 or grant_search(parent, run_as.uid):
            continue
        parent.chmod(mode | 0o001)
        opened.append(str(parent))
    if opened:
        structlog.get_logger("twin").warning(
            "embedded_parents_made_searchable", user=run_as.name, folders=opened
        )


def socket_dir(preferred: Path, name: str, run_as: RunAs) -> Path:
    """``preferred`` when a socket in it fits the OS limit, else a private folder in the temp
    folder named after ``preferred`` (so the same data folder always gets the same one)."""
    if len(str(preferred.resolve() / name)) <= _SOCKET_PATH_MAX:
        return preferred
    digest = hashlib.sha256(str(preferred.resolve()).encode()).hexdigest()[:12]
    fallback = Path(tempfile.gettempdir()) / f"twin-{digest}"
    fallback.mkdir(mode=0o700, exist_ok=True)
    if run_as.name is not None:
        os.chown(fallback, run_as.uid, run_as.gid)
    return fallback


def _parent_death_hook(sig: int) -> Callable[[], None]:
    """A preexec function: ask the kernel to send ``sig`` when our parent thread dies (Linux).

    Runs in the child after it switched user (a later switch would clear the setting)."""
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    prctl = libc.prctl
    parent = os.getpid()
    pr_set_pdeathsig = 1

    def hook() -> None:
        prctl(pr_set_pdeathsig, sig, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the hook ran
            os._exit(1)

    return hook


def spawn(
    argv: list[str], *, run_as: RunAs, log_path: Path, death_signal: int, cwd: Path | None = None
) -> subprocess.Popen[bytes]:
    """Start a server process in a session of its own that dies with this thread (Linux)."""
    with open(log_path, "ab") as log:
        return subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=cwd,
            start_new_session=True,
            preexec_fn=_parent_death_hook(death_signal),
            user=run_as.uid if run_as.name else None,
            group=run_as.gid if run_as.name else None,
            extra_groups=[] if run_as.name else None,
            env={**_child_env(), "LC_ALL": "C"},
        )


def _child_env() -> dict[str, str]:
    keep = ("PATH", "TZ", "TMPDIR", "LD_LIBRARY_PATH")
    return {key: os.environ[key] for key in keep if key in os.environ}


def stop_process(
    proc: psutil.Process | subprocess.Popen[bytes], first: int, *, grace_s: float = 30.0
) -> None:
    """Send ``first``, wait up to ``grace_s``; then SIGKILL. Never raises if it is gone."""
    try:
        proc.send_signal(first)
    except (ProcessLookupError, psutil.NoSuchProcess):
        return
    try:
        proc.wait(grace_s)
        return
    except (subprocess.TimeoutExpired, psutil.TimeoutExpired):
        pass
    try:
        proc.kill()
        proc.wait(10)
    except (ProcessLookupError, psutil.NoSuchProcess):
        pass


def live_server(pid: int, marker: str) -> psutil.Process | None:
    """The process ``pid`` when it is alive and its command line mentions ``marker`` (the data
    folder or socket it serves): a pid in a stale file may since belong to someone else."""
    try:
        proc = psutil.Process(pid)
        if proc.status() == psutil.STATUS_ZOMBIE:
            return None
        return proc if any(marker in part for part in proc.cmdline()) else None
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return None


def is_orphan(proc: psutil.Process) -> bool:
    """Its starter died (a crash where no parent-death signal exists, e.g. macOS)."""
    try:
        parent = proc.parent()
    except psutil.NoSuchProcess:
        return True
    return parent is None or parent.pid == 1 or parent.name() in {"init", "systemd", "launchd"}


def wait_until(
    ready: Callable[[], bool],
    *,
    proc: subprocess.Popen[bytes],
    timeout_s: float,
    what: str,
    log_path: Path,
) -> None:
    """Poll ``ready()`` until true; fail with the server's log tail if it exits or stalls."""
    deadline = time.monotonic() + timeout_s
    delay = 0.005
    while not ready():
        if proc.poll() is not None:
            raise EmbeddedStoreError(
                f"{what} exited with {proc.returncode} while starting; "
                f"its log ({log_path}):\n{_tail(log_path)}"
            )
        if time.monotonic() > deadline:
            stop_process(proc, signal.SIGKILL)
            raise EmbeddedStoreError(
                f"{what} not ready after {timeout_s:g} s; its log ({log_path}):\n{_tail(log_path)}"
            )
        time.sleep(delay)
        delay = min(delay * 2, 0.1)


def _tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"
