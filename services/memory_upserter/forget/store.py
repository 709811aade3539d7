"""Forgetting in Postgres (003 §9), inside the caller's transaction; every statement is per user.

What a scope reaches: ``agent`` — this agent's agent-scoped facts and entities, its todos,
episodes and messages; ``global`` — all of the user's, whichever agent holds them. A target
narrows it: an entity (every relation touching it, the entity itself with its aliases, and the
todos and episodes that name it), a fact/episode/todo id, or a text (normalized substring of
fact and todo texts and episode reflections). The messages that mention an entity or a text are
redacted, not forgotten (:mod:`.mentions`); the messages of a session or a chat, and a message
named by id, go whole. The user's own entity ("me") is never forgotten itself, only what is
said about them.

Soft: relations ``status = 'FORGOTTEN'``, other rows ``active = false``, with ``forgotten_at``
and ``forget_reason``. Hard: the rows are deleted. Either way the audit (``forget_log``) keeps
ids and counts, never content.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

import asyncpg

from services.core.deps import Connection
from services.core.memory_store import SELF_REF
from services.memory_upserter.forget.compact import user_tables
from services.memory_upserter.forget.types import Effects, Selection

FIND_ENTITIES = f"""
SELECT e.entity_id, e.name_normalized, e.entity_ref, e.entity_ref = '{SELF_REF}' AS is_self,
       ARRAY(SELECT a.alias_normalized FROM entity_aliases a
              WHERE a.user_id = e.user_id AND a.entity_id = e.entity_id) AS aliases
  FROM entities e
 WHERE e.user_id = $1 AND (e.active OR $3)
   AND (e.entity_id = ANY($2::uuid[])
        OR e.name_normalized = ANY(SELECT twin_normalize(x) FROM unnest($4::text[]) x)
        OR e.entity_ref = ANY($4::text[])
        OR e.entity_id IN (SELECT a.entity_id FROM entity_aliases a WHERE a.user_id = $1
                              AND a.alias_normalized = ANY(SELECT twin_normalize(x)
                                                             FROM unnest($4::text[]) x)))
