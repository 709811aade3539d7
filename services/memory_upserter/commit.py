"""``POST /v1/commit``: one turn, written once however often n8n retries it.

1. Read the request (pure, :func:`~.plan_logic.read`): the turn's time, its plan, its message
   rows, its idempotency key and a hash of the body.
2. No plan: the shadow judge extracts one (:mod:`.judge`) — after checking, outside any
   transaction, that this turn was not committed already.
3. Decide (pure, :mod:`.turn_plan`): the plan as writes, with notices of what was left out.
4. One transaction under the user's lock (:mod:`.turn_writer`; :mod:`.commit_sql` lists its
   round trips): a stored answer for the key is replayed (a different body is a 409), else the
   messages, session, entities, facts, completion, todos and the answer are written together.
5. After the commit: the vectors of the turn's messages and changed facts, embedded in one
   batch (:func:`~.turn_index.sync_turn_vectors`) — after the reply by default
   (``TWIN_INDEX_AFTER_REPLY``: the turn's path does not wait for the embedder; a lost or
   failed indexing leaves ``indexed_at`` NULL for the sweep; when 4 turns are already being
   indexed, this one waits for its own, so bursts slow the writer, not the readers), else
   before it, with a ``vectors_unindexed`` warning on failure — the clean-up of a
   ``plan.forget``, and the working memory (:func:`~.turn_session.session_after`, set by
   compare-and-set, so pulse-decay's concurrent count is never lost). A failure here is a
   warning in the answer: Postgres already holds the turn.
"""

from __future__ import annotations

from collections.abc import Coroutine
from datetime import timedelta
from typing import Any

import asyncpg
import msgspec
import redis.exceptions
import structlog

from contracts.memory import CommitRequest, CommitResponse, Notice
from contracts.slots import SessionState
from services.core.background import Background
from services.core.deps import Database
from services.core.errors import DependencyUnavailable
from services.core.llm import LLM
from services.core.problems import Conflict
from services.core.settings import Settings
from services.core.working_memory import ConcurrentUpdate, Snapshot
from services.memory_upserter import judge_store
from services.memory_upserter.extractor import Utterance
from services.memory_upserter.forget_audit import FORGOTTEN_ANSWER
from services.memory_upserter.forget_cleanup import clean_up
from services.memory_upserter.judge import judge, names_in
from services.memory_upserter.plan_logic import read
from services.memory_upserter.stores import MemoryStores
from services.memory_upserter.turn import Judgement, ReadTurn, Stored, TurnPlan, Written
from services.memory_upserter.turn_index import sync_turn_vectors
from services.memory_upserter.turn_plan import prepare
from services.memory_upserter.turn_session import session_after
from services.memory_upserter.turn_writer import write_turn

ATTEMPTS = 3  # a deadlock with another writer of the same user rolls back; the turn is retried


async def commit_turn(
    stores: MemoryStores,
    llm: LLM | None,
    settings: Settings,
    background: Background,
    req: CommitRequest,
    *,
    request_id: str | None,
) -> tuple[CommitResponse, bool]:
    """The turn's answer, and whether it is a replay of an earlier commit."""
    turn = read(req)
    idle = timedelta(minutes=settings.session_idle_minutes)
    if turn.plan is not None and turn.plan_source is not None:
        judged = Judgement(turn.plan, turn.plan_source)
    else:
        found = await _judge(stores.db, llm, settings, turn, idle)
        if isinstance(found, Stored):
            return _replay(found, turn), True
        judged = found
    written = await _write(stores.db, prepare(turn, judged), idle, request_id)
    if isinstance(written, Stored):
        return _replay(written, turn), True
    response = await after_commit(stores, settings, background, turn, written)
    return response, False


async def _judge(
    db: Database, llm: LLM | None, settings: Settings, turn: ReadTurn, idle: timedelta
) -> Judgement | Stored:
    """The shadow judge's plan, or the answer an earlier commit of this turn stored."""
    req = turn.req
    new = [Utterance(r.text, r.speaker) for r in turn.user_rows]
    async with db.acquire() as conn:
        context = await judge_store.judge_context(
            conn, req.user_id, req.agent_id, req.chat_id, turn.key, turn.now, idle, names_in(new)
        )
    if context.stored is not None:
        return context.stored
    judged = await judge(
        llm,
        new=new,
        earlier=[Utterance(t, s) for t, s in context.earlier],
        self_names=context.self_names,
        known=context.known,
        now=turn.now,
        timeout_s=settings.llm_timeout_s,
    )
    notes = [Notice(code="judge_fallback", detail=judged.warning)] if judged.warning else []
    notes += [
        Notice(
            code="entity_ambiguous",
            detail=f"a todo names someone several people answer to; nobody was linked. Ask: {q}",
        )
        for q in judged.questions
    ]
    return Judgement(
        judged.plan,
        judged.source,
        self_names=tuple(context.self_names),
        context=tuple(judged.context),
        questions=tuple(judged.questions),
        notes=tuple(notes),
    )


async def _write(
    db: Database, plan: TurnPlan, idle: timedelta, request_id: str | None
) -> Stored | Written:
    """The transaction, retried when a deadlock with another writer of the user rolled it
    back."""
    async with db.acquire() as conn:
        for attempt in range(ATTEMPTS):
            try:
                return await write_turn(conn, plan, idle=idle, request_id=request_id)
            except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError):
                if attempt == ATTEMPTS - 1:
                    raise
            except asyncpg.UniqueViolationError as exc:
                if exc.constraint_name == "messages_turn_position_key":
                    raise Conflict(
                        f"turn {plan.turn.req.turn_id!r} was logged already, but its stored "
                        "answer has expired; use a new turn_id"
                    ) from None
                raise
    raise AssertionError("unreachable: the last attempt returns or raises")


def _replay(stored: Stored, turn: ReadTurn) -> CommitResponse:
    if stored.request_hash != turn.digest:
        raise Conflict(
            f"turn {turn.req.turn_id!r} of chat {turn.req.chat_id!r} was committed "
            "with a different body; a new turn needs a new turn_id"
        )
    if stored.response == FORGOTTEN_ANSWER:
        raise Conflict(
            f"turn {turn.req.turn_id!r} of chat {turn.req.chat_id!r} was committed, "
            "then forgotten on request; it is not written again"
        )
    return msgspec.json.decode(msgspec.json.encode(stored.response), type=CommitResponse)


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
