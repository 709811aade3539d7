"""An episode's row as indexed, its vector, and the repair sweep of the ``episodes`` collection
(the index is never the truth): the part of the episode model that the node writing episodes
(reflection-writer) and the one restoring them (memory-upserter's import) share.

An episode row is committed with ``indexed_at`` NULL; its point is upserted after the commit,
and only then is ``indexed_at`` stamped. An index outage (or a crash in between) therefore
leaves rows with ``indexed_at IS NULL``, which :func:`reindex_episodes` finds: at the end of
every consolidation call, and right after an import. (Fact rows have their own sweep:
:mod:`.index`.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import asyncpg
import structlog

from services.core.deps import Connection, Database
from services.core.embedder import Embedder
from services.core.errors import DependencyUnavailable
from services.core.vectors import VectorIndex, VectorPoint


def embedding_text(one_liner: str, reflection_text: str) -> str:
    """What an episode's vector is made of: the one-liner, then the reflection."""
    return f"{one_liner}\n{reflection_text}".strip()


@dataclass(frozen=True)
class EpisodeRow:
    episode_id: str
    user_id: str
    agent_id: str
    chat_id: str
    session_id: str
    ts: datetime
    day: date
    importance: float
    reflection: str
    reflection_json: dict[str, Any]
    summary: dict[str, Any]
    entity_ids: list[str]
    tags: list[str]
    first_message_seq: int
    last_message_seq: int
    provenance: dict[str, Any]
    previous_episode_id: str | None
    text: str  # what the vector is made of


def vector_payload(row: EpisodeRow) -> dict[str, Any]:
    ids = row.provenance.get("message_ids") or []
    return {
        "user_id": row.user_id,
        "agent_id": row.agent_id,
        "scope": "agent",
        "entity_ids": list(row.entity_ids),
        "active": True,
        "kind": "episode",
        "row_id": row.episode_id,
        "ts": int(row.ts.timestamp()),
        "day": row.day.isoformat(),
        "session_id": row.session_id,
        "chat_id": row.chat_id,
        "message_ids": [ids[0], ids[-1]] if ids else [],
        "importance": row.importance,
    }


async def mark_episodes_indexed(
    conn: Connection, episode_ids: Sequence[str], now: datetime
) -> None:
    await conn.execute(
        "UPDATE episodes SET indexed_at = $2 WHERE episode_id = ANY($1::uuid[])",
        list(episode_ids),
        now,
    )


async def unindexed_episodes(
    conn: Connection, user_id: str | None, limit: int
) -> list[asyncpg.Record]:
    """Active episodes whose vector was never written (a crash or an index outage)."""
    return await conn.fetch(
        """SELECT episode_id::text, user_id, agent_id, chat_id, session_id::text, ts, day,
                  importance::float8, reflection, summary, reflection_json, entity_ids, tags,
                  first_message_seq, last_message_seq, provenance,
                  previous_episode_id::text
             FROM episodes
            WHERE indexed_at IS NULL AND active AND ($1::text IS NULL OR user_id = $1)
            ORDER BY created_at LIMIT $2""",
        user_id,
        limit,
    )


REPAIR_BATCH = 50
log = structlog.get_logger("twin.reflection")


async def reindex_episodes(
    db: Database, embedder: Embedder, vectors: VectorIndex, user_id: str | None, now: datetime
) -> int:
    """Write the missing vectors of active episodes (``indexed_at IS NULL``); how many."""
    async with db.acquire() as conn:
        rows = await unindexed_episodes(conn, user_id, REPAIR_BATCH)
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
        await mark_episodes_indexed(conn, [e.episode_id for e in episodes], now)
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
