"""The slow brain (003 §7.2, 002 cold path): consolidate due sessions into episodes.

**Checkpoint semantics** (what rag-gate's continuity tail relies on, 002 pitfall 2):
``sessions.checkpoint_message_seq`` is the ``messages.seq`` of the last message already
consolidated into an episode (NULL/0: none). A session's unconsolidated turns are exactly its
messages with ``checkpoint_message_seq < seq <= last_message_seq``; the session is
unconsolidated iff ``last_message_seq > COALESCE(checkpoint_message_seq, 0)`` (the generated
``needs_consolidation``). The checkpoint only ever moves forward, and only in the transaction
that wrote the episode of that range.

**Order, per session** — so a crash anywhere leaves no half-written episode and the
checkpoint unmoved:

1. claim the lease: one ``UPDATE … WHERE needs_consolidation AND (locked_until IS NULL OR
   locked_until < clock_timestamp()) RETURNING`` — a second scheduler gets no row and skips;
2. read the turns after the checkpoint (at most :data:`MAX_RANGE`; the rest is the next
   episode), the entities they name (one query) and the user's time zone;
3. draft (one model call, or the offline engine), ground, embed — no writes yet;
4. one Postgres transaction: insert the episode (id = uuid5(user, first seq); the range key
   ``(user_id, first_message_seq)`` turns a retry into "existing"), link the session's todos
   both ways, chain to the previous episode, write psyche facts, count fact references,
   advance the checkpoint and release the lease — COMMIT. It takes the user's graph-writer
   lock (``memory_store.lock_user``) first, like every writer of the user's facts;
5. after the commit, upsert the vector (point id = episode id, so a retry overwrites, never
   duplicates) and set ``indexed_at``. If the index fails, the row stays ``indexed_at IS NULL``
   and the repair sweep at the end of every call re-indexes it. Psyche facts are indexed the
   same way by ``memory_store.sync_fact_vectors`` (their sweep: memory-upserter's reindex).

Any failure before the commit releases the lease and leaves the checkpoint where it was; a
model outage (``LLMUnavailable``) also stops this call from asking the model again. A worker
killed mid-session cannot release it: its open transaction dies with its connection, and the
session waits for the lease to expire (``settings.consolidation_lease_s``).
"""

from __future__ import annotations

import dataclasses
import os
import socket
import uuid
from collections import deque
from datetime import datetime, timedelta

import asyncpg
import structlog

from contracts.reflection import (
    ConsolidatedSession,
    ConsolidateRequest,
    ConsolidateResponse,
    ConsolidateTotals,
    DueReason,
    SkippedSession,
    UserMaintenance,
)
from services.core import memory_store
from services.core.clock import request_clock
from services.core.errors import DependencyUnavailable
from services.core.llm import LLMUnavailable
from services.core.problems import dependency_of
from services.core.resources import Resources
from services.core.vectors import VectorPoint
from services.reflection_writer import store
from services.reflection_writer.drafting import Draft, episode_row, make_draft
from services.reflection_writer.episode import EpisodeRow, vector_payload
from services.reflection_writer.indexing import reindex_episodes
from services.reflection_writer.maintenance import upkeep
from services.reflection_writer.psyche import write_psyche

MAX_RANGE = 80  # messages per episode: 2x the default batch size
log = structlog.get_logger("twin.reflection")


class SessionNotFound(LookupError):
    """The requested session does not exist (for this user)."""


def worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


