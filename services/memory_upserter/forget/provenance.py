"""Forgetting follows provenance (inside the forget's transaction): when a session's messages
are forgotten with their history, so is what memory learned only from them.

The rule, per kind:

- a fact whose every provenance message is forgotten goes (soft or hard, like the messages);
  a fact also learned from a message that stays keeps that support and loses the forgotten
  one from its ``provenance_message_ids`` (counted ``facts_trimmed``). A fact with no
  provenance (seeded, curated, manual) was not learned from a message and stays;
- a todo captured in the session, or from one of its messages, goes;
- an entity the forgotten messages or facts named goes when nothing that stays names it: no
  live fact touches it and no kept message or episode lists it (the user's own entity never
  goes); one still named elsewhere stays (counted ``entities_kept``);
- the summary-spine versions written after the session's first message go (each version
  summarizes every message before it); the spine is written again from what remains.

Episodes of the session go with its messages (:mod:`.store`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from services.core.deps import Connection
from services.core.memory_store import SELF_REF
from services.memory_upserter.forget import store
from services.memory_upserter.forget.types import Effects, Selection, merge

_ONLY_FROM = """
SELECT r.rel_id FROM relations r
 WHERE r.user_id = $1 AND ($3 OR r.status <> 'FORGOTTEN')
   AND r.provenance_message_ids ?| $2::text[]
   AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements_text(r.provenance_message_ids) x
                    WHERE x <> ALL($2::text[]))
"""
_TRIM = """
UPDATE relations r
   SET provenance_message_ids = (SELECT coalesce(jsonb_agg(x), '[]'::jsonb)
                                   FROM jsonb_array_elements(r.provenance_message_ids) x
                                  WHERE x #>> '{}' <> ALL($2::text[]))
 WHERE r.user_id = $1 AND r.provenance_message_ids ?| $2::text[] AND r.status <> 'FORGOTTEN'
RETURNING r.rel_id
"""
_SESSION = """
SELECT m.message_id, m.seq, m.entity_ids FROM messages m
 WHERE m.user_id = $1 AND m.session_id = $2 AND ($3 OR m.active)
"""
_SESSION_EPISODES = """
SELECT x::uuid FROM episodes p, jsonb_array_elements_text(p.entity_ids) x
 WHERE p.user_id = $1 AND p.session_id = $2 AND ($3 OR p.active) AND x ~ '^[0-9a-f-]{36}$'
"""
_FACT_ENTITIES = """
SELECT unnest(ARRAY[r.subject_id, r.object_id]) FROM relations r
 WHERE r.user_id = $1 AND r.rel_id = ANY($2::uuid[])
"""
_LIVE = f"""
SELECT e.entity_id FROM entities e
 WHERE e.user_id = $1 AND e.entity_id = ANY($2::uuid[]) AND e.active
   AND e.entity_ref IS DISTINCT FROM '{SELF_REF}'
"""
_UNNAMED = f"""
SELECT e.entity_id FROM entities e
 WHERE e.user_id = $1 AND e.entity_id = ANY($2::uuid[]) AND e.active
   AND e.entity_ref IS DISTINCT FROM '{SELF_REF}'
   AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.user_id = $1 AND r.status <> 'FORGOTTEN'
                      AND (r.subject_id = e.entity_id OR r.object_id = e.entity_id))
   AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.user_id = $1 AND m.active
                      AND e.entity_id = ANY(m.entity_ids))
   AND NOT EXISTS (SELECT 1 FROM episodes p WHERE p.user_id = $1 AND p.active
                      AND p.entity_ids ? e.entity_id::text)
"""


@dataclass(frozen=True)
class Session:
    """A session's messages as they were before the forget: what they named, from where."""

    session_id: UUID
    messages: list[UUID]
    named: set[UUID]  # the entities its messages and episodes listed
    first_seq: int | None


async def read_session(conn: Connection, user_id: str, session_id: UUID, *, hard: bool) -> Session:
    """Read before the session's rows go (a hard forget deletes them)."""
    rows = await conn.fetch(_SESSION, user_id, session_id, hard)
    named = {e for r in rows for e in r["entity_ids"]}
    named |= {r[0] for r in await conn.fetch(_SESSION_EPISODES, user_id, session_id, hard)}
    return Session(
        session_id,
        [r["message_id"] for r in rows],
        named,
        min((r["seq"] for r in rows), default=None),
    )


async def forget_learned_from(
    conn: Connection,
    session: Session,
    *,
    user_id: str,
    hard: bool,
    now: datetime,
    reason: str | None,
) -> Effects:
    """What was learned only from the session's messages, forgotten too (after them); returns
    what this added (facts, todos, entities, summaries, and the counts of the facts trimmed
    and the entities kept)."""
    added = Effects()
    if not session.messages:
        return added
    texts = [str(m) for m in session.messages]
    facts = [r[0] for r in await conn.fetch(_ONLY_FROM, user_id, texts, hard)]
    todos = [
        r[0]
        for r in await conn.fetch(
            """SELECT todo_id FROM todos WHERE user_id = $1 AND ($3 OR active)
                 AND (session_id = $2 OR source_message_id = ANY($4::uuid[]))""",
            user_id,
            session.session_id,
            hard,
            session.messages,
        )
    ]
    named = session.named | {
        r[0] for r in await conn.fetch(_FACT_ENTITIES, user_id, facts) if r[0] is not None
    }
    learned = Selection(user_id, None, fact_ids=tuple(facts), todo_ids=tuple(todos))
    merge(added, await store.forget_rows(conn, learned, hard=hard, now=now, reason=reason))
    added.counts["facts_trimmed"] += len(await conn.fetch(_TRIM, user_id, texts))
    unnamed = [r[0] for r in await conn.fetch(_UNNAMED, user_id, list(named))]
    if unnamed:
        entities = Selection(user_id, None, entity_ids=tuple(unnamed))
        merge(added, await store.forget_rows(conn, entities, hard=hard, now=now, reason=reason))
    added.counts["entities_kept"] += len(
        {r[0] for r in await conn.fetch(_LIVE, user_id, list(named))} - set(unnamed)
    )
    if session.first_seq is not None:
        status = await conn.execute(
            "DELETE FROM summary_spine WHERE user_id = $1 AND through_message_seq >= $2",
            user_id,
            session.first_seq,
        )
        added.counts["summaries"] += int(status.split()[-1])
    return added
