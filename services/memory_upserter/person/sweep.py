"""The index sweep: what an interrupted indexing left behind, indexed without anyone asking.

A commit answers once Postgres holds the turn and indexes it after the reply
(``TWIN_INDEX_AFTER_REPLY``); a crash or an index outage in between leaves rows with
``indexed_at IS NULL`` that no search finds. memory-upserter therefore runs
:func:`.reindex.reindex` (the one repair: facts, messages, knowledge chunks, episodes) for every
user at start and then every ``TWIN_INDEX_SWEEP_S`` seconds (``0``: never):

- in batches of :data:`SWEEP_BATCH` rows per collection, yielding the event loop between them,
  and at most :data:`MAX_BATCHES` per tick (the rest waits for the next tick);
- not while the vector index is down: one ping, a log line, and the next tick tries again;
- idempotent: an indexed row is stamped and never swept again, so two processes sweeping at
  once only repeat an upsert;
- stopped on shutdown (the task is cancelled before the clients close; a row cut off mid-batch
  stays unindexed for the next start).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import structlog
from litestar import Litestar

from contracts.memory_admin import ReindexRequest, ReindexResponse
from services.core.deps import Clients
from services.core.vectors import VectorIndexUnavailable
from services.memory_upserter.person.reindex import reindex

SWEEP_BATCH = 200
MAX_BATCHES = 50


def swept_rows(answer: ReindexResponse) -> int:
    """Rows one reindex call brought in line with Postgres."""
    return (
        answer.facts_indexed
        + answer.facts_deactivated
        + answer.knowledge_indexed
        + answer.messages_indexed
        + answer.episodes_indexed
    )


async def sweep_backlog(clients: Clients) -> int | None:
    """Index every user's unindexed rows, batch by batch; how many, or None when the index is
    down (nothing tried)."""
    log = structlog.get_logger()
    try:
        await clients.vectors.ping()
    except VectorIndexUnavailable:
        log.warning("index_sweep_skipped", reason="vectors unavailable")
        return None
    total = 0
    for _ in range(MAX_BATCHES):
        answer = await reindex(
            clients.db, clients.vectors, clients.embedder, ReindexRequest(limit=SWEEP_BATCH)
        )
        total += swept_rows(answer)
        if answer.warnings or not answer.remaining or not swept_rows(answer):
            break
        await asyncio.sleep(0)  # requests go between batches
    if total:
        log.info("index_swept", rows=total)
    return total


async def sweep_every(clients: Clients, every_s: float) -> None:
    """Sweep now, then every ``every_s`` seconds, until cancelled; a failed tick (Postgres
    down) is logged and the next one tries again."""
    while True:
        try:
            await sweep_backlog(clients)
        except Exception as exc:  # a tick never ends the loop
            structlog.get_logger().warning("index_sweep_failed", error=type(exc).__name__)
        await asyncio.sleep(every_s)


@contextlib.asynccontextmanager
async def index_sweep(app: Litestar) -> AsyncIterator[None]:
    """The node's lifespan part: the sweep runs while the node serves."""
    every_s = app.state.settings.index_sweep_s
    if every_s <= 0:
        yield
        return
    task = asyncio.create_task(sweep_every(app.state.clients, every_s), name="index_sweep")
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
