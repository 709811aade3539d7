"""Work a node finishes after answering: tracked, logged, and awaited at shutdown.

memory-upserter answers a turn once Postgres holds it; embedding the turn's messages and facts
into the vector index (derived data, repaired by the ``indexed_at`` sweep if lost) runs here,
after the reply. A task is never fire-and-forget: its failure is logged, and
:meth:`Background.drain` — called when the clients close (graceful shutdown) and by tests
that read the index right after a write — waits for every task still running.

**Backpressure.** At most :data:`MAX_PENDING` tasks run at once. Without the bound, a burst
of writes (a history import, a load test) piles up embedding work behind which every
fast-brain query embedding waits: measured, the chain fell to 0 turns/s after a commit burst
at concurrency 16. Work :meth:`submit`-ted past that bound waits in a queue of at most
:data:`MAX_QUEUED` items and starts as running tasks finish, several queued items of one kind
in one task, so the writer answers at once, a burst is worked off in larger batches, and
readers still wait behind at most :data:`MAX_PENDING` tasks' work; past the queue's bound
``submit`` refuses, and the caller leaves the work to its sweep (or does it itself).
(:meth:`has_room` + :meth:`spawn` is the form without a queue.)
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

import structlog

MAX_PENDING = 4
MAX_QUEUED = 10_000  # queued work is a closure over a few ids: ~1 KB each

Run = Callable[[list[Any]], Coroutine[Any, Any, Any]]


class Background:
    def __init__(self, max_pending: int = MAX_PENDING, max_queued: int = MAX_QUEUED) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self._max_pending = max_pending
        self._queue: deque[tuple[str, Any, Run, int]] = deque()  # name, item, run, batch
        self._max_queued = max_queued

    def has_room(self) -> bool:
        """Whether one more task may start now (else do the work in the request)."""
        return len(self._tasks) < self._max_pending

    def spawn(self, work: Coroutine[Any, Any, Any], name: str) -> None:
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def submit(self, name: str, item: Any, run: Run, *, batch: int = 1) -> bool:
        """Start ``run([item])`` now if there is room, else queue ``item`` (first in, first
        out); False, and nothing started, when the queue is full too. A queued item starts
        with up to ``batch - 1`` more of the same ``name`` queued right behind it, in one
        ``run`` (the first one's): a burst of small jobs (a turn's vectors) is done in fewer,
        larger ones. Queued work holds no coroutine until it starts."""
        if self.has_room():
            self.spawn(run([item]), name=name)
            return True
        if len(self._queue) >= self._max_queued:
            return False
        self._queue.append((name, item, run, batch))
        return True

    def _start_queued(self) -> None:
        while self._queue and self.has_room():
            name, item, run, batch = self._queue.popleft()
            items = [item]
            while self._queue and self._queue[0][0] == name and len(items) < batch:
                items.append(self._queue.popleft()[1])
            self.spawn(run(items), name=name)

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            structlog.get_logger().warning(
                "background_task_failed", task=task.get_name(), error=repr(task.exception())
            )
        self._start_queued()

    @property
    def pending(self) -> int:
        """Work running or queued."""
        return len(self._tasks) + len(self._queue)

    async def drain(self, within_s: float = 10.0) -> None:
        """Wait for every running task and the queued ones (and those they start), at most
        ``within_s`` seconds; what is still queued then is dropped (logged)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within_s
        while self._tasks:
            left = deadline - loop.time()
            if left <= 0:
                structlog.get_logger().warning("background_tasks_abandoned", count=self.pending)
                self._queue.clear()
                return
            await asyncio.wait(set(self._tasks), timeout=left)
