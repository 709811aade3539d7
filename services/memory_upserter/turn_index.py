"""After a commit (:func:`after_commit`): the turn's vectors, the clean-up of a
``plan.forget``, and the working memory. The vectors of the turn's messages and changed facts
are embedded in one batch (:func:`sync_turn_vectors`) — after the reply by default
(``TWIN_INDEX_AFTER_REPLY``: the turn's path does not wait for the embedder; a lost or failed
indexing leaves ``indexed_at`` NULL for the sweep; at most 4 turns are indexed at once and the
rest queue (:class:`~services.core.background.Background`), so a burst of commits delays the
index, never the readers' query embeddings nor the writer's answer; past 10,000 queued turns a
turn is left to the sweep, ``turn_index_deferred`` in the log), else before it, with a
``vectors_unindexed`` warning on failure. The working memory is set by compare-and-set
(:func:`~.turn_session.session_after`), so pulse-decay's concurrent count is never lost. A
failure here is a warning in the answer: Postgres already holds the turn.

The ``messages`` vector collection: one point per logged message, so rag-gate can recall the
raw turn that said something — with its speaker and date — and not only what extraction and
consolidation made of it. Never the truth: ``messages`` rows are.

Point id = ``message_id`` (a retried commit upserts the same point, never a second one).
The dense vector is of :func:`embedding_text` (``speaker: text``); the BM25 vector of
:func:`index_text`, the same preceded by the message before it in the same session (a question
usually echoes the turn that raised the topic, while the answer is in the reply: on LoCoMo,
BM25 of the pair lifts raw-turn R@10 by ~0.04, while a dense vector of the pair loses ~0.05, so
only the lexical half gets the context). Payload: ``user_id``,
``agent_id``, ``scope`` (``agent``: a conversation with one persona is that persona's, like its
episodes), ``entity_ids`` (the entities the turn named: the row's, which the commit wrote
with the turn, so a point the sweep writes later carries them too), ``active``, ``chat_id``,
``session_id``, ``role``, ``ts`` (epoch seconds), ``row_id`` — no text or speaker (the
index holds no plaintext; readers take them from ``messages`` by id).

:func:`sync_turn_vectors` embeds the turn's messages **and** its changed facts in one embedder
call, upserts both, and stamps ``indexed_at`` on both tables. On an embedder or index failure
the rows keep ``indexed_at = NULL`` and the sweep (``POST /v1/reindex``, :mod:`.reindex`, with
:func:`sync_message_vectors`) repairs them; the sweep also back-fills messages logged before
the collection existed. After a forget, :func:`~.forget_cleanup.reindex_mentions` rewrites the
points that still mention what was forgotten.
"""

from __future__ import annotations

import uuid
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec
import redis.exceptions
import structlog

from contracts.memory import CommitResponse, Notice
from contracts.slots import SessionState
from services.core.background import Background
from services.core.deps import Connection, Database
from services.core.embedder import Embedder
from services.core.errors import DependencyUnavailable
from services.core.memory_store import FACTS, load_fact_rows, mark_indexed
from services.core.memory_store.index import fact_point
from services.core.settings import Settings
from services.core.vectors import VectorIndex, VectorPoint
from services.core.working_memory import ConcurrentUpdate, Snapshot
from services.memory_upserter.stores import MemoryStores
from services.memory_upserter.turn import ReadTurn, Written
from services.memory_upserter.turn_session import session_after

MESSAGES = "messages"
CONTEXT_CHARS = 600  # of the previous message, in the indexed text


@dataclass(frozen=True)
class MessageIndexRow:
    message_id: UUID
    agent_id: str
    chat_id: str
    session_id: UUID
    role: str
    speaker: str | None
    text: str
    ts: datetime
    active: bool
    previous: str | None  # the message before it in the session ("speaker: text"), if any
    entity_ids: Sequence[UUID] = ()  # the entities its turn named


