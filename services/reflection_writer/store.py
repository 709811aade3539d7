"""reflection-writer's SQL around one episode: what the drafting reads (entities named, the
user's time zone), the episode row, its todo links, fact references and index stamp. Each
function takes a connection; none commits on its own (callers choose the transaction). Every
statement is per user. The session sweep and lease are in ``sessions``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from services.core.deps import Connection
from services.core.memory_store.episode_index import EpisodeRow
from services.core.memory_store.visibility import visible
from services.reflection_writer.model import KnownEntity

# Names that would match every session: never an entity mention.
SELF_NAMES = ["i", "me", "myself", "user", "self", "you"]


async def user_timezone(conn: Connection, user_id: str) -> str | None:
    timezone: str | None = await conn.fetchval(
        "SELECT timezone FROM users WHERE user_id = $1", user_id
    )
    return timezone


MENTIONED = f"""
WITH doc AS (SELECT ' ' || regexp_replace(twin_normalize($3), '[^[:alnum:]]+', ' ', 'g') || ' '
                    AS t)
SELECT e.entity_id::text, e.name, e.category
  FROM entities e, doc
 WHERE e.user_id = $1 AND e.active AND {visible("e", "$2")}
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
    conn: Connection, user_id: str, agent_id: str, text: str
) -> list[KnownEntity]:
    """The user's entities (visible to this agent) whose normalized name or alias occurs as
    whole words in ``text`` — one query, normalized by Postgres's own ``twin_normalize``."""
    rows = await conn.fetch(MENTIONED, user_id, agent_id, text, SELF_NAMES)
    return [KnownEntity(r[0], r[1], r[2]) for r in rows]


async def previous_episode(
    conn: Connection, user_id: str, agent_id: str, ts: datetime, first_seq: int
) -> str | None:
    """The temporal chain: this user and agent's latest earlier episode."""
    episode_id: str | None = await conn.fetchval(
        """SELECT episode_id::text FROM episodes
            WHERE user_id = $1 AND agent_id = $2 AND active AND first_message_seq <> $4
              AND (ts < $3 OR (ts = $3 AND first_message_seq < $4))
            ORDER BY ts DESC, first_message_seq DESC LIMIT 1""",
        user_id,
        agent_id,
        ts,
        first_seq,
    )
    return episode_id


async def insert_episode(conn: Connection, row: EpisodeRow, now: datetime) -> bool:
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


@dataclass(frozen=True, slots=True)
class ExistingEpisode:
    """The episode a retry found for its range."""

    episode_id: str
    last_message_seq: int
    indexed: bool
    linked_todos: int


async def existing_episode(conn: Connection, user_id: str, first_seq: int) -> ExistingEpisode:
    """The episode of the range starting at ``first_seq`` (whose insert just conflicted)."""
    row = await conn.fetchrow(
        """SELECT episode_id::text, last_message_seq, indexed_at IS NOT NULL,
                  jsonb_array_length(linked_todo_ids)
             FROM episodes WHERE user_id = $1 AND first_message_seq = $2""",
        user_id,
        first_seq,
    )
    if row is None:
        raise LookupError(f"no episode of user {user_id} starts at seq {first_seq}")
    return ExistingEpisode(*row)


async def link_todos(
    conn: Connection,
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
    conn: Connection, user_id: str, entity_ids: Sequence[str], ts: datetime
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
