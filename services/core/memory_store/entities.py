"""Entities, alias-aware: a name or alias the user already has joins that entity (000
"entity key variants": "Mukesh" said once as an alias of "Makesh" never makes a twin)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

import asyncpg

from services.core.memory_store.keys import SELF_REF, entity_type, slug
from services.core.memory_store.shapes import EntityOutcome, EntityResult, EntityWrite
from services.core.memory_store.users import lock_user
from services.core.memory_store.visibility import visible

if TYPE_CHECKING:
    from services.core.deps import Connection


_ENTITY_LOOKUP = f"""
WITH keys AS (SELECT k.i, k.raw, twin_normalize(k.raw) AS key
                FROM unnest($2::text[]) WITH ORDINALITY AS k(raw, i))
SELECT 'key' AS kind, keys.i, keys.key, m.entity_id, m.name, m.name_normalized, m.category,
       m.entity_ref, m.last_seen, m.by_alias
  FROM keys
  LEFT JOIN LATERAL (
      SELECT e.entity_id, e.name, e.name_normalized, e.category, e.entity_ref, e.last_seen,
             false AS by_alias
        FROM entities e
       WHERE e.user_id = $1 AND e.active AND {visible("e", "$3")}
         AND (e.name_normalized = keys.key OR e.entity_ref = keys.raw)
      UNION
      SELECT e.entity_id, e.name, e.name_normalized, e.category, e.entity_ref, e.last_seen, true
        FROM entity_aliases a
        JOIN entities e ON e.user_id = a.user_id AND e.entity_id = a.entity_id
       WHERE a.user_id = $1 AND a.alias_normalized = keys.key
         AND e.active AND {visible("e", "$3")}) m ON true
UNION ALL
SELECT 'ref', NULL, entity_ref, NULL, NULL, NULL, NULL, NULL, NULL, NULL
  FROM entities WHERE user_id = $1 AND entity_ref = ANY($4::text[])
"""

_ENTITY_WRITE = """
WITH new AS (
    INSERT INTO entities (entity_id, user_id, scope, agent_id, name, category, entity_ref,
                          last_seen, created_at, updated_at)
    SELECT n.id, $1, n.scope, n.agent, n.name, n.category, n.ref, $2, $2, $2
      FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
           AS n(id, scope, agent, name, category, ref)
    RETURNING entity_id),
alias AS (
    INSERT INTO entity_aliases (user_id, entity_id, alias, source)
    SELECT $1, a.entity, a.alias, $9 FROM unnest($10::uuid[], $11::text[]) AS a(entity, alias)
    ON CONFLICT (entity_id, alias_normalized) DO NOTHING
    RETURNING entity_id),
seen AS (
    UPDATE entities SET last_seen = GREATEST(COALESCE(last_seen, $2), $2)
     WHERE user_id = $1 AND entity_id = ANY($12::uuid[])
    RETURNING entity_id)
