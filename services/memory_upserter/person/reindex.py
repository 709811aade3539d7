"""``POST /v1/reindex``: bring the vector index in line with Postgres, cheaply.

Sweeps what a failed embedder or index left behind: facts with ``indexed_at IS NULL`` (live
ones are embedded and upserted, closed or forgotten ones marked inactive), logged messages
never indexed (:func:`..commit.index.sync_turns`, every user's in one batch; also the back-fill
of messages older than that collection), knowledge chunks never indexed and episodes never
indexed (an import, a crash before the vector was written) — every collection, for one user or
for everyone, oldest first, up to ``limit`` rows of each.
Rows already indexed cost nothing: the partial indexes on ``indexed_at IS NULL`` hold only the
backlog.
"""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

from contracts.memory import Notice
from contracts.memory_admin import ReindexRequest, ReindexResponse
from services.core.deps import Connection, Database
from services.core.embedder import Embedder
from services.core.errors import DependencyUnavailable
from services.core.memory_store import (
    index_facts,
    load_fact_rows,
    mark_indexed,
    unindexed_facts,
)
from services.core.memory_store.episode_index import reindex_episodes
from services.core.memory_store.index import grouped_by_user
from services.core.vectors import VectorIndex
from services.memory_upserter.commit.index import OwedTurn, sync_turns
from services.memory_upserter.person.knowledge import index_chunks

_UNINDEXED = """
SELECT user_id, message_id FROM messages
 WHERE indexed_at IS NULL AND active AND ($1::text IS NULL OR user_id = $1)
 ORDER BY created_at LIMIT $2
"""


async def unindexed_messages(
    conn: Connection, user_id: str | None, limit: int
) -> dict[str, list[UUID]]:
    """Live messages the index does not reflect yet, oldest first, grouped by user."""
    return await grouped_by_user(conn, _UNINDEXED, user_id, limit)


async def reindex(
    db: Database, vectors: VectorIndex, embedder: Embedder, req: ReindexRequest
) -> ReindexResponse:
    indexed = deactivated = knowledge = messages = episodes = 0
    warnings: list[Notice] = []
    try:
        async with db.acquire() as conn:
            backlog = await unindexed_facts(conn, req.user_id, req.limit)
        for user_id, ids in backlog.items():
            async with db.acquire() as conn:
                rows = await load_fact_rows(conn, user_id, ids)
            if not rows:
                continue
            await index_facts(vectors, embedder, user_id, rows)
            async with db.acquire() as conn:
                await mark_indexed(
                    conn, "relations", ids, unchanged_since=max(r.updated_at for r in rows)
                )
            indexed += sum(r.active for r in rows)
            deactivated += sum(not r.active for r in rows)
        async with db.acquire() as conn:
            waiting = await unindexed_messages(conn, req.user_id, req.limit)
        owed = [OwedTurn(user_id, ids, []) for user_id, ids in waiting.items()]
        if warning := await sync_turns(db, vectors, embedder, owed):
            raise DependencyUnavailable("vectors", warning)
        messages = sum(len(ids) for ids in waiting.values())
        knowledge = await index_chunks(db, vectors, embedder, user_id=req.user_id, limit=req.limit)
        episodes = await _episodes(db, vectors, embedder, req)
    except DependencyUnavailable as exc:
        warnings.append(
            Notice(
                code="vectors_unindexed", detail=f"{exc.dependency} unavailable; try again later"
            )
        )
    async with db.acquire() as conn:
        remaining = await conn.fetchval(
            """SELECT EXISTS (SELECT 1 FROM relations WHERE indexed_at IS NULL
                                 AND ($1::text IS NULL OR user_id = $1))
                   OR EXISTS (SELECT 1 FROM knowledge_chunks WHERE indexed_at IS NULL AND active
                                 AND ($1::text IS NULL OR user_id = $1))
                   OR EXISTS (SELECT 1 FROM messages WHERE indexed_at IS NULL AND active
                                 AND ($1::text IS NULL OR user_id = $1))
                   OR EXISTS (SELECT 1 FROM episodes WHERE indexed_at IS NULL AND active
                                 AND ($1::text IS NULL OR user_id = $1))""",
            req.user_id,
        )
    return ReindexResponse(
        facts_indexed=indexed,
        facts_deactivated=deactivated,
        knowledge_indexed=knowledge,
        remaining=remaining,
        warnings=warnings,
        messages_indexed=messages,
        episodes_indexed=episodes,
    )


async def _episodes(
    db: Database, vectors: VectorIndex, embedder: Embedder, req: ReindexRequest
) -> int:
    """Episodes never indexed, batch by batch, up to ``limit``."""
    done = 0
    while done < req.limit:
        batch = await reindex_episodes(db, embedder, vectors, req.user_id, datetime.now(UTC))
        if not batch:
            break
        done += batch
    return done
