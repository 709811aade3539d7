"""The retrieval half of a forget, after its transaction committed: the vectors of what was
forgotten go inactive (soft) or are deleted (hard), the message points whose indexed text still
mentions it are rewritten (:func:`reindex_mentions`), and the working memory loses it. Failures
become warnings: the rows are already forgotten, and every Postgres read filters inactive
rows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from uuid import UUID

from contracts.memory import Notice
from services.core.deps import Database
from services.core.embedder import Embedder
from services.core.errors import DependencyUnavailable
from services.core.memory_store import mark_indexed
from services.core.memory_store.message_index import (
    MESSAGES,
    embedding_text,
    load_message_rows,
    message_point,
    unmark_messages,
)
from services.core.vectors import COLLECTIONS, VectorIndex
from services.core.working_memory import ConcurrentUpdate
from services.memory_upserter.forget.redact import Needles
from services.memory_upserter.forget.types import Forgotten
from services.memory_upserter.forget.working_memory import (
    Reach,
    RedisEffect,
    forget_in_working_memory,
)
from services.memory_upserter.stores import MemoryStores


@dataclass(frozen=True)
class Cleaned:
    """What the clean-up reached: points and conversations counted, and what failed."""

    counts: Counter[str] = field(default_factory=Counter)
    warnings: list[Notice] = field(default_factory=list)
    redis: RedisEffect = field(default_factory=RedisEffect)
    purged: list[str] = field(default_factory=list)  # collections rewritten (hard)
    unpurged: list[str] = field(default_factory=list)  # touched, and not rewritten


async def clean_up(
    stores: MemoryStores, user_id: str, done: Forgotten, *, hard: bool, agent_scope: str | None
) -> Cleaned:
    counts: Counter[str] = Counter()
    warnings: list[Notice] = []
    try:  # counts what it reached before a failure: a hard forget purges what it deleted
        await _vectors(stores, user_id, done, hard=hard, counts=counts)
    except DependencyUnavailable as exc:
        warnings.append(
            Notice(
                code="vectors_not_updated",
                detail=(
                    f"{exc.dependency} unavailable: forgotten rows may still have vectors; "
                    "POST /v1/reindex marks forgotten facts inactive"
                ),
            )
        )
    reach = Reach(
        wipe_user=done.wipe_user,
        wipe_agent=done.wipe_agent,
        session_chat=done.session_chat,
        entity_ids={str(i) for i in done.effects.ids.get("entities", [])},
        message_ids={str(i) for i in done.effects.ids.get("messages", [])},
        needles=Needles(done.names, done.texts),
    )
    redis = RedisEffect()
    try:
        redis = await forget_in_working_memory(
            stores.memory, user_id, reach, agent_scope=agent_scope
        )
        counts["working_memory"] += redis.conversations
    except (ConcurrentUpdate, DependencyUnavailable, OSError) as exc:
        warnings.append(
            Notice(
                code="working_memory_not_updated",
                detail=f"working memory not cleaned: {type(exc).__name__}",
            )
        )
    purged: list[str] = []
    unpurged: list[str] = []
    if hard:
        purged, unpurged = await _purge(stores.vectors, _touched(counts, wipe=done.wipe_user))
        if unpurged:
            warnings.append(
                Notice(
                    code="vectors_not_compacted",
                    detail="the vector index kept the deleted points' files: see the receipt",
                )
            )
    return Cleaned(counts, warnings, redis, purged, unpurged)


def _touched(counts: Counter[str], *, wipe: bool) -> list[str]:
    """The collections a hard forget deleted or rewrote points in."""
    return [
        c for c in COLLECTIONS if wipe or counts[f"{c}_vectors"] or counts[f"{c}_vectors_rewritten"]
    ]


async def _purge(vectors: VectorIndex, collections: list[str]) -> tuple[list[str], list[str]]:
    """Rewrite each collection's files (:meth:`VectorIndex.purge`); returns (rewritten, not)."""
    purged: list[str] = []
    for collection in collections:
        try:
            if await vectors.purge(collection):
                purged.append(collection)
        except DependencyUnavailable:
            pass
    return purged, [c for c in collections if c not in purged]


async def _vectors(
    stores: MemoryStores, user_id: str, done: Forgotten, *, hard: bool, counts: Counter[str]
) -> None:
    vectors = stores.vectors
    if done.wipe_user and hard:
        for collection in ("facts", "episodes", "knowledge", "messages"):
            counts[f"{collection}_vectors"] += await vectors.delete(collection, user_id=user_id)
        return
    for kind, collection in (
        ("facts", "facts"),
        ("episodes", "episodes"),
        ("messages", "messages"),
    ):
        ids = [str(i) for i in done.effects.ids.get(kind, [])]
        if not ids:
            continue
        if hard:
            counts[f"{collection}_vectors"] += await vectors.delete(
                collection, user_id=user_id, ids=ids
            )
        else:
            counts[f"{collection}_vectors"] += await vectors.set_active(
                collection, user_id=user_id, ids=ids, active=False
            )
    redacted = [
        *done.effects.ids.get("messages_redacted", []),
        *done.effects.ids.get("messages_following", []),
    ]
    if done.effects.ids.get("messages") or redacted:
        counts["messages_vectors_rewritten"] += await reindex_mentions(
            stores.db, vectors, stores.embedder, user_id, [*done.names, *done.texts], redacted
        )
    facts = done.effects.ids.get("facts", [])
    if facts and not hard:
        async with stores.db.acquire() as conn:
            await mark_indexed(conn, "relations", facts, unchanged_since=datetime.now(UTC))


async def reindex_mentions(
    pool: Database,
    vectors: VectorIndex,
    embedder: Embedder,
    user_id: str,
    needles: Sequence[str],
    redacted: Sequence[UUID] = (),
    limit: int = 50,
) -> int:
    """After a forget: re-index the ``redacted`` messages and the user's message points whose
    BM25 text still mentions a forgotten name or text — a kept message carries the message
    before it in its indexed text (:func:`index_text`), and that one may be the forgotten or
    redacted one. Rebuilt from the rows, whose ``previous`` skips forgotten messages; returns
    how many points were rewritten."""
    async with pool.acquire() as conn:  # message points are agent-scoped: search per agent
        agents = [
            r[0]
            for r in await conn.fetch(
                "SELECT DISTINCT agent_id FROM sessions WHERE user_id = $1", user_id
            )
        ]
    found: set[str] = {str(m) for m in redacted}
    for agent_id in agents:
        for needle in needles:
            for hit in await vectors.search(
                MESSAGES,
                user_id=user_id,
                text=needle,
                agent_id=agent_id,
                agent_only=True,
                include_inactive=True,
                limit=limit,
                payload=(),
            ):
                found.add(hit.id)
    if not found:
        return 0
    async with pool.acquire() as conn:
        rows = [r for r in await load_message_rows(conn, user_id, sorted(found)) if r.active]
    if not rows:
        return 0
    try:
        dense = await embedder.embed([embedding_text(r) for r in rows])
        await vectors.upsert(
            MESSAGES,
            [message_point(user_id, r, d) for r, d in zip(rows, dense, strict=True)],
        )
    except DependencyUnavailable:
        async with pool.acquire() as conn:  # the sweep rewrites them once the index takes them
            await unmark_messages(conn, [r.message_id for r in rows])
        raise
    return len(rows)
