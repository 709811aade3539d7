"""reflection-writer's SQL for consolidation: sessions (sweep, lease, checkpoint), messages,
episodes, todo links, fact references. Each function takes a connection; none commits on its
own (callers choose the transaction). Every statement is per user.

The lease is ``sessions.locked_until / locked_by``, taken and compared on the **database
clock** (``clock_timestamp()``), not the request's ``now``: it guards real concurrent workers,
and an import running with a past ``now`` must neither steal a live lease nor leave one that
looks expired to everyone else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import asyncpg

from services.reflection_writer.episode import EpisodeRow
from services.reflection_writer.model import KnownEntity, Message

# Names that would match every session: never an entity mention.
SELF_NAMES = ["i", "me", "myself", "user", "self", "you"]


@dataclass(frozen=True, slots=True)
class ClaimedSession:
    session_id: str
    user_id: str
    agent_id: str
    chat_id: str
    checkpoint: int  # seq of the last consolidated message (0: none)
    last_message_seq: int


DUE_SESSIONS = """
SELECT s.session_id::text,
       CASE WHEN s.flagged_for_consolidation THEN 'flagged'
            WHEN s.last_activity_at <= $3 THEN 'quiet' ELSE 'batch' END
  FROM sessions s
 WHERE s.needs_consolidation
   AND ($1::text IS NULL OR s.user_id = $1) AND ($2::text IS NULL OR s.agent_id = $2)
   AND (s.locked_until IS NULL OR s.locked_until < clock_timestamp())
   AND (s.flagged_for_consolidation OR s.last_activity_at <= $3
        OR (SELECT count(*) FROM (SELECT 1 FROM messages m
                                   WHERE m.user_id = s.user_id AND m.session_id = s.session_id
                                     AND m.seq > COALESCE(s.checkpoint_message_seq, 0)
                                   LIMIT $4) AS pending) >= $4)
 ORDER BY s.last_activity_at, s.session_id
 LIMIT $5
