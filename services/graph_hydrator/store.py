"""graph-hydrator's reads: one SQL statement per kind of data, each taking a connection.

Every statement is per user (``user_id = $1`` on every table read, so another user's rows are
never read), and keeps only what this agent may see (scope global or ``agent_id`` = this agent)
and only live rows: entities ``active``; relations true at ``now`` (``valid_from <= now <
valid_to``, open ends allowed; ``ACTIVE``, or ``SUPERSEDED`` with a ``valid_to`` after
``now``: a past ``now`` reads what was true then) whose endpoints are live and visible;
todos ``active`` and of this agent. Predicates are compared as stored: memory-upserter writes
them canonical (upper snake case, ``canonical_predicate``). Nothing here writes
(``entities.last_seen`` is the memory-upserter's).

The statements avoid joins on purpose: the entities an edge or fact points at are read by
correlated sub-selects (one primary-key probe each), so Postgres plans each statement in a
fraction of the time a three-way join takes — planning, not execution, dominated these
millisecond queries (see ``bench/graph_hydrator.py``).

``find_entities``   names/aliases (a person's given name too) equal to any lookup key, the
                    session's active ids, and relatives named by a relation word ("my sister")
``load_edges``      1-hop relations of a set of entities, both directions, pre-ranked, the
                    scheduled ones too; no PSYCHE inference unless pinned (001)
``load_foundation`` the candidates of :func:`lists.is_foundation`, pre-ordered
``load_todos``      the four todo lists, each pre-ranked by a window function
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from contracts.slots import UNVERIFIED_BELOW
from services.core.deps import Connection
from services.core.memory_store.keys import SELF_REF
from services.core.memory_store.visibility import visible
from services.graph_hydrator.lists import (
    AFFECT_PREDICATES,
    FETCH_FACTOR,
    FOUNDATION_CAP,
    TODO_CAPS,
    WINS_WINDOW,
)
from services.graph_hydrator.rows import EdgeRow, EntityRow, FactRow, TodoRow
from services.graph_hydrator.subgraph import CRITICAL_PREDICATES

EDGE_ROWS_MAX = 500  # rows of one turn's 1-hop query; the cap keeps at most 60 of them

# True at ``now``: a live row, or one superseded later (an as-of read with a past ``now`` sees
# what was true then); an expired or superseded row's ``valid_to`` has passed at the present.
_LIVE_FACT = f"""r.user_id = $1
   AND (r.status = 'ACTIVE' OR (r.status = 'SUPERSEDED' AND r.valid_to IS NOT NULL))
   AND {visible("r", "$2")}
   AND (r.valid_to IS NULL OR r.valid_to > $3) AND (r.valid_from IS NULL OR r.valid_from <= $3)"""
# Or an ACTIVE row scheduled by ``now`` to start later ("from dec 3 i'm at X"), with its start.
_LIVE_OR_SCHEDULED = _LIVE_FACT.replace(
    "(r.valid_from IS NULL OR r.valid_from <= $3)",
    "(r.valid_from IS NULL OR r.valid_from <= $3 OR (r.status = 'ACTIVE' AND r.created_at <= $3))",
)


def _endpoint(column: str, fields: str) -> str:
    """A sub-select of the entity ``r.<column>`` points at, NULL unless live and visible."""
    return (
        f"(SELECT {fields} FROM entities e WHERE e.user_id = $1 "
        f"AND e.entity_id = r.{column} AND e.active AND {visible('e', '$2')})"
    )


_ENTITY_RECORD = "(e.entity_id::text, e.name, e.category, e.scope, e.entity_ref, e.last_seen)"

# The person's own entity (memory-upserter writes it with ``entity_ref = 'self:user'``).
_SELF = f"(SELECT e.entity_id FROM entities e WHERE e.user_id = $1 AND e.entity_ref = '{SELF_REF}')"
# A live relation between the person and someone, by one of the predicates in $5.
_KIN = f"""r.user_id = $1 AND r.status = 'ACTIVE' AND {visible("r", "$2")}
   AND (r.valid_to IS NULL OR r.valid_to > $6) AND (r.valid_from IS NULL OR r.valid_from <= $6)
   AND r.predicate = ANY($5::text[])"""

# By any predicate when the message says no relation word ("Marta (sister)" in a question).
_KIN_ANY = _KIN.replace("r.predicate = ANY($5::text[])", "(r.predicate = ANY($5) OR $5 = '{}')")

FIND_ENTITIES = f"""
SELECT e.entity_id::text, e.name_normalized, e.name, e.category, e.scope, e.entity_ref,
       e.last_seen, e.attributes,
       ARRAY(SELECT (a.alias, a.alias_normalized) FROM entity_aliases a
              WHERE a.entity_id = e.entity_id ORDER BY a.created_at, a.alias) AS aliases,
       ARRAY(
           SELECT CASE WHEN r.subject_id = e.entity_id THEN '^' ELSE '' END || r.predicate
             FROM relations r
            WHERE {_KIN_ANY} AND ((r.subject_id = {_SELF} AND r.object_id = e.entity_id)
                 OR (r.object_id = {_SELF} AND r.subject_id = e.entity_id))
         ORDER BY r.updated_at DESC) AS kin
  FROM entities e
 WHERE e.user_id = $1 AND e.active AND {visible("e", "$2")}
   AND (e.name_normalized = ANY($3::text[])
        OR (e.category = 'Person' AND split_part(e.name_normalized, ' ', 1) = ANY($3::text[]))
        OR e.entity_id = ANY($4::uuid[])
        OR e.entity_id = ANY(ARRAY(SELECT a.entity_id FROM entity_aliases a
                                    WHERE a.user_id = $1 AND a.alias_normalized = ANY($3::text[])))
        OR (cardinality($5::text[]) > 0 AND e.entity_id = ANY(ARRAY(
              SELECT CASE WHEN r.subject_id = {_SELF} THEN r.object_id ELSE r.subject_id END
                FROM relations r
               WHERE {_KIN} AND (r.subject_id = {_SELF} OR r.object_id = {_SELF})))))
