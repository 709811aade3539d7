"""After a commit (:func:`after_commit`): the turn's vectors, the clean-up of a
``plan.forget``, and the working memory. The vectors of the turn's messages and changed facts
are embedded in one batch (:func:`sync_turns`) — after the reply by default
(``TWIN_INDEX_AFTER_REPLY``: the turn's path does not wait for the embedder; a lost or failed
indexing leaves ``indexed_at`` NULL for the sweep; at most 4 indexings run at once and the
other turns queue (:class:`~services.core.background.Background`) and are indexed
:data:`INDEX_BATCH` at a time (:func:`sync_turns`), so a burst of commits delays the index,
never the writer's answer, and the readers' query embeddings go before its documents; past
10,000 queued turns a turn is left to the sweep, ``turn_index_deferred`` in the log), else
before it, with a ``vectors_unindexed`` warning on failure. The working memory is set by
compare-and-set (:func:`~.session.session_after`), so pulse-decay's concurrent count is
never lost. A failure here is a warning in the answer: Postgres already holds the turn.

:func:`sync_turns` embeds the turns' messages **and** their changed facts in one embedder call
(a message's point: :mod:`services.core.memory_store.message_index`), upserts both, and stamps
``indexed_at`` on both tables. On an embedder or index failure the rows keep ``indexed_at =
NULL`` and the sweep (``POST /v1/reindex``, :mod:`..person.reindex`, with
:func:`sync_message_vectors`) repairs them; the sweep also back-fills messages logged before the
collection existed. After a forget, :func:`~..forget.cleanup.reindex_mentions` rewrites the
points that still mention what was forgotten.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from uuid import UUID

import msgspec
import redis.exceptions
import structlog

from contracts.memory import CommitResponse, Notice
from contracts.slots import SessionState
from services.core.background import Background
from services.core.deps import Database
from services.core.embedder import Embedder
from services.core.errors import DependencyUnavailable
from services.core.memory_store import FACTS, load_fact_rows, mark_indexed
from services.core.memory_store.index import FactIndexRow, fact_point
from services.core.memory_store.message_index import (
    MESSAGES,
    MessageIndexRow,
    embedding_text,
    load_message_rows,
    mark_messages,
    message_point,
)
from services.core.readout import is_readout
from services.core.settings import Settings
from services.core.vectors import VectorIndex
from services.core.working_memory import ConcurrentUpdate, Snapshot
from services.memory_upserter.commit.session import session_after
from services.memory_upserter.commit.turn import ReadTurn, Written
from services.memory_upserter.forget.cleanup import clean_up
from services.memory_upserter.stores import MemoryStores

# Queued turns indexed together (when commits outrun the indexing): ~8 messages and their
# facts in one embedder call (which the embedder runs in hops of at most 32 texts).
INDEX_BATCH = 8


@dataclass(frozen=True, slots=True)
class OwedTurn:
    """A committed turn whose vectors are still to be written."""

    user_id: str
    message_ids: Sequence[UUID | str]
    rel_ids: Sequence[UUID | str]


async def sync_turns(
    pool: Database, vectors: VectorIndex, embedder: Embedder, turns: Sequence[OwedTurn]
) -> str | None:
    """Index committed turns, of one user or several: their messages and changed facts in one
    embedder call, one upsert per collection. Returns None, or a warning when the index could
    not be written (the rows stay unindexed for the sweep). Rows the index already reflects
    cost no embedding."""
    turns = [t for t in turns if t.message_ids or t.rel_ids]
    if not turns:
        return None
    messages: list[tuple[str, MessageIndexRow]] = []
    facts: list[tuple[str, FactIndexRow]] = []
    async with pool.acquire() as conn:
        for t in turns:
            rows = await load_message_rows(conn, t.user_id, t.message_ids, unindexed_only=True)
            messages += [(t.user_id, m) for m in rows]
            if t.rel_ids:
                owned = await load_fact_rows(conn, t.user_id, t.rel_ids, unindexed_only=True)
                facts += [(t.user_id, f) for f in owned]
    live_messages = [(u, m) for u, m in messages if m.active and not is_readout(m.text)]
    live_facts = [(u, f) for u, f in facts if f.active]
    texts = [embedding_text(m) for _, m in live_messages] + [f.text for _, f in live_facts]
    try:
        dense = await embedder.embed(texts) if texts else []
        said, drawn = dense[: len(live_messages)], dense[len(live_messages) :]
        if live_messages:
            pairs = zip(live_messages, said, strict=True)
            await vectors.upsert(MESSAGES, [message_point(u, m, d) for (u, m), d in pairs])
        if live_facts:
            kept = zip(live_facts, drawn, strict=True)
            await vectors.upsert(FACTS, [fact_point(u, f, d) for (u, f), d in kept])
        for user_id in dict.fromkeys(u for u, f in facts if not f.active):
            closed = [str(f.rel_id) for u, f in facts if u == user_id and not f.active]
            await vectors.set_active(FACTS, user_id=user_id, ids=closed, active=False)
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
        await mark_messages(conn, [m.message_id for _, m in messages])
        if facts:
            await mark_indexed(
                conn,
                "relations",
                [f.rel_id for _, f in facts],
                unchanged_since=max(f.updated_at for _, f in facts),
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
    return await sync_turns(pool, vectors, embedder, [OwedTurn(user_id, message_ids, [])])


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
    owed = OwedTurn(req.user_id, [r.message_id for r in turn.rows], written.fact_ids)

    async def index_later(turns: list[OwedTurn]) -> None:
        """The turns' vectors, after the reply: a failure leaves the rows for the sweep."""
        if warning := await sync_turns(stores.db, stores.vectors, stores.embedder, turns):
            structlog.get_logger().warning("turn_unindexed", detail=warning)

    if settings.index_after_reply:
        if not background.submit("index-turns", owed, index_later, batch=INDEX_BATCH):
            structlog.get_logger().warning("turn_index_deferred", user_id=req.user_id)
    elif warning := await sync_turns(stores.db, stores.vectors, stores.embedder, [owed]):
        warnings.append(Notice(code="vectors_unindexed", detail=warning))
    if written.forgotten is not None:
        cleaned = await clean_up(
            stores, req.user_id, written.forgotten, hard=False, agent_scope=None
        )
        warnings += [*written.forgotten.warnings, *cleaned.warnings]
    let_go = written.active_ids | set(written.passed_over)  # a namesake not chosen is known
    unknown = len(set(req.active_entity_ids) - let_go)
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
    warnings = [*response.warnings, *warnings]
    return msgspec.structs.replace(response, warnings=warnings, questions=list(written.questions))