"""

TEXT_SQL = (
    "EXISTS (SELECT 1 FROM unnest({texts}::text[]) q "
    "WHERE strpos(twin_normalize({col}), twin_normalize(q)) > 0)"
)
NAMES_SQL = "({names}::text IS NOT NULL AND twin_normalize({col}) ~ {names})"
_AGENT = "({agent}::text IS NULL OR r.agent_id = {agent})"
# kind: (table, id column, still live, scope filter, what a target reaches, soft SET)
_KINDS = {
    "facts": (
        "relations",
        "rel_id",
        "r.status <> 'FORGOTTEN'",
        "({agent}::text IS NULL OR (r.scope = 'agent' AND r.agent_id = {agent}))",
        "r.subject_id = ANY({entities}::uuid[]) OR r.object_id = ANY({entities}::uuid[])"
        " OR "
        + NAMES_SQL.format(names="{names}", col="r.text")
        + " OR "
        + TEXT_SQL.format(texts="{texts}", col="r.text"),
        "status = 'FORGOTTEN', indexed_at = NULL, updated_at = {now}",
    ),
    "todos": (
        "todos",
        "todo_id",
        "r.active",
        _AGENT,
        NAMES_SQL.format(names="{names}", col="r.text")
        + " OR "
        + TEXT_SQL.format(texts="{texts}", col="r.text"),
        "active = false, updated_at = {now}",
    ),
    "episodes": (
        "episodes",
        "episode_id",
        "r.active",
        _AGENT,
        "r.entity_ids ?| {entities}::uuid[]::text[] OR "
        + NAMES_SQL.format(names="{names}", col="r.reflection")
        + " OR "
        + TEXT_SQL.format(texts="{texts}", col="r.reflection")
        + " OR r.session_id = ANY({sessions}::uuid[])",
        "active = false, updated_at = {now}",
    ),
    "messages": (
        "messages",
        "message_id",
        "r.active",
        _AGENT,
        NAMES_SQL.format(names="{names}", col="r.text")
        + " OR "
        + TEXT_SQL.format(texts="{texts}", col="r.text")
        + " OR r.session_id = ANY({sessions}::uuid[])",
        "active = false",
    ),
}


def _numbered(template: str) -> tuple[str, list[str]]:
    """``{name}`` placeholders → ``$n``, numbered in order of first use; returns the names."""
    order: list[str] = []

    def number(match: re.Match[str]) -> str:
        if match[1] not in order:
            order.append(match[1])
        return f"${order.index(match[1]) + 1}"

    return re.sub(r"\{(\w+)\}", number, template), order


def _statement(kind: str, hard: bool) -> tuple[str, list[str]]:
    table, key, live, scope, match, soft_set = _KINDS[kind]
    live = "true" if hard else live  # a hard forget also removes what a soft one hid
    where = (
        f"r.user_id = {{user}} AND {live} AND {scope} AND "
        f"({{everything}} OR r.{key} = ANY({{ids}}::uuid[]) OR {match})"
    )
    if hard:
        return _numbered(f"DELETE FROM {table} r WHERE {where} RETURNING r.{key}")
    return _numbered(
        f"UPDATE {table} r SET {soft_set}, forgotten_at = {{now}}, "
        f"forget_reason = {{reason}} WHERE {where} RETURNING r.{key}"
    )


STATEMENTS = {(kind, hard): _statement(kind, hard) for kind in _KINDS for hard in (False, True)}


def names_pattern(names: Sequence[str]) -> str | None:
    """A Postgres word-boundary regex matching any of the normalized names."""
    names = sorted({n for n in names if n}, key=len, reverse=True)
    if not names:
        return None
    return r"\m(" + "|".join(re.escape(n).replace(r"\ ", " ") for n in names) + r")\M"


async def find_entities(
    conn: Connection, user_id: str, handles: Sequence[str], *, hard: bool
) -> list[asyncpg.Record]:
    """The user's entities answering to these names, aliases, refs or ids (any scope: whether
    the scope may forget the entity itself is decided per row, ``own``)."""
    ids = [uuid.UUID(h) for h in handles if _is_uuid(h)]
    return await conn.fetch(FIND_ENTITIES, user_id, ids, hard, list(handles))


async def forget_rows(
    conn: Connection, selection: Selection, *, hard: bool, now: datetime, reason: str | None
) -> Effects:
    """Forget every row the selection reaches, kind by kind; entities last (a hard delete of
    an entity would cascade to relations the scope may not reach)."""
    s = selection
    effects = Effects()
    explicit = {
        "facts": s.fact_ids,
        "todos": s.todo_ids,
        "episodes": s.episode_ids,
        "messages": s.message_ids,
    }
    for kind in ("facts", "todos", "episodes", "messages"):
        if kind == "messages" and not (s.everything or s.session_ids or s.message_ids):
            continue  # an entity or a text is cut out of the messages (.mentions), not them
        sql, names = STATEMENTS[(kind, hard)]
        values = {
            "user": s.user_id,
            "agent": s.agent_id,
            "everything": s.everything,
            "entities": list(s.entity_ids),
            "ids": list(explicit[kind]),
            "texts": list(s.texts),
            "names": s.names_pattern,
            "sessions": list(s.session_ids),
            "now": now,
            "reason": reason,
        }
        rows = await conn.fetch(sql, *(values[n] for n in names))
        effects.add(kind, [r[0] for r in rows])
    if s.entity_ids:
        await _forget_entities(conn, s, hard=hard, now=now, reason=reason, effects=effects)
    return effects


async def _forget_entities(
    conn: Connection,
    s: Selection,
    *,
    hard: bool,
    now: datetime,
    reason: str | None,
    effects: Effects,
) -> None:
    where = (
        f"e.user_id = $1 AND e.entity_id = ANY($3::uuid[]) "
        f"AND e.entity_ref IS DISTINCT FROM '{SELF_REF}' "
        "AND ($2::text IS NULL OR (e.scope = 'agent' AND e.agent_id = $2))"
    )
    aliases = await conn.fetchval(
        f"SELECT count(*) FROM entity_aliases a JOIN entities e ON e.user_id = a.user_id "
        f"AND e.entity_id = a.entity_id WHERE {where} AND (e.active OR $4)",
        s.user_id,
        s.agent_id,
        list(s.entity_ids),
        hard,
    )
    if hard:
        rows = await conn.fetch(
            f"DELETE FROM entities e WHERE {where} RETURNING e.entity_id",
            s.user_id,
            s.agent_id,
            list(s.entity_ids),
        )
    else:
        rows = await conn.fetch(
            f"UPDATE entities e SET active = false, forgotten_at = $4, forget_reason = $5, "
            f"updated_at = $4 WHERE {where} AND e.active RETURNING e.entity_id",
            s.user_id,
            s.agent_id,
            list(s.entity_ids),
            now,
            reason,
        )
    effects.add("entities", [r[0] for r in rows])
    effects.counts["aliases"] += aliases if rows else 0


async def forget_everything_hard(conn: Connection, user_id: str) -> Effects:
    """Global, everything, hard: the users row goes and every table cascades from it. Rows are
    counted per table first — every table with a ``user_id`` column, read from the schema, so
    a table added later is in the receipt without a change here."""
    effects = Effects()
    counts = await conn.fetchrow(
        """SELECT (SELECT count(*) FROM relations WHERE user_id = $1) AS facts,
                  (SELECT count(*) FROM entities WHERE user_id = $1
                     AND entity_ref IS DISTINCT FROM 'self:user') AS entities,
                  (SELECT count(*) FROM todos WHERE user_id = $1) AS todos,
                  (SELECT count(*) FROM episodes WHERE user_id = $1) AS episodes,
                  (SELECT count(*) FROM messages WHERE user_id = $1) AS messages""",
        user_id,
    )
    assert counts is not None  # one row, always
    effects.counts.update(dict(counts))
    for table in await user_tables(conn):
        if table == "forget_log":  # the audit outlives the user (and holds no content)
            continue
        n = await conn.fetchval(f'SELECT count(*) FROM "{table}" WHERE user_id = $1', user_id)
        if n:
            effects.tables[table] = n
    await conn.execute("DELETE FROM users WHERE user_id = $1", user_id)
    return effects


async def sessions_to_forget(
    conn: Connection,
    user_id: str,
    agent_id: str,
    chat_id: str,
    session_id: UUID | None,
    *,
    whole_chat: bool,
) -> list[UUID]:
    """Every session of this chat (``whole_chat``), else the given one, else the chat's most
    recent one."""
    rows = await conn.fetch(
        """SELECT session_id FROM sessions
            WHERE user_id = $1 AND agent_id = $2 AND chat_id = $3
              AND ($4::uuid IS NULL OR session_id = $4)
            ORDER BY started_at DESC LIMIT CASE WHEN $5 THEN NULL ELSE 1 END""",
        user_id,
        agent_id,
        chat_id,
        session_id,
        whole_chat,
    )
    return [r[0] for r in rows]


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True
