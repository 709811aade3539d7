"""The ``facts`` collection of the vector index: one point per fact row, never the truth.

Point id = ``rel_id``; the dense and BM25 vectors are of the fact text. Payload: ``user_id``,
``agent_id`` (None for a global fact), ``scope``, ``entity_ids`` ([subject, object]),
``active``, ``memory_type``, ``fact_type``, ``predicate``, ``importance``, ``pinned``,
``source``, ``ts`` (``updated_at``, epoch seconds), ``message_ids`` and ``row_id`` — never the
text (readers take it from ``relations`` by id).

A writer commits its transaction first, then calls :func:`sync_fact_vectors`: it loads the rows,
embeds and upserts the live ones, marks the closed ones inactive, and stamps ``indexed_at``.
When the embedder or the index fails the rows keep ``indexed_at = NULL`` and the sweep
(``POST /v1/reindex``, :func:`unindexed_facts` + this) repairs them later; Postgres already
holds the truth, so the write itself stands.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING
from uuid import UUID

import structlog

from services.core.embedder import Embedder
from services.core.errors import DependencyUnavailable
from services.core.vectors import VectorIndex, VectorPoint

if TYPE_CHECKING:
    from services.core.deps import Connection, Database

FACTS = "facts"
_INDEXED_TABLES = frozenset({"relations": "rel_id", "knowledge_chunks": "chunk_id"}.items())


@dataclass(frozen=True)
class FactIndexRow:
    rel_id: UUID
    scope: str
    agent_id: str | None
    subject_id: UUID
    object_id: UUID | None
    active: bool
    text: str
    memory_type: str
    fact_type: str
    predicate: str
    importance: int
    pinned: bool
    source: str
    updated_at: datetime
    message_ids: tuple[str, ...]


_ROWS = """
SELECT rel_id, scope, agent_id, subject_id, object_id, status = 'ACTIVE' AS active, text,
       memory_type, fact_type, predicate, importance, pinned, source, updated_at,
       provenance_message_ids AS message_ids
  FROM relations WHERE user_id = $1 AND rel_id = ANY($2::uuid[])
   AND (NOT $3 OR indexed_at IS NULL)