SELECT entity_id FROM alias
"""


@dataclass
class _Group:
    """Writes naming one entity: their names/aliases (normalized → as written) and lookups."""

    writes: list[int]
    lead: str  # the first write's normalized name: a new entity's name
    names: dict[str, str] = field(default_factory=dict)
    lookups: set[str] = field(default_factory=set)


@dataclass
class _EntityPlan:
    new_rows: list[tuple[Any, ...]] = field(default_factory=list)
    aliases: list[tuple[UUID, str]] = field(default_factory=list)
    touched: list[UUID] = field(default_factory=list)
    decided: dict[int, tuple[UUID, str, str, str | None, bool]] = field(default_factory=dict)


async def upsert_entities(
    conn: Connection,
    user_id: str,
    writes: Sequence[EntityWrite],
    *,
    agent_id: str | None = None,
    now: datetime,
    source: str = "llm_plan",
    lock: bool = True,
) -> list[EntityResult]:
    """One result per write, in two statements. A write ``distinct_from`` an entity never
    joins it, nor anyone by name: only by one of its aliases ("work Marta"). A write whose
    name, alias or ref matches a live entity this agent can see (normalized like
    ``twin_normalize``; same category, or either is
    'Other') joins it and adds its other names as aliases; writes sharing a name are one entity.
    ``agent_id`` is the acting agent: it sees global entities and its own. Takes the user lock
    unless ``lock=False`` (the caller holds it)."""
    if not writes:
        return []
    if lock:
        await lock_user(conn, user_id)
    raws = [raw for w in writes for raw in _raw_keys(w)]
    candidates = sorted({ref for w in writes for ref in _candidate_refs(_base_ref(w))})
    rows = await conn.fetch(_ENTITY_LOOKUP, user_id, raws, agent_id, candidates)
    plan = _decide_entities(writes, rows, agent_id)
    columns = [list(c) for c in zip(*plan.new_rows, strict=True)] or [[] for _ in range(6)]
    added = await conn.fetch(
        _ENTITY_WRITE,
        user_id,
        now,
        *columns,
        source,
        [a[0] for a in plan.aliases],
        [a[1] for a in plan.aliases],
        plan.touched,
    )
    with_alias = {r["entity_id"] for r in added}
    results = []
    for j in range(len(writes)):
        entity_id, name, category, ref, created = plan.decided[j]
        outcome: EntityOutcome = (
            "created" if created else "updated" if entity_id in with_alias else "unchanged"
        )
        results.append(EntityResult(entity_id, name, category, ref, outcome))
    return results


async def upsert_entity(
    conn: Connection,
    user_id: str,
    *,
    name: str,
    category: str,
    aliases: Sequence[str] = (),
    scope: str = "global",
    agent_id: str | None = None,
    now: datetime,
    lock: bool = True,
) -> tuple[UUID, bool]:
    """One entity (see :func:`upsert_entities`): its id and whether it was created."""
    (result,) = await upsert_entities(
        conn,
        user_id,
        [EntityWrite(name, category, tuple(aliases), scope)],
        agent_id=agent_id,
        now=now,
        lock=lock,
    )
    return result.entity_id, result.outcome == "created"


def _raw_keys(write: EntityWrite) -> list[str]:
    return [write.name, *write.aliases, *([write.ref] if write.ref else [])]


def _decide_entities(
    writes: Sequence[EntityWrite], rows: Sequence[asyncpg.Record], agent_id: str | None
) -> _EntityPlan:
    normal = {r["i"] - 1: r["key"] for r in rows if r["kind"] == "key"}
    matches: dict[str, list[asyncpg.Record]] = {}
    for r in rows:
        if r["kind"] == "key" and r["entity_id"] is not None:
            matches.setdefault(r["key"], []).append(r)
    taken = {r["key"] for r in rows if r["kind"] == "ref"}
    plan = _EntityPlan()
    for group in _group(writes, normal):
        first = writes[group.writes[0]]
        apart = next(
            (writes[j].distinct_from for j in group.writes if writes[j].distinct_from is not None),
            None,
        )
        keys = group.lookups if apart is None else group.names.keys() - {group.lead}
        found = _best(
            [
                m
                for k in keys
                for m in matches.get(k, [])
                if apart is None or m["entity_id"] != apart
            ],
            first.category,
            first.ref,
        )
        if found is not None:
            entity_id, name_key = found["entity_id"], found["name_normalized"]
            plan.touched.append(entity_id)
            decision = (entity_id, found["name"], found["category"], found["entity_ref"], False)
        else:
            entity_id, name_key = uuid.uuid4(), group.lead
            ref = _free_ref(_base_ref(first), taken)
            taken.add(ref)
            scope = "agent" if first.scope == "agent" and agent_id else "global"
            plan.new_rows.append(
                (
                    entity_id,
                    scope,
                    agent_id if scope == "agent" else None,
                    first.name,
                    first.category,
                    ref,
                )
            )
            decision = (entity_id, first.name, first.category, ref, True)
        plan.aliases += [(entity_id, raw) for key, raw in group.names.items() if key != name_key]
        for j in group.writes:
            plan.decided[j] = decision
    return plan


def _group(writes: Sequence[EntityWrite], normal: dict[int, str]) -> list[_Group]:
    """Writes sharing a normalized name or alias are one entity; the first write leads."""
    groups: list[_Group] = []
    index = 0
    for j, w in enumerate(writes):
        names = {normal[i]: raw for i, raw in enumerate([w.name, *w.aliases], start=index)}
        lookups = {normal[i] for i in range(index, index + len(_raw_keys(w)))}
        index += len(_raw_keys(w))
        merged = _Group([j], normal[index - len(_raw_keys(w))], names, lookups)
        # a write distinct from a namesake shares the name, not the person: it joins another
        # write of this plan only by an alias
        keys = names.keys() - ({merged.lead} if w.distinct_from is not None else set())
        for g in [g for g in groups if g.names.keys() & keys]:
            groups.remove(g)
            lead = g.lead if g.writes[0] < merged.writes[0] else merged.lead
            merged = _Group(
                sorted(g.writes + merged.writes),
                lead,
                {**g.names, **merged.names},
                g.lookups | merged.lookups,
            )
        groups.append(merged)
    return sorted(groups, key=lambda g: g.writes[0])


def _best(
    candidates: list[asyncpg.Record], category: str, ref: str | None = None
) -> asyncpg.Record | None:
    """The entity the write names by ref, else: same category first, a name match before an
    alias match, then the most recently seen."""
    fit = [
        c for c in candidates if c["category"] == category or "Other" in (c["category"], category)
    ]
    if not fit:
        return None
    return min(
        fit,
        key=lambda c: (
            ref is None or c["entity_ref"] != ref,
            c["category"] != category,
            c["by_alias"],
            -(c["last_seen"].timestamp() if c["last_seen"] else 0.0),
        ),
    )


def _base_ref(write: EntityWrite) -> str:
    if write.ref and re.fullmatch(r"[a-z_]+:[a-z0-9_]+", write.ref) and write.ref != SELF_REF:
        return write.ref
    return f"{entity_type(write.category)}:{slug(write.name)}"


def _candidate_refs(base: str) -> list[str]:
    """The refs a new entity may take, in order: person:marta, person:marta_2 … _8."""
    return [base] + [f"{base}_{n}" for n in range(2, 9)]


def _free_ref(base: str, taken: set[str]) -> str:
    for ref in _candidate_refs(base):
        if ref not in taken:
            return ref
    return f"{base}_{uuid.uuid4().hex[:8]}"  # eight namesakes already: any unused suffix
