"""Forgetting follows provenance (inside the forget's transaction): when messages are forgotten
with their history — a session's or a chat's (``include_history``), or one named by id — so is
what memory learned only from them.

The rule, per kind:

- a fact whose every provenance message is forgotten goes (soft or hard, like the messages);
  a fact also learned from a message that stays keeps that support and loses the forgotten
  one from its ``provenance_message_ids`` (counted ``facts_trimmed``). A fact with no
  provenance (seeded, curated, manual) was not learned from a message and stays;
- a message named by id goes with the rest of its turn (the reply to it repeats it and lists
  what it named);
- a todo captured in a forgotten session, or from a forgotten message, goes;
- an entity the forgotten messages or facts named goes when nothing that stays names it: no
  live fact touches it and no kept message of the person's or episode lists it (a reply lists
  its turn's entities: it is not evidence; the user's own entity never goes); one still named
  elsewhere stays (counted ``entities_kept``). An entity known only through the facts of a
  forgotten entity goes with it the same way ("Porto", where a forgotten Marta lives:
  :func:`forget_unnamed`);
- the summary-spine versions written after the first forgotten message go (each version
  summarizes every message before it); the spine is written again from what remains;
- an episode goes with its session; one written from a forgotten message (its session's range
  of ``seq`` holds it) goes with that message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import asyncpg

from contracts.memory import Notice
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
_SESSIONS = """
SELECT m.message_id, m.session_id, m.seq, m.entity_ids FROM messages m
 WHERE m.user_id = $1 AND m.session_id = ANY($2::uuid[]) AND ($3 OR m.active)
"""
_TURNS = """
SELECT m.message_id, m.session_id, m.seq, m.entity_ids FROM messages m
 WHERE m.user_id = $1 AND ($3 OR m.active)
   AND (m.agent_id, m.chat_id, m.turn_id) IN (
        SELECT n.agent_id, n.chat_id, n.turn_id FROM messages n
         WHERE n.user_id = $1 AND n.message_id = ANY($2::uuid[])
           AND ($4::text IS NULL OR n.agent_id = $4))
"""
_EPISODES_OF = """
SELECT p.episode_id FROM episodes p
 WHERE p.user_id = $1 AND ($3 OR p.active)
   AND (p.session_id = ANY($2::uuid[])
        OR EXISTS (SELECT 1 FROM messages m WHERE m.user_id = $1 AND m.message_id = ANY($4::uuid[])
                      AND m.session_id = p.session_id
                      AND m.seq BETWEEN p.first_message_seq AND p.last_message_seq))
"""
_FOLLOWING = """
SELECT DISTINCT n.message_id FROM unnest($2::uuid[], $3::bigint[]) x(sid, seq)
  CROSS JOIN LATERAL (SELECT m.message_id FROM messages m
                       WHERE m.user_id = $1 AND m.session_id = x.sid AND m.seq > x.seq
                         AND m.active ORDER BY m.seq LIMIT 1) n
"""
_EPISODE_ENTITIES = """
SELECT x::uuid FROM episodes p, jsonb_array_elements_text(p.entity_ids) x
 WHERE p.user_id = $1 AND p.episode_id = ANY($2::uuid[]) AND x ~ '^[0-9a-f-]{36}$'
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
                      AND m.role = 'user' AND e.entity_id = ANY(m.entity_ids))
   AND NOT EXISTS (SELECT 1 FROM episodes p WHERE p.user_id = $1 AND p.active
                      AND p.entity_ids ? e.entity_id::text)
