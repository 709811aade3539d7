"""rag-gate's continuity read: the latest session summary, the previous session's tail, and
the seed entities' names.

One statement per turn, open gate or closed; it never touches the vector index. The names and
aliases of the seed entities (only when asked for: an open gate that recalls turns) ride on it
rather than on a statement of their own: the turn search's query leaves the people out
(:mod:`.unnamed`) and the entity boost reads them (:mod:`.fusion`).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import msgspec

from contracts.common import Role
from services.core.deps import Connection
from services.core.readout import is_readout


class TailMessage(msgspec.Struct, frozen=True):
    message_id: str
    role: Role
    speaker: str | None
    text: str
    ts: datetime


class SeedName(msgspec.Struct, frozen=True):
    """A seed entity's name or alias; ``person``: a Person who is not the user ("me")."""

    name: str
    person: bool = False


class Continuity(msgspec.Struct, frozen=True):
    summary: dict[str, Any] | None = None
    summary_episode_id: str | None = None
    previous_session_id: str | None = None
    tail: list[TailMessage] = []
    names: list[SeedName] = []


# The previous session is the newest one of this (user, agent, chat) that has ended, or gone
# idle (no activity since ``idle_since``: the upserter only closes it on the next commit, after
# this node ran); the open, active session is never it. Its tail is returned only while it has
# turns past its consolidation checkpoint, and only those turns.
LOAD_CONTINUITY = """
WITH latest AS (
    SELECT e.episode_id, e.summary
      FROM episodes e
     WHERE e.user_id = $1 AND e.agent_id = $2 AND e.active AND e.ts <= $4
       AND e.summary <> '{}'::jsonb
     ORDER BY e.ts DESC
     LIMIT 1
), previous AS (
    SELECT s.session_id, s.checkpoint_message_seq, s.needs_consolidation
      FROM sessions s
     WHERE s.user_id = $1 AND s.agent_id = $2 AND s.chat_id = $3 AND s.started_at <= $4
       AND (s.ended_at IS NOT NULL OR s.last_activity_at < $5)
     ORDER BY s.last_activity_at DESC
     LIMIT 1
), tail AS (
    SELECT m.message_id, m.seq, m.role, m.speaker, m.text, m.ts
      FROM previous p
      JOIN messages m ON m.user_id = $1 AND m.session_id = p.session_id
     WHERE p.needs_consolidation AND m.active
       AND m.seq > COALESCE(p.checkpoint_message_seq, 0)
     ORDER BY m.seq DESC
     LIMIT $6
), seeds AS (
    SELECT e.entity_id, e.name,
           e.category = 'Person' AND e.entity_ref IS DISTINCT FROM 'self:user' AS person
      FROM entities e
     WHERE e.user_id = $1 AND e.entity_id = ANY($7::uuid[]) AND e.active
), names AS (
    SELECT name, person FROM seeds
    UNION
    SELECT a.alias, s.person
      FROM seeds s JOIN entity_aliases a ON a.user_id = $1 AND a.entity_id = s.entity_id
)
SELECT jsonb_build_object(
    'summary', (SELECT summary FROM latest),
    'summary_episode_id', (SELECT episode_id FROM latest),
    'previous_session_id', (SELECT session_id FROM previous),
    'tail', COALESCE((SELECT jsonb_agg(jsonb_build_object(
                          'message_id', t.message_id, 'role', t.role, 'speaker', t.speaker,
                          'text', t.text, 'ts', t.ts) ORDER BY t.seq) FROM tail t), '[]'),
    'names', COALESCE((SELECT jsonb_agg(jsonb_build_object('name', n.name, 'person', n.person))
                         FROM names n WHERE n.name <> ''), '[]'))
"""


async def load_continuity(
    conn: Connection,
    *,
    user_id: str,
    agent_id: str,
    chat_id: str,
    now: datetime,
    idle_since: datetime,
    tail_turns: int,
    entity_ids: Sequence[str] = (),
) -> Continuity:
    """The continuity fields, and the names and aliases of the live ones among ``entity_ids``."""
    raw = await conn.fetchval(
        LOAD_CONTINUITY, user_id, agent_id, chat_id, now, idle_since, tail_turns, uuids(entity_ids)
    )
    loaded = msgspec.convert(raw, Continuity)
    tail = [m for m in loaded.tail if not is_readout(m.text)]  # the product's, not memory
    return msgspec.structs.replace(loaded, tail=tail)


def uuids(values: Sequence[str]) -> list[uuid.UUID]:
    """The values that are UUIDs (an id of another shape names no row)."""
    out = []
    for value in values:
        try:
            out.append(uuid.UUID(str(value)))
        except ValueError:
            continue
    return out
