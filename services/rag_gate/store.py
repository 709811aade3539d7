"""rag-gate's reads: the vector searches and the three SQL statements.

The index only proposes ids; Postgres decides what is live. Every statement is per user
(``user_id = $1``), sees only this agent's and global rows, and only live ones: episodes and
chunks ``active`` (and episodes not after ``now``); facts ``status = 'ACTIVE'``, valid at
``now``, PROFILE/PEOPLE/PROJECT (never PSYCHE), with live, visible endpoints.

``search``          5 vector searches, concurrently: episodes (narrowed to the seed entities,
                    and once more un-narrowed if that finds nothing: entity extraction can
                    miss, and a new entity has no episode yet, yet the turn still deserves
                    continuity), knowledge twice (the agent's shared chunks, owned by
                    SHARED_OWNER, and the user's own documents: the port filters one owner
                    per search; merged by fused score), facts (PROFILE/PEOPLE/PROJECT only:
                    filtered in the index, so no candidate slot goes to a PSYCHE fact), and
                    this agent's logged messages (raw-turn recall)
``load_rows``       the episode, chunk, fact and message rows of the hits, and the names and
                    aliases of the seed entities: one statement (UNION ALL)
``load_card_facts`` entity-card facts for the top facts' entities: one statement
``load_continuity`` the latest session summary and the previous session's unconsolidated
                    tail: one statement
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal

import asyncpg
import msgspec

from services.core.vectors import VectorHit, VectorIndex, VectorIndexUnavailable
from services.core.vectors.layout import SparseEncoder
from services.core.vectors.port import SHARED_OWNER

MEMORY_TYPES = ("PROFILE", "PEOPLE", "PROJECT")  # 001 invariant: never PSYCHE

# --- vector searches ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Found:
    """What the index proposed; None for a collection whose search failed."""

    episodes: list[VectorHit] | None
    knowledge: list[VectorHit] | None
    facts: list[VectorHit] | None
    episode_filter: Literal["entities", "fallback", "none"] | None
    turns: list[VectorHit] | None = None


async def search(
    vectors: VectorIndex,
    *,
    user_id: str,
    agent_id: str,
    dense: Sequence[float],
    text: str,
    entity_ids: Sequence[str],
    top_k: int,
    knowledge_k: int,
    fact_candidates: int,
    turn_candidates: int = 0,
    history: bool = False,
) -> Found:
    """Every search at once (``knowledge_k`` / ``fact_candidates`` / ``turn_candidates`` 0
    skip one); ``history``: closed facts too (an as-of read; Postgres keeps what was true).
    Only
    :class:`VectorIndexUnavailable` is caught: a failing collection comes back as None."""
    # ids are all rag-gate reads of a hit (Postgres has the rows), except a message's entities
    query = {"dense": dense, "text": text, "payload": ()}

    async def episodes() -> tuple[list[VectorHit], Literal["entities", "fallback", "none"]]:
        if entity_ids:
            hits = await vectors.search(
                "episodes",
                user_id=user_id,
                agent_id=agent_id,
                entity_ids=list(entity_ids),
                limit=top_k,
                **query,
            )
            if hits:
                return hits, "entities"
        hits = await vectors.search(
            "episodes", user_id=user_id, agent_id=agent_id, limit=top_k, **query
        )
        return hits, "fallback" if entity_ids else "none"

    async def knowledge() -> list[VectorHit]:
        if knowledge_k == 0:
            return []
        shared, own = await asyncio.gather(
            *(
                vectors.search(
                    "knowledge",
                    user_id=owner,
                    agent_id=agent_id,
                    agent_only=True,
                    limit=knowledge_k,
                    **query,
                )
                for owner in (SHARED_OWNER, user_id)
            )
        )
        merged = {hit.id: hit for hit in sorted([*own, *shared], key=lambda h: -h.score)}
        return list(merged.values())[:knowledge_k]

    async def facts() -> list[VectorHit]:
        if fact_candidates == 0:
            return []
        return await vectors.search(
            "facts",
            user_id=user_id,
            agent_id=agent_id,
            limit=fact_candidates,
            include_inactive=history,
            extra_must={"memory_type": list(MEMORY_TYPES)},
            **query,
        )

    async def turns() -> list[VectorHit]:
        if turn_candidates == 0:
            return []
        return await vectors.search(
            "messages",
            user_id=user_id,
            agent_id=agent_id,
            agent_only=True,
            limit=turn_candidates,
            **{**query, "payload": ("entity_ids",)},
        )

    ep, kn, fa, tu = await asyncio.gather(
        _or_none(episodes()), _or_none(knowledge()), _or_none(facts()), _or_none(turns())
    )
    return Found(
        episodes=ep[0] if ep else None,
        knowledge=kn,
        facts=fa,
        episode_filter=ep[1] if ep else None,
        turns=tu,
    )


async def _or_none(awaitable):
    try:
        return await awaitable
    except VectorIndexUnavailable:
        return None


class Terms:
    """BM25 terms exactly as the index analyses text (stemmed, stopwords and accents dropped)."""

    def __init__(self) -> None:
        self._encoder = SparseEncoder()

    def of_query(self, text: str) -> frozenset[int]:
        return frozenset(self._encoder.query(text).indices)

    def of_document(self, text: str) -> frozenset[int]:
        return frozenset(self._encoder.document(text).indices)


# --- rows --------------------------------------------------------------------------------------


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


class MessageRow(msgspec.Struct, frozen=True):
    message_id: str
    session_id: str
    role: str
    speaker: str | None
    text: str
    ts: datetime
    previous: TailMessage | None = None  # the live message before it in its session


class NameRow(msgspec.Struct, frozen=True):
    name: str


@dataclass(frozen=True, slots=True)
class Rows:
    episodes: dict[str, EpisodeRow]
    chunks: dict[str, ChunkRow]
    facts: dict[str, FactRow]
    messages: dict[str, MessageRow] = field(default_factory=dict)
    entity_names: list[str] = field(default_factory=list)  # the seed entities' names, aliases


_VISIBLE = "({t}.scope = 'global' OR {t}.agent_id = $2)"
_LIVE_FACT = f"""
       (r.status = 'ACTIVE' OR (r.status = 'SUPERSEDED' AND r.valid_to IS NOT NULL))
   AND r.memory_type = ANY('{{{",".join(MEMORY_TYPES)}}}'::text[])
   AND {_VISIBLE.format(t="r")}
   AND (r.valid_to IS NULL OR r.valid_to > $3) AND (r.valid_from IS NULL OR r.valid_from <= $3)
   AND s.active AND {_VISIBLE.format(t="s")}
   AND (r.object_id IS NULL OR (o.active AND {_VISIBLE.format(t="o")}))"""
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
   AND {_VISIBLE.format(t="e")} AND e.ts <= $3
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
           'importance', r.importance, 'pinned', r.pinned, 'source', r.source,
           'updated_at', r.updated_at, 'message_ids', r.provenance_message_ids,
           'subject', {_ENTITY_JSON.format(t="s")},
           'object', CASE WHEN o.entity_id IS NULL THEN NULL
                          ELSE {_ENTITY_JSON.format(t="o")} END)
  FROM relations r {_ENDPOINTS}
 WHERE r.user_id = $1 AND r.rel_id = ANY($6::uuid[]) AND {_LIVE_FACT}
UNION ALL
SELECT 'message', jsonb_build_object(
           'message_id', m.message_id, 'session_id', m.session_id, 'role', m.role,
           'speaker', m.speaker, 'text', m.text, 'ts', m.ts,
           'previous', CASE WHEN $9 THEN (
               SELECT jsonb_build_object('message_id', p.message_id, 'role', p.role,
                                         'speaker', p.speaker, 'text', p.text, 'ts', p.ts)
                 FROM messages p
                WHERE p.user_id = $1 AND p.session_id = m.session_id AND p.seq < m.seq
                  AND p.active
                ORDER BY p.seq DESC LIMIT 1) END)
  FROM messages m
 WHERE m.user_id = $1 AND m.message_id = ANY($7::uuid[]) AND m.agent_id = $2 AND m.active
   AND m.ts <= $3
UNION ALL
SELECT 'name', jsonb_build_object('name', n.name)
  FROM (SELECT e.name FROM entities e
         WHERE e.user_id = $1 AND e.entity_id = ANY($8::uuid[]) AND e.active
        UNION
        SELECT a.alias FROM entity_aliases a
          JOIN entities e ON e.user_id = a.user_id AND e.entity_id = a.entity_id
         WHERE a.user_id = $1 AND a.entity_id = ANY($8::uuid[]) AND e.active) n
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
          AND {_LIVE_FACT}
        ORDER BY r.pinned DESC, r.importance DESC, r.created_at DESC, r.rel_id
        LIMIT $6) f
"""

