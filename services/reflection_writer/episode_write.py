"""One claimed session range → one episode: read, draft, write (one transaction), index.

Steps 2–5 of the order in ``consolidate``: nothing is written before the draft and its vector
are ready; the episode, its todo links, the temporal chain, the psyche facts, the fact
references and the checkpoint's move commit together; the vector follows the commit.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import structlog

from contracts.reflection import ConsolidatedSession, DueReason, SkippedSession
from services.core import memory_store
from services.core.deps import Connection, Database
from services.core.errors import DependencyUnavailable
from services.core.memory_store.episode_index import (
    EpisodeRow,
    mark_episodes_indexed,
    vector_payload,
)
from services.core.vectors import VectorIndex, VectorPoint
from services.reflection_writer import sessions, store
from services.reflection_writer.brain import SlowBrain
from services.reflection_writer.drafting import Draft, episode_row
from services.reflection_writer.model import Message
from services.reflection_writer.psyche import write_psyche
from services.reflection_writer.sessions import ClaimedSession

MAX_RANGE = 80  # messages per episode: 2x the default batch size
log = structlog.get_logger("twin.reflection")


@dataclass(frozen=True, slots=True)
class Written:
    """What the episode's transaction did: a new row (``created``) or the one a retry found."""

    row: EpisodeRow
    created: bool
    linked_todos: int
    psyche_items: int
    facts_referenced: int
    indexed: bool  # the row found already has its vector
    last_message_seq: int  # where the written (or found) row's range ends
    fact_ids: list[str]  # psyche facts written, for their vectors


async def consolidate_claimed(
    brain: SlowBrain, claimed: ClaimedSession, reason: DueReason, worker: str, now: datetime
) -> ConsolidatedSession | SkippedSession:
    async with brain.db.acquire() as conn:
        messages, through = await sessions.load_messages(conn, claimed, MAX_RANGE)
        if not messages:  # only forgotten messages: pass over them, no episode
            async with conn.transaction():
                await sessions.advance(conn, claimed, through, worker, now)
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
    made = await brain.drafter.draft(messages, known)
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
    [dense] = await brain.embedder.embed([row.text])
    async with brain.db.acquire() as conn, conn.transaction():
        await memory_store.lock_user(conn, claimed.user_id)  # first: the graph writers' order
        written = await _write(conn, claimed, row, made, messages, now)
        # A retry that found the row moves the checkpoint to that row's end only: whatever
        # came after it is the next episode.
        checkpoint = through if written.created else written.last_message_seq
        await sessions.advance(conn, claimed, checkpoint, worker, now)
    row, indexed = written.row, written.indexed
    if written.created:  # an existing row without a vector is re-indexed by the repair sweep
        indexed = await _index(brain.db, brain.vectors, row, dense, now)
        await memory_store.sync_fact_vectors(
            brain.db, brain.vectors, brain.embedder, claimed.user_id, written.fact_ids
        )
    return _consolidated(claimed, reason, made, written, indexed, len(messages), through)


def _consolidated(
    claimed: ClaimedSession,
    reason: DueReason,
    made: Draft,
    written: Written,
    indexed: bool,
    turns: int,
    through: int,
) -> ConsolidatedSession:
    """The session's report: the episode written (or found) and what came with it."""
    row = written.row
    return ConsolidatedSession(
        session_id=claimed.session_id,
        user_id=claimed.user_id,
        agent_id=claimed.agent_id,
        chat_id=claimed.chat_id,
        reason=reason,
        episode_id=row.episode_id,
        status="created" if written.created else "existing",
        engine=made.engine,
        day=row.day,
        importance=row.importance,
        first_message_seq=row.first_message_seq,
        last_message_seq=row.last_message_seq,
        turns=turns,
        evidence_kept=made.grounded.kept,
        evidence_dropped=made.evidence_dropped,
        indexed=indexed,
        more_pending=through < claimed.last_message_seq,
        linked_todos=written.linked_todos,
        psyche_items=written.psyche_items,
        facts_referenced=written.facts_referenced,
    )


async def _write(
    conn: Connection,
    claimed: ClaimedSession,
    row: EpisodeRow,
    made: Draft,
    messages: Sequence[Message],
    now: datetime,
) -> Written:
    previous = await store.previous_episode(
        conn, row.user_id, row.agent_id, row.ts, row.first_message_seq
    )
    row = dataclasses.replace(row, previous_episode_id=previous)
    if not await store.insert_episode(conn, row, now):
        existing = await store.existing_episode(conn, row.user_id, row.first_message_seq)
        return Written(
            row=dataclasses.replace(row, episode_id=existing.episode_id),
            created=False,
            linked_todos=existing.linked_todos,
            psyche_items=0,
            facts_referenced=0,
            indexed=existing.indexed,
            last_message_seq=existing.last_message_seq,
            fact_ids=[],
        )
    linked = await store.link_todos(
        conn, row.user_id, claimed.session_id, row.episode_id, [m.message_id for m in messages], now
    )
    fact_ids = await write_psyche(conn, row.user_id, made.draft.psyche, now)
    referenced = await store.reference_facts(conn, row.user_id, row.entity_ids, row.ts)
    return Written(
        row=row,
        created=True,
        linked_todos=len(linked),
        psyche_items=len(made.draft.psyche),
        facts_referenced=referenced,
        indexed=False,
        last_message_seq=row.last_message_seq,
        fact_ids=fact_ids,
    )


async def _index(
    db: Database, vectors: VectorIndex, row: EpisodeRow, dense: list[float], now: datetime
) -> bool:
    """Upsert the episode's vector, then stamp ``indexed_at``; False if the index failed."""
    try:
        await vectors.upsert(
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
    async with db.acquire() as conn:
        await mark_episodes_indexed(conn, [row.episode_id], now)
    return True
