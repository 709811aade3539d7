"""Facts with dedup and contradiction, inside the caller's transaction (2–3 statements a batch).

The batch first (:mod:`.fact_batch`): the same fact twice is one (the last says it); the facts
of one single-valued key are a succession — "worked at X until Friday" + "works at Y from
Monday" — each ending where the next begins, two rows, the last holding the key. Then each fact:

- a live row with the same identity (scope, agent, subject, predicate, object or value — 003's
  ``uniq_relations``) is the same fact: it is updated (text, key; importance, confidence and
  pinning only rise), ``unchanged`` when nothing it says moved; a different live row holding
  the same key is closed as superseded by it;
- else a live row holding the same memory key says something else about a single-valued
  predicate: it is closed (``SUPERSEDED``, ``valid_to`` = the new fact's start,
  ``superseded_by`` = the new row) and the new row inserted — ``superseded_previous``, never a
  silent overwrite;
- else the row is inserted: ``created``.

A fact may name the live row it succeeds (``replaces``, a handle the plan named): that row is
closed the same way, whatever its key. A fact that starts later than ``now`` supersedes nothing
before its date: the row it succeeds stays ``ACTIVE`` and current until then (``valid_to`` =
that date), giving the key to the new row (``created``, ``replaced_id`` = that row).

Time: a fact holds from ``valid_from`` (default: the write's ``now``) until ``valid_to`` (open
by default). A write whose ``valid_to`` is at or before ``now`` *ends* a fact ("I no longer
work at Acme"): the live row of the same identity gets that ``valid_to`` (``ended``), or, with
none, the ended fact is kept as history without a memory key (it never closes a current one).
A row closed by contradiction ends where the new one begins (its ``valid_from``), never later
than its own ``valid_to``. A live row whose ``valid_to`` has passed is expired: restating it
closes it and opens a new row.

Every restatement counts (``reference_count``, ``last_referenced_at``, provenance message ids
merged) unless ``count_reference=False`` (re-seeding a profile is not the user saying it again).
Changed and new rows get ``indexed_at = NULL`` until :mod:`.index` writes their vectors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from services.core.memory_store.fact_ops import (  # noqa: F401 - the module's public names
    MAX_PROVENANCE,
    Existing,
    FactOps,
    FactOutcome,
    FactResult,
    FactWrite,
    _identity,
    decide,
)
from services.core.memory_store.fact_rows import CloseRow, InsertRow, LinkRow, UpdateRow, columns
from services.core.memory_store.keys import canonical_predicate, memory_key, primary_ref
from services.core.memory_store.users import lock_user

if TYPE_CHECKING:
    from services.core.deps import Connection

# Two index lookups — the key (uniq_relations_memory_key) and the identity (uniq_relations, its
# expressions repeated) — so the cost never grows with the user's facts.
_SELECT = """
SELECT r.rel_id, r.memory_key, r.scope, COALESCE(r.agent_id, '') AS agent, r.subject_id,
       r.predicate, r.object_id, r.object_value, r.text, r.memory_type, r.fact_type,
       r.importance, r.pinned, r.confidence::float8 AS confidence, r.provenance_message_ids,
       r.valid_from, r.valid_to
  FROM relations r
 WHERE r.rel_id IN (
       SELECT x.rel_id FROM unnest($2::text[], $3::text[], $4::text[]) AS k(scope, agent, key)
         JOIN relations x ON x.user_id = $1 AND x.scope = k.scope
          AND COALESCE(x.agent_id, '') = k.agent AND x.memory_key = k.key
          AND x.status = 'ACTIVE'
       UNION ALL
       SELECT x.rel_id
         FROM unnest($2::text[], $3::text[], $5::uuid[], $6::text[], $7::uuid[], $8::jsonb[])
              AS k(scope, agent, subject, predicate, object, value)
         JOIN relations x ON x.user_id = $1 AND x.scope = k.scope
          AND COALESCE(x.agent_id, '') = k.agent AND x.subject_id = k.subject
          AND x.predicate = k.predicate
          AND COALESCE(x.object_id, '00000000-0000-0000-0000-000000000000'::uuid)
              = COALESCE(k.object, '00000000-0000-0000-0000-000000000000'::uuid)
          AND COALESCE(x.object_value, '{}'::jsonb) = COALESCE(k.value, '{}'::jsonb)
          AND x.status = 'ACTIVE'
       UNION ALL
       SELECT x.rel_id FROM relations x
        WHERE x.user_id = $1 AND x.rel_id = ANY($9::uuid[]) AND x.status = 'ACTIVE')
   FOR UPDATE
