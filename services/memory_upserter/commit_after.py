"""After a commit: the work that follows the transaction, none of which can undo it.

The vectors of the turn's messages and changed facts, embedded in one batch
(:func:`~.turn_index.sync_turn_vectors`) — after the reply by default
(``TWIN_INDEX_AFTER_REPLY``: the turn's path does not wait for the embedder; a lost or failed
indexing leaves ``indexed_at`` NULL for the sweep; when 4 turns are already being indexed, this
one waits for its own, so bursts slow the writer, not the readers), else before it, with a
``vectors_unindexed`` warning on failure — the clean-up of a ``plan.forget``, and the working
memory (compare-and-set, so pulse-decay's concurrent count is never lost). A failure here is a
warning in the answer: Postgres already holds the turn.
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any

import msgspec
import redis.exceptions
import structlog

from contracts.memory import CommitResponse, Notice
from contracts.slots import SessionState, Turn
from services.core.background import Background
from services.core.errors import DependencyUnavailable
from services.core.settings import Settings
from services.core.working_memory import ConcurrentUpdate, Snapshot
from services.memory_upserter.forget_cleanup import clean_up
from services.memory_upserter.plan_logic import next_session
from services.memory_upserter.stores import MemoryStores
from services.memory_upserter.turn import ReadTurn, Written
from services.memory_upserter.turn_index import sync_turn_vectors


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
    indexing = sync_turn_vectors(
        stores.db,
        stores.vectors,
        stores.embedder,
        req.user_id,
        [r.message_id for r in turn.rows],
        written.fact_ids,
        written.touched,
    )
    if settings.index_after_reply and background.has_room():
        background.spawn(_index_later(indexing), name=f"index-turn:{req.turn_id}")
    elif warning := await indexing:
        warnings.append(Notice(code="vectors_unindexed", detail=warning))
    if written.forgotten is not None:
        cleaned = await clean_up(
            stores, req.user_id, written.forgotten, hard=False, agent_scope=None
        )
        warnings += [*written.forgotten.warnings, *cleaned.warnings]
    unknown = len(req.active_entity_ids) - len(written.active_ids & set(req.active_entity_ids))
    if unknown:
        detail = f"{unknown} active_entity_ids are not this user's live entities; not kept"
        warnings.append(Notice(code="unknown_active_entity", detail=detail))
    turns = [
        Turn(role=r.role, text=r.text, speaker=r.speaker, ts=r.ts, message_id=str(r.message_id))
        for r in turn.rows
    ]
    active = [*written.touched, *(i for i in req.active_entity_ids if i in written.active_ids)]

    def compute(seen: Snapshot) -> tuple[SessionState, None, None]:
        session = next_session(
            seen.session,
            user_id=req.user_id,
            agent_id=req.agent_id,
            chat_id=req.chat_id,
            turns=turns,
            active_ids=active,
            scratch=req.scratch,
            now=turn.now,
            max_turns=settings.working_memory_turns,
            questions=written.questions,
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