"""


@dataclass(frozen=True)
class History:
    """Messages to forget with their history, read before they go (a hard forget deletes
    them): the sessions that go whole, every message, the episodes written from them, and the
    entities they all named."""

    sessions: list[UUID]
    messages: list[UUID]
    episodes: list[UUID]
    named: set[UUID]
    first_seq: int | None
    places: list[tuple[UUID, int]]  # (session, seq) of each message


async def read_sessions(
    conn: Connection, user_id: str, sessions: list[UUID], *, hard: bool
) -> History:
    """Whole sessions: their messages and their episodes."""
    rows = await conn.fetch(_SESSIONS, user_id, sessions, hard)
    return await _history(conn, user_id, sessions, rows, hard=hard)


async def read_messages(
    conn: Connection, user_id: str, agent_id: str | None, ids: list[UUID], *, hard: bool
) -> History:
    """Messages named by id (of this agent, when the scope is one) with the rest of their turn
    (the reply to them, which repeats what they said), and the episodes written from them."""
    rows = await conn.fetch(_TURNS, user_id, ids, hard, agent_id)
    return await _history(conn, user_id, [], rows, hard=hard)


async def _history(
    conn: Connection,
    user_id: str,
    sessions: list[UUID],
    rows: Sequence[asyncpg.Record],
    *,
    hard: bool,
) -> History:
    messages = [r["message_id"] for r in rows]
    episodes = [r[0] for r in await conn.fetch(_EPISODES_OF, user_id, sessions, hard, messages)]
    named = {e for r in rows for e in r["entity_ids"]}
    named |= {r[0] for r in await conn.fetch(_EPISODE_ENTITIES, user_id, episodes)}
    return History(
        sessions,
        messages,
        episodes,
        named,
        min((r["seq"] for r in rows), default=None),
        [(r["session_id"], r["seq"]) for r in rows],
    )


@dataclass(frozen=True)
class At:
    """Whose, how and when: what every forget statement of one request shares."""

    user_id: str
    hard: bool
    now: datetime
    reason: str | None


async def forget_history(conn: Connection, history: History, at: At) -> Effects:
    """The messages and episodes of ``history``, then what was learned only from them; the
    message after each forgotten one (its indexed text carries the one before it) is named
    ``messages_following``, for the clean-up to index afresh."""
    whole = Selection(
        at.user_id,
        None,
        session_ids=tuple(history.sessions),
        message_ids=tuple(history.messages),
        episode_ids=tuple(history.episodes),
    )
    effects = await store.forget_rows(conn, whole, hard=at.hard, now=at.now, reason=at.reason)
    merge(
        effects,
        await forget_learned_from(
            conn, history, user_id=at.user_id, hard=at.hard, now=at.now, reason=at.reason
        ),
    )
    following = await conn.fetch(
        _FOLLOWING, at.user_id, [p[0] for p in history.places], [p[1] for p in history.places]
    )
    effects.add("messages_following", [r[0] for r in following])
    return effects


def unfound(asked: Sequence[UUID], history: History) -> list[Notice]:
    """A warning for the message ids that named no message of the scope (pure)."""
    missing = len(set(asked) - set(history.messages))  # (a turn holds the ids asked)
    return (
        [Notice(code="message_not_found", detail=f"{missing} message id(s) name no message")]
        if missing
        else []
    )


async def linked_to(conn: Connection, user_id: str, entities: Sequence[UUID]) -> list[UUID]:
    """The entities the facts of ``entities`` link them to (read before those facts go)."""
    rows = await conn.fetch(
        """SELECT DISTINCT CASE WHEN r.subject_id = ANY($2::uuid[]) THEN r.object_id
                                ELSE r.subject_id END
             FROM relations r WHERE r.user_id = $1
              AND (r.subject_id = ANY($2::uuid[]) OR r.object_id = ANY($2::uuid[]))""",
        user_id,
        list(entities),
    )
    return [r[0] for r in rows if r[0] is not None and r[0] not in entities]


async def forget_unnamed(conn: Connection, candidates: Sequence[UUID], at: At) -> Effects:
    """Of ``candidates``, the entities nothing that stays names any more (no live fact, message
    or episode; never the person's own): known only through what was forgotten, they go too
    ("Porto", known only as where a forgotten Marta lives)."""
    if not candidates:
        return Effects()
    unnamed = [r[0] for r in await conn.fetch(_UNNAMED, at.user_id, list(candidates))]
    if not unnamed:
        return Effects()
    entities = Selection(at.user_id, None, entity_ids=tuple(unnamed))
    return await store.forget_rows(conn, entities, hard=at.hard, now=at.now, reason=at.reason)


async def forget_learned_from(
    conn: Connection,
    history: History,
    *,
    user_id: str,
    hard: bool,
    now: datetime,
    reason: str | None,
) -> Effects:
    """What was learned only from the history's messages, forgotten too (after them); returns
    what this added (facts, todos, entities, summaries, and the counts of the facts trimmed
    and the entities kept)."""
    added = Effects()
    if not history.messages:
        return added
    texts = [str(m) for m in history.messages]
    facts = [r[0] for r in await conn.fetch(_ONLY_FROM, user_id, texts, hard)]
    todos = [
        r[0]
        for r in await conn.fetch(
            """SELECT todo_id FROM todos WHERE user_id = $1 AND ($3 OR active)
                 AND (session_id = ANY($2::uuid[]) OR source_message_id = ANY($4::uuid[]))""",
            user_id,
            history.sessions,
            hard,
            history.messages,
        )
    ]
    named = history.named | {
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
    if history.first_seq is not None:
        status = await conn.execute(
            "DELETE FROM summary_spine WHERE user_id = $1 AND through_message_seq >= $2",
            user_id,
            history.first_seq,
        )
        added.counts["summaries"] += int(status.split()[-1])
    return added
