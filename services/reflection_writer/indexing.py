"""The repair sweep of the ``episodes`` collection (the index is never the truth).

An episode row is committed with ``indexed_at`` NULL; its point is upserted after the commit,
and only then is ``indexed_at`` stamped. An index outage (or a crash in between) therefore
leaves rows with ``indexed_at IS NULL``, which this sweep finds at the end of every
consolidation call. (Fact rows have memory-upserter's sweep: ``memory_store.index``.)
"""

from __future__ import annotations

from datetime import datetime

import asyncpg
import structlog

from services.core.deps import Database
from services.core.embedder import Embedder
from services.core.errors import DependencyUnavailable
from services.core.vectors import VectorIndex, VectorPoint
from services.reflection_writer import store
from services.reflection_writer.episode import EpisodeRow, embedding_text, vector_payload

REPAIR_BATCH = 50
log = structlog.get_logger("twin.reflection")


async def reindex_episodes(
    db: Database, embedder: Embedder, vectors: VectorIndex, user_id: str | None, now: datetime
) -> int:
    """Write the missing vectors of active episodes (``indexed_at IS NULL``); how many."""
    async with db.acquire() as conn:
        rows = await store.unindexed_episodes(conn, user_id, REPAIR_BATCH)
    if not rows:
        return 0
    episodes = [_row(r) for r in rows]
    try:
        dense = await embedder.embed([e.text for e in episodes])
        await vectors.upsert(
            "episodes",
            [
                VectorPoint(id=e.episode_id, dense=d, text=e.text, payload=vector_payload(e))
                for e, d in zip(episodes, dense, strict=True)
            ],
        )
    except DependencyUnavailable as exc:
        log.warning("episode_repair_failed", pending=len(episodes), error=str(exc)[:200])
        return 0
    async with db.acquire() as conn:
        await store.mark_indexed(conn, [e.episode_id for e in episodes], now)
    return len(episodes)


def _row(r: asyncpg.Record) -> EpisodeRow:
    summary = r["summary"] or {}
    return EpisodeRow(
        episode_id=r["episode_id"],
        user_id=r["user_id"],
        agent_id=r["agent_id"],
        chat_id=r["chat_id"] or "",
        session_id=r["session_id"] or "",
        ts=r["ts"],
        day=r["day"],
        importance=r["importance"],
        reflection=r["reflection"],
        reflection_json=r["reflection_json"],
        summary=summary,
        entity_ids=list(r["entity_ids"]),
        tags=list(r["tags"]),
        first_message_seq=r["first_message_seq"],
        last_message_seq=r["last_message_seq"],
        provenance=r["provenance"] or {},
        previous_episode_id=r["previous_episode_id"],
        text=embedding_text(str(summary.get("one_liner", "")), r["reflection"]),
    )
