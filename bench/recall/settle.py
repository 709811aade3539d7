"""Right after a conversation's ingest: how the first questions fare while the index still
works through the backlog, then a wait until it has caught up.

A conversation is committed turn after turn much faster than anyone talks, and its messages
are indexed after each commit's answer; BEAM's last batch (~100 long replies) leaves a backlog
of several seconds. :func:`first_questions` asks the first few questions at once, timed, not
scored (the *first-question stall*: a search query waiting behind the documents); then
:func:`wait_indexed` waits until every message, live fact and episode of the user is indexed, so
that recall is measured on the memory as it stands, not on how far the indexing got when a
question happened to come (with a query lane the questions come faster than the indexing, and
a question about the last batch would miss it).
"""

from __future__ import annotations

import asyncio
import time

import asyncpg
import httpx

from bench.common import Stack
from bench.recall import data, product

FIRST = 3  # questions asked right after the ingest, timed only
WAIT_S = 120.0
POLL_S = 0.2
_UNINDEXED = """
SELECT (SELECT count(*) FROM messages WHERE user_id = $1 AND active AND indexed_at IS NULL)
     + (SELECT count(*) FROM episodes WHERE user_id = $1 AND active AND indexed_at IS NULL)
     + (SELECT count(*) FROM relations
         WHERE user_id = $1 AND status = 'ACTIVE' AND indexed_at IS NULL)
"""


async def first_questions(
    client: httpx.AsyncClient, stack: Stack, conversation: data.Conversation
) -> tuple[list[float], int]:
    """The retrieve latency (ms) of the first :data:`FIRST` questions asked right after the
    ingest, and how many rows were still unindexed when they began."""
    backlog = await unindexed(stack.dsn, conversation)
    out = []
    for question in data.scored_questions(conversation)[:FIRST]:
        answer = await product.ask(
            client, stack.url("graph-hydrator"), stack.url("rag-gate"), conversation, question
        )
        out.append(round(answer.retrieve_ms, 1))
    return out, backlog


async def unindexed(dsn: str, conversation: data.Conversation) -> int:
    conn = await asyncpg.connect(dsn)
    try:
        return int(await conn.fetchval(_UNINDEXED, product.user_of(conversation)))
    finally:
        await conn.close()


async def wait_indexed(dsn: str, conversation: data.Conversation) -> float:
    """Seconds until nothing of the conversation's user is left to index (at most WAIT_S)."""
    started = time.perf_counter()
    for _ in range(int(WAIT_S / POLL_S)):
        if not await unindexed(dsn, conversation):
            break
        await asyncio.sleep(POLL_S)
    return time.perf_counter() - started