async def consolidate(res: Resources, req: ConsolidateRequest) -> ConsolidateResponse:
    now = request_clock(req.now)
    worker = worker_id()
    async with res.pg.acquire() as conn:
        if req.session_id is not None:
            state = await store.session_state(conn, req.session_id, req.user_id)
            if state is None:
                raise SessionNotFound(req.session_id)
            due: list[tuple[str, DueReason]] = [(req.session_id, "requested")]
        else:
            due = await store.due_sessions(
                conn,
                user_id=req.user_id,
                agent_id=req.agent_id,
                cutoff=now - timedelta(minutes=req.inactivity_minutes),
                batch_size=req.batch_size,
                limit=req.max_sessions,
            )
    answer = ConsolidateResponse()
    model_down = False
    queue = deque(due)
    while queue:
        session_id, reason = queue.popleft()
        if model_down:
            answer.skipped.append(
                SkippedSession(
                    session_id=session_id,
                    reason="model_unavailable",
                    detail="the model endpoint failed earlier in this run",
                )
            )
            continue
        try:
            done = await _one(res, session_id, reason, worker, now)
        except LLMUnavailable as exc:
            model_down = True
            done = SkippedSession(
                session_id=session_id, reason="model_unavailable", detail=exc.detail[:200]
            )
        if isinstance(done, SkippedSession):
            answer.skipped.append(done)
            continue
        answer.sessions.append(done)
        if done.more_pending:  # a long session: its next range is the next episode, now
            queue.appendleft((session_id, reason))
    users = list(dict.fromkeys(s.user_id for s in answer.sessions))
    answer.maintenance = [await _upkeep(res, user_id, now) for user_id in users]
    reindexed = await reindex_episodes(res, req.user_id, now)
    answer.totals = _totals(answer, reindexed)
    return answer


async def _one(
    res: Resources, session_id: str, reason: DueReason, worker: str, now: datetime
) -> ConsolidatedSession | SkippedSession:
    async with res.pg.acquire() as conn:
        claimed = await store.claim(conn, session_id, worker, res.settings.consolidation_lease_s)
        if claimed is None:
            state = await store.session_state(conn, session_id, None)
            why = "locked" if state is not None and state["needs_consolidation"] else "nothing_new"
            return SkippedSession(session_id=session_id, reason=why)
    try:
        return await _consolidate_claimed(res, claimed, reason, worker, now)
    except LLMUnavailable:
        await _release_quietly(res, claimed, worker)
        raise
    except DependencyUnavailable as exc:  # embedder (or index) down: try again next run
        await _release_quietly(res, claimed, worker)
        return SkippedSession(
            session_id=session_id, reason="dependency_unavailable", detail=str(exc)[:200]
        )
    except Exception as exc:
        await _release_quietly(res, claimed, worker)
        if dependency_of(exc) is not None:  # Postgres itself is down: the call answers 503
            raise
        log.exception("consolidation_failed", session_id=session_id, error=type(exc).__name__)
        return SkippedSession(session_id=session_id, reason="failed", detail=type(exc).__name__)
    except BaseException:  # cancelled: give the session back before going
        await _release_quietly(res, claimed, worker)
        raise


async def _consolidate_claimed(
    res: Resources, claimed: store.ClaimedSession, reason: DueReason, worker: str, now: datetime
) -> ConsolidatedSession | SkippedSession:
    async with res.pg.acquire() as conn:
        messages, through = await store.load_messages(conn, claimed, MAX_RANGE)
        if not messages:  # only forgotten messages: pass over them, no episode
            async with conn.transaction():
                await store.advance(conn, claimed, through, worker, now)
            return SkippedSession(
                session_id=claimed.session_id,
                reason="nothing_new",
                detail="only forgotten messages",
            )
        session_text = "\n".join(m.text for m in messages)
        known = await store.mentioned_entities(
            conn, claimed.user_id, claimed.agent_id, session_text
        )
        timezone = await store.user_timezone(conn, claimed.user_id)
    made = await make_draft(res.llm, res.settings.llm_timeout_s, messages, known)
    row = episode_row(
        user_id=claimed.user_id,
        agent_id=claimed.agent_id,
        chat_id=claimed.chat_id,
        session_id=claimed.session_id,
        messages=messages,
        known=known,
        made=made,
        timezone=timezone,
    )
    [dense] = await res.embedder.embed([row.text])
    async with res.pg.acquire() as conn, conn.transaction():
        await memory_store.lock_user(conn, claimed.user_id)  # first: the graph writers' order
        row, created, counts = await _write(conn, claimed, row, made, messages, now)
        # A retry that found the row moves the checkpoint to that row's end only: whatever
        # came after it is the next episode.
        checkpoint = through if created else counts["last_message_seq"]
        await store.advance(conn, claimed, checkpoint, worker, now)
    indexed = counts.pop("indexed")
    counts.pop("last_message_seq")
    fact_ids = counts.pop("fact_ids")
    if created:  # an existing row without a vector is re-indexed by the repair sweep
        indexed = await _index(res, row, dense, now)
        await memory_store.sync_fact_vectors(
            res.pg, res.vectors, res.embedder, claimed.user_id, fact_ids
        )
    return ConsolidatedSession(
        session_id=claimed.session_id,
        user_id=claimed.user_id,
        agent_id=claimed.agent_id,
        chat_id=claimed.chat_id,
        reason=reason,
        episode_id=row.episode_id,
        status="created" if created else "existing",
        engine=made.engine,
        day=row.day,
        importance=row.importance,
        first_message_seq=row.first_message_seq,
        last_message_seq=row.last_message_seq,
        turns=len(messages),
        evidence_kept=made.grounded.kept,
        evidence_dropped=made.evidence_dropped,
        indexed=indexed,
        more_pending=through < claimed.last_message_seq,
        **counts,
    )


