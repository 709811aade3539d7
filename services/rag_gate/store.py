"""rag-gate's reads of what the index proposed: the hit rows and the entity-card facts.

The index only proposes ids; Postgres decides what is live. Every statement is per user
(``user_id = $1``), sees only this agent's and global rows, and only live ones: episodes and
chunks ``active`` (and episodes not after ``now``); facts ``status = 'ACTIVE'``, valid at
``now``, PROFILE/PEOPLE/PROJECT (never PSYCHE), with live, visible endpoints.

``load_rows``       the episode, chunk, fact and message rows of the hits: one statement
                    (UNION ALL); the seed entities' names come with the continuity read
``load_card_facts`` entity-card facts for the top facts' entities: one statement
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

import msgspec

from contracts.common import Role
from contracts.slots import UNVERIFIED_BELOW
from services.core.deps import Connection
from services.core.memory_store.visibility import visible
from services.core.readout import is_readout
from services.rag_gate.continuity import TailMessage
from services.rag_gate.search import MEMORY_TYPES


class EpisodeRow(msgspec.Struct, frozen=True):
    episode_id: str
    session_id: str | None
    ts: datetime
    day: date | None
    reflection: str
    one_liner: str | None
    entity_ids: list[Any]
    provenance: dict[str, Any]
    cited: list[str] | None = None  # the user messages its Evidence lines quote


class ChunkRow(msgspec.Struct, frozen=True):
    chunk_id: str
    doc_id: str
    doc_title: str | None
    domain: str
    section_path: list[Any]
    text: str


class EntityRow(msgspec.Struct, frozen=True):
    entity_id: str
    entity_ref: str | None
    name: str
    category: str


class FactRow(msgspec.Struct, frozen=True):
    rel_id: str
    text: str
    memory_type: str
    importance: int
    pinned: bool
    source: str
    updated_at: datetime
    message_ids: list[Any]
    subject: EntityRow
    object: EntityRow | None
    confidence: float = 1.0
    valid_to: datetime | None = None


class MessageRow(msgspec.Struct, frozen=True):
    message_id: str
    session_id: str
    role: Role
    speaker: str | None
    text: str
    ts: datetime
    previous: TailMessage | None = None  # the live message before it in its session
    entity_ids: list[str] = []  # the entities its turn named


@dataclass(frozen=True, slots=True)
class Rows:
    episodes: dict[str, EpisodeRow]
    chunks: dict[str, ChunkRow]
    facts: dict[str, FactRow]
    messages: dict[str, MessageRow] = field(default_factory=dict)
    entity_names: list[str] = field(default_factory=list)  # the seed entities' names, aliases


_LIVE_FACT = f"""
       (r.status = 'ACTIVE' OR (r.status = 'SUPERSEDED' AND r.valid_to IS NOT NULL))
   AND r.memory_type = ANY('{{{",".join(MEMORY_TYPES)}}}'::text[])
   AND {visible("r", "$2")}
   AND (r.valid_to IS NULL OR r.valid_to > $3) AND (r.valid_from IS NULL OR r.valid_from <= $3)
   AND s.active AND {visible("s", "$2")}
   AND (r.object_id IS NULL OR (o.active AND {visible("o", "$2")}))"""
_ENDPOINTS = """
  JOIN entities s ON s.user_id = r.user_id AND s.entity_id = r.subject_id
  LEFT JOIN entities o ON o.user_id = r.user_id AND o.entity_id = r.object_id"""
_ENTITY_JSON = (
    "jsonb_build_object('entity_id', {t}.entity_id, 'entity_ref', {t}.entity_ref, "
    "'name', {t}.name, 'category', {t}.category)"
)

LOAD_ROWS = f"""
SELECT 'episode' AS kind, jsonb_build_object(
           'episode_id', e.episode_id, 'session_id', e.session_id, 'ts', e.ts, 'day', e.day,
           'reflection', e.reflection,
           'one_liner', e.summary->>'one_liner', 'entity_ids', e.entity_ids,
           'provenance', e.provenance,
           'cited', (SELECT jsonb_agg(DISTINCT x->>'message_id')
                       FROM jsonb_array_elements(CASE WHEN jsonb_typeof(
                                e.reflection_json->'evidence') = 'array'
                            THEN e.reflection_json->'evidence' ELSE '[]' END) x
                      WHERE x ? 'message_id')) AS row
  FROM episodes e
 WHERE e.user_id = $1 AND e.episode_id = ANY($4::uuid[]) AND e.active
   AND {visible("e", "$2")} AND e.ts <= $3
UNION ALL
SELECT 'chunk', jsonb_build_object(
           'chunk_id', k.chunk_id, 'doc_id', k.doc_id, 'doc_title', k.doc_title,
           'domain', k.domain, 'section_path', k.section_path, 'text', k.text)
  FROM knowledge_chunks k
 WHERE k.chunk_id = ANY($5::uuid[]) AND k.agent_id = $2 AND k.active
   AND (k.user_id IS NULL OR k.user_id = $1)
