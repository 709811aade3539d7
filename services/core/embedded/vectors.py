"""The embedded vector index's folder belongs to one process.

Qdrant Edge opens its shards under ``QDRANT_PATH`` with an exclusive lock on each write-ahead
log: a second ``twin up`` (or ``twin serve``) on the same folder used to start anyway, share
the Postgres and Redis, and answer 503 for everything vector-backed (``Can't init WAL:
WouldBlock``). So the process that serves the folder holds ``<folder>.lock`` (beside it, not
in it: the folder's entries are collections), and a second one stops before it serves,
naming the process that holds it. The kernel drops the lock when the holder exits, ``kill -9``
included, so a crash never leaves the folder locked.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from services.core.embedded.process import EmbeddedStoreError


@contextmanager
def vector_folder_held(folder: Path) -> Iterator[None]:
    """Hold ``folder``'s lock while the block runs; :class:`EmbeddedStoreError` naming the
    holder when another process has it."""
    lock = folder.parent / f"{folder.name}.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise EmbeddedStoreError(_in_use(folder, os.pread(fd, 64, 0))) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # releases the lock


def _in_use(folder: Path, recorded: bytes) -> str:
    holder = recorded.decode(errors="replace").strip()
    who = f"process {holder}{_command_of(holder)}" if holder.isdigit() else "another process"
    return (
        f"the vector folder {folder.absolute()} is in use by {who}: one process serves an "
        "embedded Qdrant Edge folder. A running `twin up` already serves all six nodes (talk "
        "to it: `uv run twin chat`); to run a second stack, give it its own TWIN_DATA_DIR, "
        "QDRANT_PATH and TWIN_PORT_OFFSET; nodes in separate processes share a Qdrant server "
        "(QDRANT_URL)"
    )


def _command_of(pid: str) -> str:
    """`` (python3 twin up)``: the holder's command line, paths cut to their names, when this
    system shows it."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return ""
    words = [Path(a.decode(errors="replace")).name for a in argv if a]
    return f" ({' '.join(words)[:80]})" if words else ""