_ROWS = """
SELECT m.message_id, m.agent_id, m.chat_id, m.session_id, m.role, m.speaker, m.text, m.ts,
       m.active,
       (SELECT COALESCE(p.speaker || ': ', '') || left(p.text, $4)
          FROM messages p
         WHERE p.user_id = m.user_id AND p.session_id = m.session_id AND p.seq < m.seq
           AND p.active
         ORDER BY p.seq DESC LIMIT 1) AS previous,
       m.entity_ids
  FROM messages m
 WHERE m.user_id = $1 AND m.message_id = ANY($2::uuid[]) AND (NOT $3 OR m.indexed_at IS NULL)
 ORDER BY m.seq
"""


async def load_message_rows(
    conn: Connection,
    user_id: str,
    message_ids: Sequence[UUID | str],
    *,
    unindexed_only: bool = False,
) -> list[MessageIndexRow]:
    rows = await conn.fetch(
        _ROWS, user_id, [uuid.UUID(str(i)) for i in message_ids], unindexed_only, CONTEXT_CHARS
    )
    return [MessageIndexRow(*r) for r in rows]


def said(speaker: str | None, text: str) -> str:
    return f"{speaker}: {text}" if speaker else text


def embedding_text(row: MessageIndexRow) -> str:
    """What the message's dense vector is of: ``speaker: text``."""
    return said(row.speaker, row.text)


def index_text(row: MessageIndexRow) -> str:
    """What its BM25 vector is of: the previous message, then ``speaker: text``."""
    this = said(row.speaker, row.text)
    return f"{row.previous}\n{this}" if row.previous else this


def message_point(user_id: str, row: MessageIndexRow, dense: Sequence[float]) -> VectorPoint:
    return VectorPoint(
        id=str(row.message_id),
        dense=dense,
        text=index_text(row),
        payload={
            "user_id": user_id,
            "agent_id": row.agent_id,
            "scope": "agent",
            "entity_ids": [str(e) for e in row.entity_ids],
            "active": row.active,
            "chat_id": row.chat_id,
            "session_id": str(row.session_id),
            "role": row.role,
            "ts": int(row.ts.timestamp()),
            "row_id": str(row.message_id),
        },
    )


async def _mark_messages(conn: Connection, ids: Sequence[UUID]) -> None:
    """Stamp ``indexed_at`` (derived data: ``synchronous_commit = off``, as for facts)."""
    if not ids:
        return
    async with conn.transaction():
        await conn.execute("SET LOCAL synchronous_commit = off")
        await conn.execute(
            "UPDATE messages SET indexed_at = now() "
            "WHERE message_id = ANY($1::uuid[]) AND indexed_at IS NULL",
            list(ids),
        )


async def sync_turn_vectors(
    pool: Database,
    vectors: VectorIndex,
    embedder: Embedder,
    user_id: str,
    message_ids: Sequence[UUID | str],
    rel_ids: Sequence[UUID | str],
) -> str | None:
    """Index a committed turn: its messages and its changed facts, embedded in one batch.
    Returns None, or a warning when the index could not be written (the rows stay unindexed
    for the sweep). Rows the index already reflects cost no embedding."""
    if not message_ids and not rel_ids:
        return None
    async with pool.acquire() as conn:
        messages = await load_message_rows(conn, user_id, message_ids, unindexed_only=True)
        facts = await load_fact_rows(conn, user_id, rel_ids, unindexed_only=True) if rel_ids else []
    live_messages = [m for m in messages if m.active]
    live_facts = [f for f in facts if f.active]
    closed_facts = [str(f.rel_id) for f in facts if not f.active]
    texts = [embedding_text(m) for m in live_messages] + [f.text for f in live_facts]
    try:
        dense = await embedder.embed(texts) if texts else []
        if live_messages:
            await vectors.upsert(
                MESSAGES,
                [
                    message_point(user_id, m, d)
                    for m, d in zip(live_messages, dense[: len(live_messages)], strict=True)
                ],
            )
        if live_facts:
            await vectors.upsert(
                FACTS,
                [
                    fact_point(user_id, f, d)
                    for f, d in zip(live_facts, dense[len(live_messages) :], strict=True)
                ],
            )
        if closed_facts:
            await vectors.set_active(FACTS, user_id=user_id, ids=closed_facts, active=False)
    except DependencyUnavailable as exc:
        structlog.get_logger().warning(
            "turn_unindexed", dependency=exc.dependency, messages=len(messages), facts=len(facts)
        )
        return (
            f"{exc.dependency} unavailable: {len(messages)} message(s) and {len(facts)} "
            "fact(s) saved but not indexed yet; POST /v1/reindex (or the next sweep) "
            "indexes them"
        )
    async with pool.acquire() as conn:
        await _mark_messages(conn, [m.message_id for m in messages])
        if facts:
            await mark_indexed(
                conn,
                "relations",
                [f.rel_id for f in facts],
                unchanged_since=max(f.updated_at for f in facts),
            )
    return None