UNION ALL
SELECT 'fact', jsonb_build_object(
           'rel_id', r.rel_id, 'text', r.text, 'memory_type', r.memory_type,
           'confidence', r.confidence,
           'importance', r.importance, 'pinned', r.pinned, 'source', r.source,
           'updated_at', r.updated_at, 'message_ids', r.provenance_message_ids,
           'valid_to', r.valid_to, 'subject', {_ENTITY_JSON.format(t="s")},
           'object', CASE WHEN o.entity_id IS NULL THEN NULL
                          ELSE {_ENTITY_JSON.format(t="o")} END)
  FROM relations r {_ENDPOINTS}
 WHERE r.user_id = $1 AND r.rel_id = ANY($6::uuid[]) AND {_LIVE_FACT}
UNION ALL
SELECT 'message', jsonb_build_object(
           'message_id', m.message_id, 'session_id', m.session_id, 'role', m.role,
           'speaker', m.speaker, 'text', m.text, 'ts', m.ts, 'entity_ids', m.entity_ids,
           'previous', CASE WHEN $8 THEN (
               SELECT jsonb_build_object('message_id', p.message_id, 'role', p.role,
                                         'speaker', p.speaker, 'text', p.text, 'ts', p.ts)
                 FROM messages p
                WHERE p.user_id = $1 AND p.session_id = m.session_id AND p.seq < m.seq
                  AND p.active
                ORDER BY p.seq DESC LIMIT 1) END)
  FROM messages m
 WHERE m.user_id = $1 AND m.message_id = ANY($7::uuid[]) AND m.agent_id = $2 AND m.active
   AND m.ts <= $3
"""

# Per entity, its best card facts: one index probe per entity (subject or object), then a
# top-N sort of a handful of rows.
LOAD_CARD_FACTS = f"""
SELECT x.entity_id::text, f.rel_id::text, f.text
  FROM unnest($4::uuid[]) AS x(entity_id)
 CROSS JOIN LATERAL (
       SELECT r.rel_id, r.text
         FROM relations r {_ENDPOINTS}
        WHERE r.user_id = $1 AND (r.subject_id = x.entity_id OR r.object_id = x.entity_id)
          AND (r.importance >= 2 OR r.pinned) AND r.rel_id <> ALL($5::uuid[])
          AND r.confidence >= {UNVERIFIED_BELOW}
          AND {_LIVE_FACT}
        ORDER BY r.pinned DESC, r.importance DESC, r.created_at DESC, r.rel_id
        LIMIT $6) f
"""


async def load_rows(
    conn: Connection,
    *,
    user_id: str,
    agent_id: str,
    now: datetime,
    episode_ids: Sequence[str],
    chunk_ids: Sequence[str],
    fact_ids: Sequence[str],
    message_ids: Sequence[str] = (),
    entity_names: Sequence[str] = (),
    previous: bool = False,
) -> Rows:
    """The live rows among the ids the index proposed (stale or forgotten ones are absent),
    with ``entity_names`` (the seed entities' names and aliases, read with the continuity)."""
    rows = Rows(episodes={}, chunks={}, facts={}, entity_names=list(entity_names))
    if not (episode_ids or chunk_ids or fact_ids or message_ids):
        return rows
    for record in await conn.fetch(
        LOAD_ROWS,
        user_id,
        agent_id,
        now,
        list(episode_ids),
        list(chunk_ids),
        list(fact_ids),
        list(message_ids),
        previous,
    ):
        _add(rows, record["kind"], record["row"])
    return rows


def _add(rows: Rows, kind: str, raw: dict[str, Any]) -> None:
    if kind == "episode":
        episode = msgspec.convert(raw, EpisodeRow)
        rows.episodes[episode.episode_id] = episode
    elif kind == "chunk":
        chunk = msgspec.convert(raw, ChunkRow)
        rows.chunks[chunk.chunk_id] = chunk
    elif kind == "fact":
        fact = msgspec.convert(raw, FactRow)
        rows.facts[fact.rel_id] = fact
    elif kind == "message":
        message = msgspec.convert(raw, MessageRow)
        if is_readout(message.text):
            return  # the product talking (an index written before readouts were left out)
        if message.previous is not None and is_readout(message.previous.text):
            message = msgspec.structs.replace(message, previous=None)
        rows.messages[message.message_id] = message


async def load_card_facts(
    conn: Connection,
    *,
    user_id: str,
    agent_id: str,
    now: datetime,
    entity_ids: Sequence[str],
    exclude_ids: Sequence[str],
    per_entity: int,
) -> dict[str, list[tuple[str, str]]]:
    """``entity_id → [(fact id, text), …]``: live facts of each entity with importance >= 2 or
    pinned, pinned → importance → newest first, at most ``per_entity`` each."""
    if not entity_ids:
        return {}
    out: dict[str, list[tuple[str, str]]] = {}
    for entity_id, rel_id, text in await conn.fetch(
        LOAD_CARD_FACTS, user_id, agent_id, now, list(entity_ids), list(exclude_ids), per_entity
    ):
        out.setdefault(entity_id, []).append((rel_id, text))
    return out