"""

_CLOSE = """
UPDATE relations r
   SET status = CASE WHEN c.keep THEN r.status ELSE 'SUPERSEDED' END,
       memory_key = CASE WHEN c.keep THEN NULL ELSE r.memory_key END,
       valid_to = LEAST(COALESCE(r.valid_to, 'infinity'),
                        GREATEST(COALESCE(c.at, $2), COALESCE(r.valid_from, c.at, $2))),
       superseded_by = COALESCE(c.by, r.superseded_by), updated_at = $2, indexed_at = NULL
  FROM unnest($3::uuid[], $4::uuid[], $5::timestamptz[], $6::bool[]) AS c(id, by, at, keep)
 WHERE r.user_id = $1 AND r.rel_id = c.id
"""

# Parameters: $1 user, $2 now, then one array per field of InsertRow ($3–$20), UpdateRow
# ($21–$33) and LinkRow ($34–$35), in their field order (fact_ops.columns).
_WRITE = """
WITH ins AS (
    INSERT INTO relations (rel_id, user_id, scope, agent_id, subject_id, predicate, object_id,
                           object_value, confidence, memory_type, fact_type, memory_key, text,
                           importance, pinned, source, valid_from, valid_to,
                           provenance_message_ids, reference_count, last_referenced_at,
                           created_at, updated_at)
    SELECT i.id, $1, i.scope, NULLIF(i.agent, ''), i.subject, i.predicate, i.object, i.value,
           i.confidence, i.memory_type, i.fact_type, i.key, i.text, i.importance, i.pinned,
           i.source, COALESCE(i.vfrom, LEAST($2, COALESCE(i.vto, $2))), i.vto, i.prov::jsonb,
           1, $2, $2, $2
      FROM unnest($3::uuid[], $4::text[], $5::text[], $6::uuid[], $7::text[], $8::uuid[],
                  $9::jsonb[], $10::float8[], $11::text[], $12::text[], $13::text[], $14::text[],
                  $15::int2[], $16::bool[], $17::text[], $18::text[], $19::timestamptz[],
                  $20::timestamptz[])
           AS i(id, scope, agent, subject, predicate, object, value, confidence, memory_type,
                fact_type, key, text, importance, pinned, source, prov, vfrom, vto)
    RETURNING rel_id),
upd AS (
    UPDATE relations r
       SET text = u.text, importance = u.importance, pinned = u.pinned,
           confidence = u.confidence, memory_key = u.key, memory_type = u.memory_type,
           fact_type = u.fact_type, provenance_message_ids = u.prov::jsonb,
           reference_count = r.reference_count + u.counted,
           last_referenced_at = CASE WHEN u.counted > 0 THEN $2 ELSE r.last_referenced_at END,
           updated_at = CASE WHEN u.changed THEN $2 ELSE r.updated_at END,
           indexed_at = CASE WHEN u.changed THEN NULL ELSE r.indexed_at END,
           valid_from = u.vfrom, valid_to = u.vto
      FROM unnest($21::uuid[], $22::text[], $23::int2[], $24::bool[], $25::float8[],
                  $26::text[], $27::text[], $28::text[], $29::text[], $30::bool[], $31::int4[],
                  $32::timestamptz[], $33::timestamptz[])
           AS u(id, text, importance, pinned, confidence, key, memory_type, fact_type, prov,
                changed, counted, vfrom, vto)
     WHERE r.user_id = $1 AND r.rel_id = u.id
    RETURNING r.rel_id),
link AS (
    UPDATE relations r SET superseded_by = l.new_id
      FROM unnest($34::uuid[], $35::uuid[]) AS l(old_id, new_id)
     WHERE r.user_id = $1 AND r.rel_id = l.old_id
    RETURNING r.rel_id)
