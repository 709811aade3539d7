"""The AI Agent stack's n8n in queue mode, when the shared stack runs in queue mode: its own
Postgres database (``twin_agent_<run>``) and Bull prefix on the shared stack's queue Redis, a
main and a worker (each loads the package from the same user folder, as compose.scale's
workers do from the main's volume)."""

from __future__ import annotations

import asyncio
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import asyncpg
import redis

from tests.e2e.n8n import Queue
from tests.e2e.stack import Stack


def _run(coro: Any) -> Any:
    with ThreadPoolExecutor(1) as pool:  # outside pytest-asyncio's loop
        return pool.submit(asyncio.run, coro).result()


async def _admin(dsn: str, sql: str) -> None:
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def _admin_dsn(queue: Queue) -> str:
    return f"{queue.dsn.rpartition('/')[0]}/postgres"


def agent_queue(stack: Stack) -> Queue | None:
    """A queue of its own for the agent's n8n, or None beside a single-process stack."""
    shared = stack.n8n.queue
    if shared is None:
        return None
    run = uuid.uuid4().hex[:10]
    queue = Queue(
        f"{shared.dsn.rpartition('/')[0]}/twin_agent_{run}", shared.redis_url, f"bull-agent-{run}"
    )
    _run(_admin(_admin_dsn(queue), f'CREATE DATABASE "{queue.database}"'))
    return queue


def drop_agent_queue(queue: Queue) -> None:
    _run(_admin(_admin_dsn(queue), f'DROP DATABASE IF EXISTS "{queue.database}" WITH (FORCE)'))
    client = redis.Redis.from_url(queue.redis_url)
    keys = list(client.scan_iter(match=f"{queue.prefix}:*", count=500))
    if keys:
        client.delete(*keys)
    client.close()
