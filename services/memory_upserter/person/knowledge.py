"""``POST /v1/knowledge`` (003 §2.4): a markdown document into an agent's library.

Chunks (:mod:`.chunking`) are upserted by content hash in one transaction, section by section
in batches: a chunk already stored is left alone (not even re-embedded; only its position
moves), a new one is inserted unindexed, and the document's chunks that are no longer in it —
a changed section's old text — are deleted with their vectors. Then the new chunks are embedded
and indexed in batches, read back from Postgres so the document is never held twice. A failing
embedder or index leaves them unindexed (warned); POST /v1/reindex or a re-ingest finishes it.

Vector points (collection ``knowledge``): id = ``chunk_id``; owner ``user_id`` = the user for a
user-specific document, else ``SHARED_OWNER`` (every user of the agent); ``agent_id`` = the
agent, ``scope`` = 'agent'; payload ``doc_id``, ``domain`` — no text, title or section (the
index holds no plaintext; readers take them from ``knowledge_chunks`` by id).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from uuid import UUID

import asyncpg
import msgspec

from contracts.memory import Notice
from contracts.memory_admin import KnowledgeRequest, KnowledgeResponse
from services.core.deps import Connection, Database
from services.core.embedder import Embedder
from services.core.errors import DependencyUnavailable
from services.core.memory_store import mark_indexed
from services.core.vectors import VectorIndex, VectorPoint
from services.core.vectors.port import SHARED_OWNER
from services.memory_upserter.person.chunking import Chunk, chunks

BATCH = 32
KNOWLEDGE = "knowledge"

_EXISTING = """
SELECT content_hash, chunk_id, position FROM knowledge_chunks
 WHERE agent_id = $1 AND COALESCE(user_id, '') = $2 AND doc_id = $3
"""
_INSERT = """
INSERT INTO knowledge_chunks (chunk_id, agent_id, user_id, domain, doc_id, doc_title,
                              section_path, position, text, content_hash, token_count,
                              created_at, updated_at)
SELECT gen_random_uuid(), $1, NULLIF($2, ''), $3, $4, $5, c.section::jsonb, c.position,
       c.text, c.hash, c.tokens, $6, $6
  FROM unnest($7::text[], $8::int4[], $9::text[], $10::text[], $11::int4[])
       AS c(section, position, text, hash, tokens)
ON CONFLICT (agent_id, COALESCE(user_id, ''), doc_id, content_hash) DO NOTHING
"""
_MOVE = """
UPDATE knowledge_chunks k SET position = m.position, domain = $2, doc_title = $3,
                              active = true, updated_at = $4,
                              indexed_at = CASE WHEN k.domain <> $2 OR k.doc_title IS DISTINCT
                                                FROM $3 OR NOT k.active THEN NULL
                                                ELSE k.indexed_at END
  FROM unnest($1::uuid[], $5::int4[]) AS m(id, position)
 WHERE k.chunk_id = m.id AND (k.position <> m.position OR NOT k.active OR k.domain <> $2
                              OR k.doc_title IS DISTINCT FROM $3)
"""
_REMOVE = "DELETE FROM knowledge_chunks WHERE chunk_id = ANY($1::uuid[])"
_UNINDEXED = """
SELECT chunk_id, agent_id, user_id, domain, doc_id, doc_title, section_path, text, updated_at
  FROM knowledge_chunks
 WHERE indexed_at IS NULL AND active
   AND ($1::text IS NULL OR agent_id = $1) AND ($2::text IS NULL OR doc_id = $2)
   AND ($3::text IS NULL OR user_id = $3) AND ($4::bool IS NOT TRUE OR user_id IS NULL)
 ORDER BY created_at, position LIMIT $5
"""


async def ingest(
    db: Database, vectors: VectorIndex, embedder: Embedder, req: KnowledgeRequest
) -> KnowledgeResponse:
    owner = req.user_id or ""
    now = datetime.now(UTC)
    async with db.acquire() as conn, conn.transaction():
        existing = await _existing(conn, req, owner)
        stored = await _store(conn, req, owner, now, existing)
    indexed, warnings = await _index(db, vectors, embedder, req, stored.stale)
    return KnowledgeResponse(
        agent_id=req.agent_id,
        doc_id=req.doc_id,
        user_id=req.user_id,
        chunks=stored.chunks,
        added=stored.added,
        unchanged=stored.unchanged,
        removed=len(stored.stale),
        indexed=indexed,
        warnings=warnings,
    )


@dataclass(frozen=True)
class _Stored:
    """What the document's chunks did to the stored ones."""

    chunks: int
    added: int
    unchanged: int
    stale: list[UUID]  # removed: no longer in the document


async def _existing(
    conn: Connection, req: KnowledgeRequest, owner: str
) -> dict[str, tuple[UUID, int]]:
    """The document's stored chunks by content hash, under the document's lock (agent and user
    rows made first)."""
    await conn.execute(
        """WITH a AS (INSERT INTO agents (agent_id) VALUES ($1) ON CONFLICT DO NOTHING)
           INSERT INTO users (user_id) SELECT $2 WHERE $2 <> '' ON CONFLICT DO NOTHING""",
        req.agent_id,
        owner,
    )
    await conn.execute(
        "SELECT pg_advisory_xact_lock($1::bigint)", _doc_lock(req.agent_id, owner, req.doc_id)
    )
    return {
        r["content_hash"]: (r["chunk_id"], r["position"])
        for r in await conn.fetch(_EXISTING, req.agent_id, owner, req.doc_id)
    }