"""


async def load_fact_rows(
    conn: Connection,
    user_id: str,
    rel_ids: Sequence[UUID | str],
    *,
    unindexed_only: bool = False,
) -> list[FactIndexRow]:
    """The rows to index; with ``unindexed_only``, only those the index does not reflect yet."""
    rows = await conn.fetch(_ROWS, user_id, [uuid.UUID(str(i)) for i in rel_ids], unindexed_only)
    return [
        FactIndexRow(**{**r, "message_ids": tuple(str(m) for m in r["message_ids"])}) for r in rows
    ]


def fact_point(user_id: str, row: FactIndexRow, dense: Sequence[float]) -> VectorPoint:
    entity_ids = [str(row.subject_id)] + ([str(row.object_id)] if row.object_id else [])
    return VectorPoint(
        id=str(row.rel_id),
        dense=dense,
        text=row.text,
        payload={
            "user_id": user_id,
            "agent_id": row.agent_id,
            "scope": row.scope,
            "entity_ids": entity_ids,
            "active": row.active,
            "memory_type": row.memory_type,
            "fact_type": row.fact_type,
            "predicate": row.predicate,
            "importance": row.importance,
            "pinned": row.pinned,
            "source": row.source,
            "ts": int(row.updated_at.timestamp()),
            "message_ids": list(row.message_ids),
            "row_id": str(row.rel_id),
        },
    )


async def index_facts(
    vectors: VectorIndex, embedder: Embedder, user_id: str, rows: Sequence[FactIndexRow]
) -> None:
    """Upsert the live rows' points (embedded in one batch); mark the others' points inactive.
    Raises :class:`DependencyUnavailable` (embedder or vectors) on failure."""
    live = [r for r in rows if r.active]
    if live:
        dense = await embedder.embed([r.text for r in live])
        await vectors.upsert(
            FACTS, [fact_point(user_id, r, d) for r, d in zip(live, dense, strict=True)]
        )
    closed = [str(r.rel_id) for r in rows if not r.active]
    if closed:
        await vectors.set_active(FACTS, user_id=user_id, ids=closed, active=False)


async def mark_indexed(
    conn: Connection, table: str, ids: Sequence[UUID | str], *, unchanged_since: datetime
) -> None:
    """Stamp ``indexed_at`` on rows not changed after ``unchanged_since``, in one round trip with
    ``synchronous_commit = off``: the stamp is derived data, and a lost stamp only means one
    more reindex. (Literals, not parameters, let the three statements share one simple query;
    they are UUIDs and a timestamp, validated here.)"""
    key = dict(_INDEXED_TABLES).get(table)
    if key is None:
        raise ValueError(f"no indexed_at stamp on {table!r}")
    if not ids:
        return
    literal = ",".join(str(uuid.UUID(str(i))) for i in ids)
    since = unchanged_since.isoformat()
    try:
        await conn.execute(
            "BEGIN; SET LOCAL synchronous_commit = off; "
            f"UPDATE {table} SET indexed_at = now() WHERE {key} = ANY('{{{literal}}}'::uuid[]) "
            f"AND indexed_at IS NULL AND updated_at <= '{since}'::timestamptz; COMMIT"
        )
    except BaseException:
        if not conn.is_closed() and conn.is_in_transaction():
            await conn.execute("ROLLBACK")
        raise


async def sync_fact_vectors(
    pool: Database,
    vectors: VectorIndex | None,
    embedder: Embedder | None,
    user_id: str,
    rel_ids: Sequence[UUID | str],
) -> str | None:
    """Bring the index in line with these rows after their transaction committed. Returns None,
    or a warning when the index could not be written (the rows stay unindexed for the sweep).

    Rows the index already reflects (a fact the turn re-stated unchanged keeps its
    ``indexed_at``) are skipped: they cost no embedding."""
    if not rel_ids:
        return None
    if vectors is None or embedder is None:
        return "the vector index is not configured on this node; facts stay unindexed"
    async with pool.acquire() as conn:
        rows = await load_fact_rows(conn, user_id, rel_ids, unindexed_only=True)
    if not rows:
        return None
    try:
        await index_facts(vectors, embedder, user_id, rows)
    except DependencyUnavailable as exc:
        structlog.get_logger().warning(
            "facts_unindexed", dependency=exc.dependency, count=len(rows)
        )
        return (
            f"{exc.dependency} unavailable: {len(rows)} fact(s) saved but not indexed yet; "
            "POST /v1/reindex (or the next sweep) indexes them"
        )
    async with pool.acquire() as conn:
        await mark_indexed(
            conn,
            "relations",
            [r.rel_id for r in rows],
            unchanged_since=max(r.updated_at for r in rows),
        )
    return None


_UNINDEXED = """
SELECT user_id, rel_id FROM relations
 WHERE indexed_at IS NULL AND ($1::text IS NULL OR user_id = $1)
 ORDER BY created_at LIMIT $2
"""


async def unindexed_facts(
    conn: Connection, user_id: str | None, limit: int
) -> dict[str, list[UUID]]:
    """Rows the index does not reflect yet, oldest first, grouped by user."""
    return await grouped_by_user(conn, _UNINDEXED, user_id, limit)


async def grouped_by_user(
    conn: Connection, sql: str, user_id: str | None, limit: int
) -> dict[str, list[UUID]]:
    """``sql``'s rows (``user_id``, an id; parameters: the user or NULL, the limit), in their
    order, grouped by user."""
    grouped: dict[str, list[UUID]] = {}
    for owner, row_id in await conn.fetch(sql, user_id, limit):
        grouped.setdefault(owner, []).append(row_id)
    return grouped
