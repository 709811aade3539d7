"""The floors bench.load measures each route against: raw store round trips (Redis, Postgres)
from this process, and one vector search and one query embedding before the server starts."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence

from bench.common import (
    Stack,
    cpu_seconds,
    percentile,
)
from bench.load import seed as seeding
from bench.load.client import Cell, closed_loop
from bench.load.samples import AGENT, PG_FLOOR_SQL, Sample


async def run_store_floors(
    stack: Stack, manifest: seeding.Manifest, concurrency: int, seconds: float, warmup: float
) -> list[Cell]:
    import asyncpg
    import redis.asyncio as aioredis

    users = [u.user_id for u in manifest.users]
    client = aioredis.Redis.from_url(stack.redis_url, max_connections=max(1, concurrency))
    await client.set("bench:floor", b"x" * 2048)

    async def make_redis(i: int):
        async def get(worker: int, n: int) -> None:
            await client.get("bench:floor")

        return get

    pool = await asyncpg.create_pool(
        stack.dsn, min_size=min(concurrency, 10), max_size=min(concurrency, 10)
    )
    await pool.execute(
        "CREATE TABLE IF NOT EXISTS bench_floor_writes (id bigserial PRIMARY KEY,"
        " user_id text NOT NULL, body jsonb NOT NULL)"
    )

    async def make_pg(i: int):
        async def query(worker: int, n: int) -> None:
            async with pool.acquire() as conn:
                await conn.fetch(PG_FLOOR_SQL, users[(worker * 7919 + n) % len(users)])

        return query

    async def make_pg_write(i: int):
        async def write(worker: int, n: int) -> None:  # one row, one commit: one WAL fsync
            await pool.execute(
                "INSERT INTO bench_floor_writes (user_id, body) VALUES ($1, $2)",
                users[(worker * 7919 + n) % len(users)],
                '{"text": "x"}',
            )

        return write

    try:
        cells = [
            await closed_loop(
                "redis_get",
                concurrency,
                seconds,
                warmup,
                make_redis,
                client_cpu=lambda: cpu_seconds(os.getpid()),
            ),
            await closed_loop(
                "pg_query",
                concurrency,
                seconds,
                warmup,
                make_pg,
                client_cpu=lambda: cpu_seconds(os.getpid()),
            ),
            await closed_loop(
                "pg_write",
                concurrency,
                seconds,
                warmup,
                make_pg_write,
                client_cpu=lambda: cpu_seconds(os.getpid()),
            ),
        ]
    finally:
        await pool.close()
        await client.aclose()
    return cells


async def run_shard_floors(
    qdrant_path: str,
    manifest: seeding.Manifest,
    pool: list[Sample],
    levels: Sequence[int],
    seconds: float,
    warmup: float,
) -> list[Cell]:
    """One hybrid search of the facts collection (rag-gate's widest: 24 candidates, user- and
    agent-filtered) and one MiniLM query embedding, in this process, while no server holds the
    shard. Both serialise inside one process (Edge under its lock, MiniLM on its one worker
    thread), as they do in ``twin up``."""
    from services.core.embedder import MiniLMEmbedder
    from services.core.vectors.edge import EdgeVectorIndex

    embedder = MiniLMEmbedder(threads=1)
    index = EdgeVectorIndex(qdrant_path, dim=384)
    await index.ensure_collections()
    queries = [(s.user_id, s.message) for s in pool]
    dense = await embedder.embed([q for _, q in queries])
    cells = []
    try:

        async def make_vector(i: int):
            async def search(worker: int, n: int) -> None:
                k = (worker * 7919 + n) % len(queries)
                await index.search(
                    "facts",
                    user_id=queries[k][0],
                    agent_id=AGENT,
                    dense=dense[k],
                    text=queries[k][1],
                    limit=24,
                    payload=(),  # as rag-gate asks: ids only (it reads the rows from Postgres)
                )
                await asyncio.sleep(0)  # Edge is synchronous: let the window timer run

            return search

        # A search holds the GIL and the index lock for its whole duration (in `twin up` it
        # blocks the event loop): its floor is its own time, so it is measured once, at
        # concurrency 1, and used at every level.
        vector = await closed_loop(
            "vector_search", 1, seconds, warmup, make_vector, cpu=lambda: cpu_seconds(os.getpid())
        )
        for c in levels:

            async def make_embed(i: int):
                async def embed(worker: int, n: int) -> None:
                    await embedder.embed_query(queries[(worker * 7919 + n) % len(queries)][1])

                return embed

            cells.append(
                Cell(
                    "vector_search",
                    c,
                    vector.seconds,
                    vector.latencies_ms,
                    vector.errors,
                    vector.error_sample,
                    vector.server_cpu_s,
                )
            )
            cells.append(
                await closed_loop(
                    "embed", c, seconds, warmup, make_embed, cpu=lambda: cpu_seconds(os.getpid())
                )
            )
            print(
                f"  c={c}: vector search p95 {percentile(cells[-2].latencies_ms, 95):.2f} ms, "
                f"embed p95 {percentile(cells[-1].latencies_ms, 95):.2f} ms",
                flush=True,
            )
    finally:
        await index.close()
        await embedder.close()
    return cells