_DECODERS: dict[str, type] = {
    "episode": EpisodeRow,
    "chunk": ChunkRow,
    "fact": FactRow,
    "message": MessageRow,
    "name": NameRow,
}


async def load_rows(
    conn: asyncpg.Connection,
    *,
    user_id: str,
    agent_id: str,
    now: datetime,
    episode_ids: Sequence[str],
    chunk_ids: Sequence[str],
    fact_ids: Sequence[str],
    message_ids: Sequence[str] = (),
    entity_ids: Sequence[str] = (),
    previous: bool = False,
) -> Rows:
    """The live rows among the ids the index proposed (stale or forgotten ones are absent),
    and the names and aliases of the live ones among ``entity_ids`` (when turns were asked)."""
    found: dict[str, dict[str, Any]] = {"episode": {}, "chunk": {}, "fact": {}, "message": {}}
    names: list[str] = []
    seeds = _uuids(entity_ids) if message_ids else []
    if episode_ids or chunk_ids or fact_ids or message_ids:
        for record in await conn.fetch(
            LOAD_ROWS,
            user_id,
            agent_id,
            now,
            list(episode_ids),
            list(chunk_ids),
            list(fact_ids),
            list(message_ids),
            seeds,
            previous,
        ):
            row = msgspec.convert(record["row"], _DECODERS[record["kind"]])
            if isinstance(row, NameRow):
                names.append(row.name)
            else:
                found[record["kind"]][getattr(row, _ID[record["kind"]])] = row
    return Rows(
        episodes=found["episode"],
        chunks=found["chunk"],
        facts=found["fact"],
        messages=found["message"],
        entity_names=names,
    )