async def sync_message_vectors(
    pool: Database,
    vectors: VectorIndex,
    embedder: Embedder,
    user_id: str,
    message_ids: Sequence[UUID | str],
) -> str | None:
    """The sweep's half: index these messages if they are not yet (no facts)."""
    return await sync_turn_vectors(pool, vectors, embedder, user_id, message_ids, [])


async def after_commit(
    stores: MemoryStores,
    settings: Settings,
    background: Background,
    turn: ReadTurn,
    written: Written,
) -> CommitResponse:
    """The committed answer, with a warning for each part of this work that failed."""
    req = turn.req
    warnings: list[Notice] = []
    message_ids = [r.message_id for r in turn.rows]

    def indexing() -> Coroutine[Any, Any, str | None]:
        return sync_turn_vectors(
            stores.db, stores.vectors, stores.embedder, req.user_id, message_ids, written.fact_ids
        )

    if settings.index_after_reply:
        if not background.submit(
            lambda: _index_later(indexing()), name=f"index-turn:{req.turn_id}"
        ):
            structlog.get_logger().warning("turn_index_deferred", user_id=req.user_id)
    elif warning := await indexing():
        warnings.append(Notice(code="vectors_unindexed", detail=warning))
    if written.forgotten is not None:
        # Imported here: forget_cleanup rewrites message points with this module's helpers.
        from services.memory_upserter.forget_cleanup import clean_up

        cleaned = await clean_up(
            stores, req.user_id, written.forgotten, hard=False, agent_scope=None
        )
        warnings += [*written.forgotten.warnings, *cleaned.warnings]
    unknown = len(req.active_entity_ids) - len(written.active_ids & set(req.active_entity_ids))
    if unknown:
        detail = f"{unknown} active_entity_ids are not this user's live entities; not kept"
        warnings.append(Notice(code="unknown_active_entity", detail=detail))

    def compute(seen: Snapshot) -> tuple[SessionState, None, None]:
        session = session_after(
            seen.session, turn, written, max_turns=settings.working_memory_turns
        )
        return session, None, None

    try:
        await stores.memory.update(req.user_id, req.agent_id, req.chat_id, compute)
    except (ConcurrentUpdate, DependencyUnavailable, redis.exceptions.RedisError, OSError) as exc:
        warnings.append(
            Notice(
                code="working_memory_not_updated",
                detail=(
                    f"the turn is saved, but the working memory was not updated "
                    f"({type(exc).__name__})"
                ),
            )
        )
    response = written.response
    return msgspec.structs.replace(response, warnings=[*response.warnings, *warnings])


async def _index_later(indexing: Coroutine[Any, Any, str | None]) -> None:
    """The turn's vectors, after the reply: a failure leaves the rows for the sweep."""
    warning = await indexing
    if warning:
        structlog.get_logger().warning("turn_unindexed", detail=warning)
