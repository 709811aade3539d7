"""The user's entities a plan's names may mean, read in one statement before the transaction
(the judge's context, :mod:`.judge_store`; a which-question's answer, :mod:`.answer`): visible
to this persona, matched by full name, alias, or (a person) given name, with the relations the
user holds to them. :mod:`.names` resolves the plan's handles among them, purely."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from contracts.plan import MemoryWritePlan
from services.core.memory_store.visibility import visible
from services.memory_upserter.commit.read import SELF_HANDLES
from services.memory_upserter.extract.people import Known
from services.memory_upserter.text import fold

if TYPE_CHECKING:
    from services.core.deps import Connection

# whom the person knows, for grounding (:mod:`.related`, :mod:`.owners`): their people and pets
# by name, "Person:Lara", "Pet:Biscuit" (a pet also as a HAS_PET value), most recent first
PEOPLE = f"""
ARRAY(SELECT k.n FROM (
               SELECT p.category || ':' || p.name AS n, p.last_seen AS t FROM entities p
                WHERE p.user_id = $1 AND p.active AND p.category IN ('Person', 'Pet')
                  AND p.entity_ref IS DISTINCT FROM 'self:user' AND {visible("p", "$2")}
               UNION ALL
               SELECT 'Pet:' || (r.object_value #>> '{{}}'), r.created_at FROM relations r
                WHERE r.user_id = $1 AND r.status = 'ACTIVE' AND r.predicate = 'HAS_PET'
                  AND jsonb_typeof(r.object_value) = 'string' AND {visible("r", "$2")}
              ) k ORDER BY k.t DESC NULLS LAST LIMIT 300)"""

KNOWN = f"""
SELECT e.entity_id::text, e.name, e.entity_ref, e.category,
       ARRAY(SELECT r.predicate FROM relations r
              WHERE r.user_id = $1 AND r.object_id = e.entity_id AND r.status = 'ACTIVE'
                AND left(r.predicate, 4) = 'HAS_'
                AND r.subject_id = (SELECT s.entity_id FROM entities s
                                     WHERE s.user_id = $1 AND s.entity_ref = 'self:user'))
       AS roles,
       ARRAY(SELECT a.alias FROM entity_aliases a
              WHERE a.user_id = $1 AND a.entity_id = e.entity_id
              ORDER BY a.created_at, a.alias) AS aliases
  FROM entities e
 WHERE e.user_id = $1 AND e.active AND {visible("e", "$2")}
   AND e.entity_ref IS DISTINCT FROM 'self:user'
   AND (e.name_normalized = ANY($3::text[])
        OR (e.category = 'Person' AND split_part(e.name_normalized, ' ', 1) = ANY($3::text[]))
        OR EXISTS (SELECT 1 FROM entity_aliases a
                    WHERE a.user_id = $1 AND a.entity_id = e.entity_id
                      AND a.alias_normalized = ANY($3::text[])))
 ORDER BY e.created_at, e.entity_id
 LIMIT 200
"""


def handles_of(plan: MemoryWritePlan) -> list[str]:
    """The folded names the plan's handles and entities use (what :func:`load_known` looks up)."""
    raw = [e.name for e in plan.entities] + [
        h for f in plan.facts for h in (f.subject, f.object) if h is not None
    ]
    return sorted({fold(h).strip() for h in raw if fold(h).strip() not in SELF_HANDLES})


async def known_in(
    conn: Connection, user_id: str, agent_id: str, plan: MemoryWritePlan
) -> list[Known]:
    """The user's entities the plan's names may mean (:func:`handles_of`, :func:`load_known`)."""
    return await load_known(conn, user_id, agent_id, handles_of(plan))


async def load_known(
    conn: Connection, user_id: str, agent_id: str, names: Sequence[str]
) -> list[Known]:
    """The user's entities the names may mean (module docstring), oldest first."""
    if not names:
        return []
    rows = await conn.fetch(KNOWN, user_id, agent_id, list(names))
    return [
        Known(
            r["name"],
            r["entity_ref"],
            tuple(r["roles"]),
            tuple(r["aliases"]),
            r["category"],
            r["entity_id"],
        )
        for r in rows
    ]