async def _write(
    conn: asyncpg.Connection,
    claimed: store.ClaimedSession,
    row: EpisodeRow,
    made: Draft,
    messages: list,
    now: datetime,
) -> tuple[EpisodeRow, bool, dict]:
    previous = await store.previous_episode(
        conn, row.user_id, row.agent_id, row.ts, row.first_message_seq
    )
    row = dataclasses.replace(row, previous_episode_id=previous)
    if not await store.insert_episode(conn, row, now):
        existing = await store.existing_episode(conn, row.user_id, row.first_message_seq)
        row = dataclasses.replace(row, episode_id=existing["episode_id"])
        return (
            row,
            False,
            {
                "linked_todos": existing["linked"],
                "psyche_items": 0,
                "facts_referenced": 0,
                "indexed": existing["indexed"],
                "last_message_seq": existing["last_message_seq"],
                "fact_ids": [],
            },
        )
    linked = await store.link_todos(
        conn, row.user_id, claimed.session_id, row.episode_id, [m.message_id for m in messages], now
    )
    fact_ids = await write_psyche(conn, row.user_id, made.draft.psyche, now)
    referenced = await store.reference_facts(conn, row.user_id, row.entity_ids, row.ts)
    return (
        row,
        True,
        {
            "linked_todos": len(linked),
            "psyche_items": len(made.draft.psyche),
            "facts_referenced": referenced,
            "indexed": False,
            "last_message_seq": row.last_message_seq,
            "fact_ids": fact_ids,
        },
    )


async def _index(res: Resources, row: EpisodeRow, dense: list[float], now: datetime) -> bool:
    """Upsert the episode's vector, then stamp ``indexed_at``; False if the index failed."""
    try:
        await res.vectors.upsert(
            "episodes",
            [
                VectorPoint(
                    id=row.episode_id, dense=dense, text=row.text, payload=vector_payload(row)
                )
            ],
        )
    except DependencyUnavailable as exc:
        log.warning("episode_not_indexed", episode_id=row.episode_id, error=str(exc)[:200])
        return False
    async with res.pg.acquire() as conn:
        await store.mark_indexed(conn, [row.episode_id], now)
    return True


async def _upkeep(res: Resources, user_id: str, now: datetime) -> UserMaintenance:
    """Spine and curator for one user; a bug there never undoes the episodes just written."""
    try:
        return await upkeep(res, user_id, now)
    except Exception as exc:
        if dependency_of(exc) is not None:
            raise
        log.exception("upkeep_failed", user_id=user_id, error=type(exc).__name__)
        return UserMaintenance(user_id=user_id)


async def _release_quietly(res: Resources, claimed: store.ClaimedSession, worker: str) -> None:
    try:
        async with res.pg.acquire() as conn:
            await store.release(conn, claimed.session_id, worker)
    except Exception as exc:  # noqa: BLE001 - the lease expires on its own (settings)
        log.warning("lease_release_failed", session_id=claimed.session_id, error=repr(exc))


def _totals(answer: ConsolidateResponse, reindexed: int) -> ConsolidateTotals:
    done = answer.sessions
    return ConsolidateTotals(
        sessions=len(done),
        episodes_created=sum(s.status == "created" for s in done),
        episodes_existing=sum(s.status == "existing" for s in done),
        skipped=len(answer.skipped),
        turns=sum(s.turns for s in done),
        evidence_kept=sum(s.evidence_kept for s in done),
        evidence_dropped=sum(s.evidence_dropped for s in done),
        psyche_items=sum(s.psyche_items for s in done),
        linked_todos=sum(s.linked_todos for s in done),
        reindexed=reindexed,
    )