"""

LOAD_EDGES = f"""
SELECT r.rel_id::text, r.scope, r.predicate, r.object_id IS NOT NULL AS to_entity,
       r.object_value, r.text, r.confidence::float8, r.importance, r.pinned, r.source,
       r.valid_from, r.valid_to, r.updated_at, r.provenance_message_ids,
       {_endpoint("subject_id", _ENTITY_RECORD)} AS s,
       {_endpoint("object_id", _ENTITY_RECORD)} AS o
  FROM relations r
 WHERE {_LIVE_OR_SCHEDULED} AND (r.memory_type <> 'PSYCHE' OR r.pinned)
   AND (r.subject_id = ANY($4::uuid[]) OR r.object_id = ANY($4::uuid[]))
 ORDER BY r.scope = 'agent' DESC, upper(r.predicate) = ANY($5::text[]) DESC,
          r.confidence DESC, r.updated_at DESC, r.importance DESC, r.rel_id
 LIMIT $6
"""

LOAD_FOUNDATION = f"""
SELECT r.rel_id::text, r.subject_id::text, r.predicate, r.scope, r.text, r.memory_type,
       r.importance, r.pinned, r.source, r.created_at, r.updated_at, r.provenance_message_ids,
       r.confidence::float8, r.valid_to, r.subject_id = {_SELF} AS about_self,
       {_endpoint("subject_id", "true")} IS NOT NULL
       AND (r.object_id IS NULL OR {_endpoint("object_id", "true")} IS NOT NULL) AS visible
  FROM relations r
 WHERE {_LIVE_FACT} AND r.confidence >= $6
   AND (r.pinned OR r.source = 'seeded_profile'
        OR (r.memory_type <> 'PSYCHE' AND r.predicate <> ALL($7::text[])
            AND (r.predicate = ANY($5::text[])
                 OR (r.subject_id = {_SELF}
                     AND (r.importance = 3 OR r.scope = 'agent' OR (r.scope = 'global'
                          AND r.importance >= 2 AND r.memory_type IN ('PROFILE', 'PEOPLE')))))))
 ORDER BY r.source = 'seeded_profile' DESC, r.pinned DESC, r.predicate = ANY($5::text[]) DESC,
          r.importance = 3 DESC, r.scope = 'agent' DESC, r.importance DESC, r.updated_at DESC,
          r.rel_id
 LIMIT $4
"""

# bucket = the list of the kind while pending (lists.LIST_OF_KIND), WIN once a commitment or a
# reminder is done; rank = order within a bucket
# (lists.todo_rank says the same in Python, which has the last word after deduplication).
LOAD_TODOS = """
SELECT todo_id, kind, bucket, text, status, due_at, created_at, updated_at, completed_at,
       source_snippet
  FROM (SELECT t.todo_id::text, t.kind, t.bucket, t.text, t.status, t.due_at, t.created_at,
               t.updated_at, t.completed_at, t.source_snippet,
               row_number() OVER (
                   PARTITION BY t.bucket
                   ORDER BY CASE WHEN t.bucket = 'COMMITMENT' THEN t.due_at END ASC NULLS LAST,
                            CASE WHEN t.bucket = 'COMMITMENT' THEN t.created_at END DESC,
                            CASE WHEN t.bucket = 'WIN' THEN t.completed_at END DESC,
                            t.updated_at DESC, t.text_normalized COLLATE "C", t.todo_id) AS rank
          FROM (SELECT *, CASE WHEN status = 'DONE' THEN 'WIN'
                               WHEN kind IN ('COMMITMENT', 'REMINDER') THEN 'COMMITMENT'
                               WHEN kind IN ('THREAD', 'GOAL', 'HABIT') THEN 'THREAD'
                               ELSE kind END AS bucket
                  FROM todos
                 WHERE user_id = $1 AND agent_id = $2 AND active
                   AND (status = 'PENDING'
                        OR (status = 'DONE' AND kind IN ('COMMITMENT', 'REMINDER')
                            AND completed_at > $3 AND completed_at <= $4))) t) ranked
 WHERE rank <= $5
 ORDER BY bucket, rank
