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
2. read the turns after the checkpoint (at most ``episode_write.MAX_RANGE``; the rest is
   the next episode), the entities they name (one query) and the user's time zone;
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

import os
import socket
import uuid
from collections import deque
from datetime import datetime, timedelta

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
from services.core.clock import request_clock
from services.core.deps import Database
from services.core.errors import DependencyUnavailable, NotFound
from services.core.llm import LLMUnavailable
from services.core.outage import dependency_of
from services.reflection_writer import sessions
from services.reflection_writer.brain import SlowBrain
from services.reflection_writer.episode_write import consolidate_claimed
from services.reflection_writer.indexing import reindex_episodes
from services.reflection_writer.maintenance import upkeep
from services.reflection_writer.sessions import ClaimedSession

log = structlog.get_logger("twin.reflection")


def worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


async def consolidate(brain: SlowBrain, req: ConsolidateRequest) -> ConsolidateResponse:
    now = request_clock(req.now)
    worker = worker_id()
    async with brain.db.acquire() as conn:
        if req.session_id is not None:
            state = await sessions.session_state(conn, req.session_id, req.user_id)
            if state is None:
                whose = f" for user {req.user_id}" if req.user_id else ""
                raise NotFound(f"no session {req.session_id}{whose}")
            due: list[tuple[str, DueReason]] = [(req.session_id, "requested")]
        else:
            due = await sessions.due_sessions(
                conn,
                user_id=req.user_id,
                agent_id=req.agent_id,
                cutoff=now - timedelta(minutes=req.inactivity_minutes),
                batch_size=req.batch_size,
                limit=req.max_sessions,
            )
    done_sessions: list[ConsolidatedSession] = []
    skipped: list[SkippedSession] = []
    model_down = False
    queue = deque(due)
    while queue:
        session_id, reason = queue.popleft()
        if model_down:
            skipped.append(
                SkippedSession(
                    session_id=session_id,
                    reason="model_unavailable",
                    detail="the model endpoint failed earlier in this run",
                )
            )
            continue
        try:
            done = await _one(brain, session_id, reason, worker, now)
        except LLMUnavailable as exc:
            model_down = True
            done = SkippedSession(
                session_id=session_id, reason="model_unavailable", detail=exc.detail[:200]
            )
        if isinstance(done, SkippedSession):
            skipped.append(done)
            continue
        done_sessions.append(done)
        if done.more_pending:  # a long session: its next range is the next episode, now
            queue.appendleft((session_id, reason))
    users = list(dict.fromkeys(s.user_id for s in done_sessions))
    maintenance = [await _upkeep(brain, user_id, now) for user_id in users]
    reindexed = await reindex_episodes(brain.db, brain.embedder, brain.vectors, req.user_id, now)
    return ConsolidateResponse(
        sessions=done_sessions,
        skipped=skipped,
        maintenance=maintenance,
        totals=_totals(done_sessions, len(skipped), reindexed),
    )


async def _one(
    brain: SlowBrain, session_id: str, reason: DueReason, worker: str, now: datetime
) -> ConsolidatedSession | SkippedSession:
    async with brain.db.acquire() as conn:
        claimed = await sessions.claim(conn, session_id, worker, brain.lease_s)
        if claimed is None:
            state = await sessions.session_state(conn, session_id, None)
            locked = state is not None and state.needs_consolidation
            return SkippedSession(
                session_id=session_id, reason="locked" if locked else "nothing_new"
            )
    try:
        return await consolidate_claimed(brain, claimed, reason, worker, now)
    except LLMUnavailable:
        await _release_quietly(brain.db, claimed, worker)
        raise
    except DependencyUnavailable as exc:  # embedder (or index) down: try again next run
        await _release_quietly(brain.db, claimed, worker)
        return SkippedSession(
            session_id=session_id, reason="dependency_unavailable", detail=str(exc)[:200]
        )
    except Exception as exc:
        await _release_quietly(brain.db, claimed, worker)
        if dependency_of(exc) is not None:  # Postgres itself is down: the call answers 503
            raise
        log.exception("consolidation_failed", session_id=session_id, error=type(exc).__name__)
        return SkippedSession(session_id=session_id, reason="failed", detail=type(exc).__name__)
    except BaseException:  # cancelled: give the session back before going
        await _release_quietly(brain.db, claimed, worker)
        raise


async def _upkeep(brain: SlowBrain, user_id: str, now: datetime) -> UserMaintenance:
    """Spine and curator for one user; a bug there never undoes the episodes just written."""
    try:
        return await upkeep(brain.db, brain.vectors, brain.embedder, user_id, now)
    except Exception as exc:
        if dependency_of(exc) is not None:
            raise
        log.exception("upkeep_failed", user_id=user_id, error=type(exc).__name__)
        return UserMaintenance(user_id=user_id)


async def _release_quietly(db: Database, claimed: ClaimedSession, worker: str) -> None:
    try:
        async with db.acquire() as conn:
            await sessions.release(conn, claimed.session_id, worker)
    except Exception as exc:  # noqa: BLE001 - the lease expires on its own (settings)
        log.warning("lease_release_failed", session_id=claimed.session_id, error=repr(exc))


def _totals(done: list[ConsolidatedSession], skipped: int, reindexed: int) -> ConsolidateTotals:
    return ConsolidateTotals(
        sessions=len(done),
        episodes_created=sum(s.status == "created" for s in done),
        episodes_existing=sum(s.status == "existing" for s in done),
        skipped=skipped,
        turns=sum(s.turns for s in done),
        evidence_kept=sum(s.evidence_kept for s in done),
        evidence_dropped=sum(s.evidence_dropped for s in done),
        psyche_items=sum(s.psyche_items for s in done),
        linked_todos=sum(s.linked_todos for s in done),
        reindexed=reindexed,
    )
