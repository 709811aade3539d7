"""Supervision of the embedded servers ``twin`` started: a server that dies (``kill -9``, the
OOM killer, a crash) is started again on the same folder and socket, so the URLs the pools
hold stay right and ``/readyz`` recovers by itself (issue 31 item 4).

Guarantees:

- only servers this process started are watched (an attached one belongs to another ``twin``);
- a death is logged with the server's exit status, then the server is started again; a start
  that fails (Postgres refuses while backends of the dead server still hold its shared
  memory) is retried, waiting longer each time, up to ``MAX_BACKOFF_S`` between tries;
- leaving the block stops the watching before the servers are stopped, so a deliberate stop is
  never mistaken for a death.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from subprocess import Popen
from typing import Protocol

import structlog

from services.core.embedded.process import EmbeddedStoreError

POLL_S = 0.5
MAX_BACKOFF_S = 10.0


class Supervised(Protocol):
    """An embedded server: the child it started (``None`` when attached), and a restart."""

    proc: Popen[bytes] | None

    def restart(self) -> None: ...


@contextmanager
def supervised(servers: Mapping[str, Supervised], *, poll_s: float = POLL_S) -> Iterator[None]:
    """Watch ``servers`` (name → server) while the block runs."""
    stopping = threading.Event()
    watcher = threading.Thread(
        target=_watch, args=(dict(servers), stopping, poll_s), name="store-supervisor", daemon=True
    )
    watcher.start()
    try:
        yield
    finally:
        stopping.set()
        watcher.join()


def _watch(servers: dict[str, Supervised], stopping: threading.Event, poll_s: float) -> None:
    failures = dict.fromkeys(servers, 0)
    while not stopping.wait(_wait_s(poll_s, failures)):
        for name, server in servers.items():
            if stopping.is_set():
                return
            if _died(name, server):
                failures[name] = 0 if _restarted(name, server) else failures[name] + 1


def _wait_s(poll_s: float, failures: Mapping[str, int]) -> float:
    """The poll interval, or after failed restarts a doubling wait (capped)."""
    worst = max(failures.values(), default=0)
    return poll_s if worst == 0 else min(poll_s * 2**worst, MAX_BACKOFF_S)


def _died(name: str, server: Supervised) -> bool:
    proc = server.proc
    if proc is None or proc.poll() is None:
        return False
    structlog.get_logger("twin").warning(
        "embedded_store_died", store=name, pid=proc.pid, returncode=proc.returncode
    )
    return True


def _restarted(name: str, server: Supervised) -> bool:
    log = structlog.get_logger("twin")
    try:
        server.restart()
    except (EmbeddedStoreError, OSError) as exc:
        log.warning("embedded_store_restart_failed", store=name, error=str(exc).splitlines()[0])
        return False
    log.info("embedded_store_restarted", store=name, pid=server.proc.pid if server.proc else None)
    return True