"""


def _endpoint_row(record: tuple[Any, ...] | None) -> EntityRow | None:
    if record is None:
        return None
    entity_id, name, category, scope, entity_ref, last_seen = record
    return EntityRow(
        entity_id=entity_id,
        name=name,
        category=category,
        scope=scope,
        entity_ref=entity_ref,
        last_seen=last_seen,
    )


async def find_entities(
    conn: Connection,
    user_id: str,
    agent_id: str,
    keys: Sequence[str],
    active_ids: Sequence[str],
    kin_predicates: Sequence[str] = (),
    now: datetime | None = None,
) -> list[EntityRow]:
    """The live, visible entities named by a key (name or alias), listed in ``active_ids``,
    or related to the person by one of ``kin_predicates`` by a relation live at ``now``;
    ``EntityRow.kin`` says how each is related to the person (see :mod:`.kin`)."""
    rows = await conn.fetch(
        FIND_ENTITIES, user_id, agent_id, list(keys), list(active_ids), list(kin_predicates), now
    )
    return [
        EntityRow(
            entity_id=r["entity_id"],
            name=r["name"],
            category=r["category"],
            scope=r["scope"],
            entity_ref=r["entity_ref"],
            last_seen=r["last_seen"],
            attributes=r["attributes"] or {},
            aliases=tuple(alias for alias, _ in r["aliases"]),
            keys=(r["name_normalized"], *(key for _, key in r["aliases"])),
            kin=tuple(r["kin"] or ()),
        )
        for r in rows
    ]


async def load_edges(
    conn: Connection,
    user_id: str,
    agent_id: str,
    entity_ids: Sequence[str],
    now: datetime,
    limit: int = EDGE_ROWS_MAX,
) -> list[EdgeRow]:
    """Live relations touching ``entity_ids``, best first; an edge whose other end is
    forgotten or not visible to this agent is left out, and so is that end."""
    rows = await conn.fetch(
        LOAD_EDGES, user_id, agent_id, now, list(entity_ids), sorted(CRITICAL_PREDICATES), limit
    )
    edges = []
    for r in rows:
        subject, obj = _endpoint_row(r["s"]), _endpoint_row(r["o"])
        if subject is None or (r["to_entity"] and obj is None):
            continue
        edges.append(
            EdgeRow(
                rel_id=r["rel_id"],
                scope=r["scope"],
                subject=subject,
                predicate=r["predicate"],
                text=r["text"],
                confidence=r["confidence"],
                updated_at=r["updated_at"],
                obj=obj,
                value=r["object_value"],
                importance=r["importance"],
                pinned=r["pinned"],
                source=r["source"],
                valid_from=r["valid_from"],
                valid_to=r["valid_to"],
                message_ids=tuple(str(m) for m in r["provenance_message_ids"]),
            )
        )
    return edges


_FACT_COLUMNS = (
    "subject_id", "predicate", "scope", "text", "memory_type", "importance", "pinned", "source",
    "created_at", "updated_at", "confidence", "valid_to",
)  # fmt: skip


async def load_foundation(
    conn: Connection, user_id: str, agent_id: str, now: datetime
) -> list[FactRow]:
    rows = await conn.fetch(
        LOAD_FOUNDATION,
        user_id,
        agent_id,
        now,
        FOUNDATION_CAP * FETCH_FACTOR,
        sorted(CRITICAL_PREDICATES),
        UNVERIFIED_BELOW,
        sorted(AFFECT_PREDICATES),
    )
    return [
        FactRow(
            fact_id=r["rel_id"],
            about_self=bool(r["about_self"]),
            message_ids=tuple(str(m) for m in r["provenance_message_ids"]),
            **{column: r[column] for column in _FACT_COLUMNS},
        )
        for r in rows
        if r["visible"]
    ]


async def load_todos(conn: Connection, user_id: str, agent_id: str, now: datetime) -> list[TodoRow]:
    most = max(TODO_CAPS.values()) * FETCH_FACTOR
    rows = await conn.fetch(LOAD_TODOS, user_id, agent_id, now - WINS_WINDOW, now, most)
    return [TodoRow(**dict(r)) for r in rows]


async def load_spine(conn: Connection, user_id: str) -> str:
    """The text of the user's latest summary spine version ('' before reflection-writer's first)."""
    text = await conn.fetchval(
        "SELECT text FROM summary_spine WHERE user_id = $1 ORDER BY version DESC LIMIT 1", user_id
    )
    return text or ""