"""


async def due_sessions(
    conn: asyncpg.Connection,
    *,
    user_id: str | None,
    agent_id: str | None,
    cutoff: datetime,
    batch_size: int,
    limit: int,
) -> list[tuple[str, str]]:
    """(session id, why it is due) of sessions with unconsolidated turns that are flagged,
    quiet since ``cutoff``, or hold ``batch_size`` unconsolidated messages; oldest first."""
    rows = await conn.fetch(DUE_SESSIONS, user_id, agent_id, cutoff, batch_size, limit)
    return [(r[0], r[1]) for r in rows]


async def session_state(
    conn: asyncpg.Connection, session_id: str, user_id: str | None
) -> asyncpg.Record | None:
    return await conn.fetchrow(
        "SELECT user_id, needs_consolidation FROM sessions"
        " WHERE session_id = $1::uuid AND ($2::text IS NULL OR user_id = $2)",
        session_id,
        user_id,
    )


async def claim(
    conn: asyncpg.Connection, session_id: str, worker: str, lease_s: float
) -> ClaimedSession | None:
    """Take the lease in one statement; None when someone holds it or nothing is new."""
    row = await conn.fetchrow(
        """UPDATE sessions
              SET locked_until = clock_timestamp() + make_interval(secs => $3), locked_by = $2
            WHERE session_id = $1::uuid AND needs_consolidation
              AND (locked_until IS NULL OR locked_until < clock_timestamp())
        RETURNING session_id::text, user_id, agent_id, chat_id,
                  COALESCE(checkpoint_message_seq, 0), last_message_seq""",
        session_id,
        worker,
        float(lease_s),
    )
    return ClaimedSession(*row) if row else None


async def release(conn: asyncpg.Connection, session_id: str, worker: str) -> None:
    await conn.execute(
        "UPDATE sessions SET locked_until = NULL, locked_by = NULL"
        " WHERE session_id = $1::uuid AND locked_by = $2",
        session_id,
        worker,
    )


async def advance(
    conn: asyncpg.Connection, session: ClaimedSession, through_seq: int, worker: str, now: datetime
) -> None:
    """Move the checkpoint to ``through_seq`` (never backwards) and release the lease."""
    await conn.execute(
        """UPDATE sessions
              SET checkpoint_message_seq = GREATEST(COALESCE(checkpoint_message_seq, 0), $2),
                  consolidated_at = $4, updated_at = $4,
                  flagged_for_consolidation = flagged_for_consolidation
                                              AND $2 < COALESCE(last_message_seq, 0),
                  locked_until = CASE WHEN locked_by = $3 THEN NULL ELSE locked_until END,
                  locked_by = CASE WHEN locked_by = $3 THEN NULL ELSE locked_by END
            WHERE session_id = $1::uuid""",
        session.session_id,
        through_seq,
        worker,
        now,
    )


async def load_messages(
    conn: asyncpg.Connection, session: ClaimedSession, limit: int
) -> tuple[list[Message], int]:
    """Active messages after the checkpoint (up to the session's last seq), and the seq the
    checkpoint may move to (forgotten messages are skipped but passed over)."""
    rows = await conn.fetch(
        """SELECT message_id::text, seq, role, text, ts, speaker, active FROM messages
            WHERE user_id = $1 AND session_id = $2::uuid AND seq > $3 AND seq <= $4
            ORDER BY seq LIMIT $5""",
        session.user_id,
        session.session_id,
        session.checkpoint,
        session.last_message_seq,
        limit,
    )
    messages = [Message(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows if r[6]]
    return messages, (rows[-1][1] if rows else session.checkpoint)


async def user_timezone(conn: asyncpg.Connection, user_id: str) -> str | None:
    return await conn.fetchval("SELECT timezone FROM users WHERE user_id = $1", user_id)


MENTIONED = """
WITH doc AS (SELECT ' ' || regexp_replace(twin_normalize($3), '[^[:alnum:]]+', ' ', 'g') || ' '
                    AS t)
SELECT e.entity_id::text, e.name, e.category
  FROM entities e, doc
 WHERE e.user_id = $1 AND e.active AND (e.scope = 'global' OR e.agent_id = $2)
   AND (
     (e.name_normalized <> ALL($4::text[]) AND strpos(doc.t, ' ' || btrim(regexp_replace(
         e.name_normalized, '[^[:alnum:]]+', ' ', 'g')) || ' ') > 0)
     OR EXISTS (SELECT 1 FROM entity_aliases a
                 WHERE a.user_id = $1 AND a.entity_id = e.entity_id
                   AND a.alias_normalized <> ALL($4::text[])
                   AND strpos(doc.t, ' ' || btrim(regexp_replace(
                       a.alias_normalized, '[^[:alnum:]]+', ' ', 'g')) || ' ') > 0))
 ORDER BY e.last_seen DESC NULLS LAST, e.name, e.entity_id
 LIMIT 100
"""


async def mentioned_entities(
    conn: asyncpg.Connection, user_id: str, agent_id: str, text: str
) -> list[KnownEntity]:
    """The user's entities (visible to this agent) whose normalized name or alias occurs as
    whole words in ``text`` — one query, normalized by Postgres's own ``twin_normalize``."""
    rows = await conn.fetch(MENTIONED, user_id, agent_id, text, SELF_NAMES)
    return [KnownEntity(r[0], r[1], r[2]) for r in rows]


async def previous_episode(
    conn: asyncpg.Connection, user_id: str, agent_id: str, ts: datetime, first_seq: int
) -> str | None:
    """The temporal chain: this user and agent's latest earlier episode."""
    return await conn.fetchval(
        """SELECT episode_id::text FROM episodes
            WHERE user_id = $1 AND agent_id = $2 AND active AND first_message_seq <> $4
              AND (ts < $3 OR (ts = $3 AND first_message_seq < $4))
            ORDER BY ts DESC, first_message_seq DESC LIMIT 1""",
        user_id,
        agent_id,
        ts,
        first_seq,
    )


async def insert_episode(conn: asyncpg.Connection, row: EpisodeRow, now: datetime) -> bool:
    """Insert the episode; False when this range's row already exists (a retry)."""
    created = await conn.fetchval(
        """INSERT INTO episodes (episode_id, user_id, agent_id, scope, chat_id, session_id, ts,
                                 day, importance, reflection, reflection_json, summary,
                                 entity_ids, tags, first_message_seq, last_message_seq,
                                 provenance, previous_episode_id, created_at, updated_at)
           VALUES ($1::uuid, $2, $3, 'agent', $4, $5::uuid, $6, $7, $8, $9, $10, $11, $12, $13,
                   $14, $15, $16, $17::uuid, $18, $18)
           ON CONFLICT DO NOTHING
           RETURNING true""",
        row.episode_id,
        row.user_id,
        row.agent_id,
        row.chat_id,
        row.session_id,
        row.ts,
        row.day,
        row.importance,
        row.reflection,
        row.reflection_json,
        row.summary,
        row.entity_ids,
        row.tags,
        row.first_message_seq,
        row.last_message_seq,
        row.provenance,
        row.previous_episode_id,
        now,
    )
    return bool(created)


async def existing_episode(
    conn: asyncpg.Connection, user_id: str, first_seq: int
) -> asyncpg.Record:
    return await conn.fetchrow(
        """SELECT episode_id::text, last_message_seq, indexed_at IS NOT NULL AS indexed,
                  jsonb_array_length(linked_todo_ids) AS linked
             FROM episodes WHERE user_id = $1 AND first_message_seq = $2""",
        user_id,
        first_seq,
    )


async def link_todos(
    conn: asyncpg.Connection,
    user_id: str,
    session_id: str,
    episode_id: str,
    message_ids: Sequence[str],
    now: datetime,
) -> list[str]:
    """Link the session's unlinked todos (002: goals captured in the hot path) both ways."""
    linked = await conn.fetchval(
        """WITH linked AS (
               UPDATE todos SET episode_id = $3::uuid, updated_at = $5
                WHERE user_id = $1 AND session_id = $2::uuid AND episode_id IS NULL AND active
                  AND (source_message_id IS NULL OR source_message_id = ANY($4::uuid[]))
            RETURNING todo_id::text AS id)
           UPDATE episodes
              SET linked_todo_ids = (SELECT COALESCE(jsonb_agg(id ORDER BY id), '[]'::jsonb)
                                       FROM linked)
            WHERE episode_id = $3::uuid
        RETURNING linked_todo_ids""",
        user_id,
        session_id,
        episode_id,
        list(message_ids),
        now,
    )
    return list(linked or [])


async def reference_facts(
    conn: asyncpg.Connection, user_id: str, entity_ids: Sequence[str], ts: datetime
) -> int:
    """Importance from use (000 bootstrap problem): each episode mentioning a fact's subject
    adds one reference; importance = max(importance, min(3, 1 + floor(log2(references)))).
    Pinned and PSYCHE facts are left alone; importance never goes down."""
    if not entity_ids:
        return 0
    status = await conn.execute(
        """UPDATE relations
              SET reference_count = reference_count + 1, last_referenced_at = $3,
                  importance = GREATEST(importance,
                      LEAST(3, 1 + floor(log(2, (reference_count + 1)::numeric))::int))
            WHERE user_id = $1 AND subject_id = ANY($2::uuid[]) AND status = 'ACTIVE'
              AND NOT pinned AND memory_type <> 'PSYCHE'""",
        user_id,
        list(entity_ids),
        ts,
    )
    return int(status.split()[-1])


async def mark_indexed(conn: asyncpg.Connection, episode_ids: Sequence[str], now: datetime) -> None:
    await conn.execute(
        "UPDATE episodes SET indexed_at = $2 WHERE episode_id = ANY($1::uuid[])",
        list(episode_ids),
        now,
    )


async def unindexed_episodes(
    conn: asyncpg.Connection, user_id: str | None, limit: int
) -> list[asyncpg.Record]:
    """Active episodes whose vector was never written (a crash or an index outage)."""
    return await conn.fetch(
        """SELECT episode_id::text, user_id, agent_id, chat_id, session_id::text, ts, day,
                  importance::float8, reflection, summary, reflection_json, entity_ids, tags,
                  first_message_seq, last_message_seq, provenance,
                  previous_episode_id::text
             FROM episodes
            WHERE indexed_at IS NULL AND active AND ($1::text IS NULL OR user_id = $1)
            ORDER BY created_at LIMIT $2""",
        user_id,
        limit,
    )