async def _store(
    conn: Connection,
    req: KnowledgeRequest,
    owner: str,
    now: datetime,
    existing: dict[str, tuple[UUID, int]],
) -> _Stored:
    """New chunks inserted (in batches), kept ones moved to their new place, stale removed."""
    added = unchanged = 0
    seen: set[str] = set()
    new: list[Chunk] = []
    moved: dict[UUID, int] = {}  # chunk id → its new position
    for chunk in chunks(req.text):
        if chunk.content_hash in seen:
            continue  # the same text twice under the same heading is one chunk
        seen.add(chunk.content_hash)
        if chunk.content_hash in existing:
            unchanged += 1
            moved[existing[chunk.content_hash][0]] = chunk.position
        else:
            added += 1
            new.append(chunk)
        if len(new) >= BATCH:
            await _insert(conn, req, owner, now, new)
            new = []
    if new:
        await _insert(conn, req, owner, now, new)
    if moved:
        await conn.execute(_MOVE, list(moved), req.domain, req.title, now, list(moved.values()))
    stale = [chunk_id for h, (chunk_id, _) in existing.items() if h not in seen]
    if stale:
        await conn.execute(_REMOVE, stale)
    return _Stored(len(seen), added, unchanged, stale)


async def _index(
    db: Database,
    vectors: VectorIndex,
    embedder: Embedder,
    req: KnowledgeRequest,
    stale: list[UUID],
) -> tuple[int, list[Notice]]:
    """The stale chunks' vectors deleted, the new ones indexed; a notice when either failed."""
    try:
        if stale:
            await vectors.delete(
                KNOWLEDGE, user_id=req.user_id or SHARED_OWNER, ids=[str(s) for s in stale]
            )
        indexed = await index_chunks(
            db,
            vectors,
            embedder,
            agent_id=req.agent_id,
            doc_id=req.doc_id,
            user_id=req.user_id,
            shared_only=req.user_id is None,
        )
    except DependencyUnavailable as exc:
        return 0, [
            Notice(
                code="vectors_unindexed",
                detail=(
                    f"{exc.dependency} unavailable: the chunks are stored but not all indexed; "
                    "POST /v1/reindex (or ingesting again) finishes it"
                ),
            )
        ]
    return indexed, []


async def _insert(
    conn: Connection,
    req: KnowledgeRequest,
    owner: str,
    now: datetime,
    new: Sequence[Chunk],
) -> None:
    await conn.execute(
        _INSERT,
        req.agent_id,
        owner,
        req.domain,
        req.doc_id,
        req.title,
        now,
        [msgspec.json.encode(c.section).decode() for c in new],
        [c.position for c in new],
        [c.text for c in new],
        [c.content_hash for c in new],
        [len(c.text.split()) for c in new],
    )


async def index_chunks(
    pool: Database,
    vectors: VectorIndex,
    embedder: Embedder,
    *,
    agent_id: str | None = None,
    doc_id: str | None = None,
    user_id: str | None = None,
    shared_only: bool = False,
    limit: int = 100_000,
) -> int:
    """Embed and index unindexed chunks, a batch at a time; returns how many. Raises
    :class:`DependencyUnavailable` when the embedder or the index fails."""
    done = 0
    while done < limit:
        async with pool.acquire() as conn:
            rows = await conn.fetch(
                _UNINDEXED, agent_id, doc_id, user_id, shared_only, min(BATCH, limit - done)
            )
        if not rows:
            break
        dense = await embedder.embed([_embed_text(r) for r in rows])
        await vectors.upsert(KNOWLEDGE, [_point(r, d) for r, d in zip(rows, dense, strict=True)])
        async with pool.acquire() as conn:
            await mark_indexed(
                conn,
                "knowledge_chunks",
                [r["chunk_id"] for r in rows],
                unchanged_since=max(r["updated_at"] for r in rows),
            )
        done += len(rows)
    return done


def _embed_text(row: asyncpg.Record) -> str:
    section = " > ".join(row["section_path"])
    return f"{section}\n\n{row['text']}" if section else row["text"]


def _point(row: asyncpg.Record, dense: Sequence[float]) -> VectorPoint:
    return VectorPoint(
        id=str(row["chunk_id"]),
        dense=dense,
        text=_embed_text(row),
        payload={
            "user_id": row["user_id"] or SHARED_OWNER,
            "agent_id": row["agent_id"],
            "scope": "agent",
            "entity_ids": [],
            "active": True,
            "doc_id": row["doc_id"],
            "domain": row["domain"],
            "row_id": str(row["chunk_id"]),
        },
    )


def _doc_lock(agent_id: str, owner: str, doc_id: str) -> int:
    digest = hashlib.blake2b(
        f"twin-core:knowledge:{agent_id}:{owner}:{doc_id}".encode(), digest_size=8
    ).digest()
    return int.from_bytes(digest, "big", signed=True)