_ID = {"episode": "episode_id", "chunk": "chunk_id", "fact": "rel_id", "message": "message_id"}


def _uuids(values: Sequence[str]) -> list[uuid.UUID]:
    out = []
    for value in values:
        try:
            out.append(uuid.UUID(str(value)))
        except ValueError:
            continue
    return out


async def load_card_facts(
    conn: asyncpg.Connection,
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


# --- continuity --------------------------------------------------------------------------------


class TailMessage(msgspec.Struct, frozen=True):
    message_id: str
    role: str
    speaker: str | None
    text: str
    ts: datetime


class Continuity(msgspec.Struct, frozen=True):
    summary: dict[str, Any] | None = None
    summary_episode_id: str | None = None
    previous_session_id: str | None = None
    tail: list[TailMessage] = []


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
)
SELECT jsonb_build_object(
    'summary', (SELECT summary FROM latest),
    'summary_episode_id', (SELECT episode_id FROM latest),
    'previous_session_id', (SELECT session_id FROM previous),
    'tail', COALESCE((SELECT jsonb_agg(jsonb_build_object(
                          'message_id', t.message_id, 'role', t.role, 'speaker', t.speaker,
                          'text', t.text, 'ts', t.ts) ORDER BY t.seq) FROM tail t), '[]'))
"""


async def load_continuity(
    conn: asyncpg.Connection,
    *,
    user_id: str,
    agent_id: str,
    chat_id: str,
    now: datetime,
    idle_since: datetime,
    tail_turns: int,
) -> Continuity:
    raw = await conn.fetchval(
        LOAD_CONTINUITY, user_id, agent_id, chat_id, now, idle_since, tail_turns
    )
    return msgspec.convert(raw, Continuity)
