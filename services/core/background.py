"""Work a node finishes after answering: tracked, logged, and awaited at shutdown.

memory-upserter answers a turn once Postgres holds it; embedding the turn's messages and facts
into the vector index (derived data, repaired by the ``indexed_at`` sweep if lost) runs here,
after the reply. A task is never fire-and-forget: its failure is logged, and
:meth:`Background.drain` — called when the clients close (graceful shutdown) and by tests
that read the index right after a write — waits for every task still running.

**Backpressure.** At most :data:`MAX_PENDING` tasks run at once; past that, :meth:`has_room`
is False and the caller does the work before answering. Without the bound, a burst of writes
(a history import, a load test) piles up embedding work behind which every fast-brain query
embedding waits: measured, the chain fell to 0 turns/s after a commit burst at concurrency 16.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import structlog

MAX_PENDING = 4


class Background:
    def __init__(self, max_pending: int = MAX_PENDING) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self._max_pending = max_pending

    def has_room(self) -> bool:
        """Whether one more task may start now (else do the work in the request)."""
        return len(self._tasks) < self._max_pending

    def spawn(self, work: Coroutine[Any, Any, Any], name: str) -> None:
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            structlog.get_logger().warning(
                "background_task_failed", task=task.get_name(), error=repr(task.exception())
            )

    @property
    def pending(self) -> int:
        return len(self._tasks)

    async def drain(self, within_s: float = 10.0) -> None:
        """Wait for every running task (and those they start), at most ``within_s`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within_s
        while self._tasks:
            left = deadline - loop.time()
            if left <= 0:
                structlog.get_logger().warning("background_tasks_abandoned", count=len(self._tasks))
                return
            await asyncio.wait(set(self._tasks), timeout=left)