SELECT (SELECT count(*) FROM ins) + (SELECT count(*) FROM upd) + (SELECT count(*) FROM link)
"""


async def apply_facts(
    conn: Connection,
    user_id: str,
    facts: Sequence[FactWrite],
    *,
    now: datetime,
    lock: bool = True,
    count_reference: bool = True,
) -> list[FactResult]:
    """Dedup and contradiction (module docstring), one result per fact in order. Runs inside
    the caller's transaction; ``lock=False`` when the caller already holds :func:`lock_user`."""
    if not facts:
        return []
    if lock:
        await lock_user(conn, user_id)
    facts = [_normalized(f) for f in facts]
    if any(f.memory_key is None for f in facts):
        facts = await _with_keys(conn, user_id, facts)
    existing = await _live(conn, user_id, facts)
    ops = decide(facts, existing, count_reference=count_reference, now=now)
    if ops.closes:
        await conn.execute(_CLOSE, user_id, now, *columns(ops.closes, CloseRow))
    if ops.inserts or ops.updates or ops.links:
        await conn.execute(
            _WRITE,
            user_id,
            now,
            *columns(ops.inserts, InsertRow),
            *columns(ops.updates, UpdateRow),
            *columns(ops.links, LinkRow),
        )
    return ops.results


def _normalized(f: FactWrite) -> FactWrite:
    """The predicate in the vocabulary, confidence to two places, an agent only for scope agent."""
    return replace(
        f,
        predicate=canonical_predicate(f.predicate, literal=f.object_entity_id is None),
        confidence=round(f.confidence, 2),
        agent_id=f.agent_id if f.scope == "agent" else None,
    )


async def _live(conn: Connection, user_id: str, facts: Sequence[FactWrite]) -> list[Existing]:
    """The live rows the facts may meet: same key, same identity, or named by ``replaces``."""
    rows = await conn.fetch(
        _SELECT,
        user_id,
        [f.scope for f in facts],
        [f.agent_id or "" for f in facts],
        [f.memory_key for f in facts],
        [f.subject_entity_id for f in facts],
        [f.predicate for f in facts],
        [f.object_entity_id for f in facts],
        [_identity(f)[-1] for f in facts],
        [f.replaces for f in facts if f.replaces is not None],
    )
    return [
        Existing(
            r["rel_id"],
            r["memory_key"],
            r["scope"],
            r["agent"],
            r["subject_id"],
            r["predicate"],
            r["object_id"],
            r["object_value"],
            r["text"],
            r["memory_type"],
            r["fact_type"],
            r["importance"],
            r["pinned"],
            r["confidence"],
            tuple(str(m) for m in r["provenance_message_ids"]),
            r["valid_from"],
            r["valid_to"],
        )
        for r in rows
    ]


async def _with_keys(conn: Connection, user_id: str, facts: list[FactWrite]) -> list[FactWrite]:
    ids = {f.subject_entity_id for f in facts} | {
        f.object_entity_id for f in facts if f.object_entity_id
    }
    rows = await conn.fetch(
        "SELECT entity_id, entity_ref, category FROM entities"
        " WHERE user_id = $1 AND entity_id = ANY($2::uuid[])",
        user_id,
        list(ids),
    )
    known = {
        r["entity_id"]: (primary_ref(r["entity_ref"], r["entity_id"]), r["category"]) for r in rows
    }
    missing = ids - known.keys()
    if missing:
        raise ValueError(f"facts name entities the user does not have: {sorted(map(str, missing))}")
    out = []
    for f in facts:
        if f.memory_key is not None:
            out.append(f)
            continue
        ref, category = known[f.subject_entity_id]
        key = memory_key(
            memory_type=f.memory_type,
            category=category,
            subject_ref=ref,
            fact_type=f.fact_type,
            predicate=f.predicate,
            object_ref=known[f.object_entity_id][0] if f.object_entity_id else None,
            value=f.value or f.text,
        )
        out.append(replace(f, memory_key=key))
    return out
