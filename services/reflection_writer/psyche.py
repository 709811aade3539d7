"""Psyche items (002: traits, values, beliefs from the whole session) as low-authority facts.

Each item becomes a PSYCHE fact about the user's self entity through the shared write path
(``memory_store.apply_facts``): fact_type trait/value/belief, confidence ≤ 0.5, importance 1,
source ``reflection``, the cited user messages as provenance, scope global (facts are about
the person, not the persona). The literal value is the statement itself, so the same statement
in a later session is the same fact (one more reference), not a second one. The caller holds
``memory_store.lock_user`` and indexes the returned rows after its commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from contracts.reflection_draft import PsycheItem
from services.core import memory_store
from services.core.deps import Connection

PREDICATES = {"trait": "HAS_TRAIT", "value": "VALUES", "belief": "BELIEVES"}
MAX_CONFIDENCE = 0.5


async def write_psyche(
    conn: Connection, user_id: str, items: Sequence[PsycheItem], now: datetime
) -> list[str]:
    """Store the items in the caller's transaction; the ids of every row written or closed."""
    if not items:
        return []
    subject = await memory_store.self_entity_id(conn, user_id)
    facts = [
        memory_store.FactWrite(
            subject_entity_id=subject,
            predicate=PREDICATES[item.kind],
            text=item.text,
            memory_type="PSYCHE",
            fact_type=item.kind,
            value=item.text,
            importance=1,
            pinned=False,
            confidence=min(item.confidence, MAX_CONFIDENCE),
            scope="global",
            agent_id=None,
            source="reflection",
            message_ids=tuple(item.message_ids),
        )
        for item in items
    ]
    results = await memory_store.apply_facts(conn, user_id, facts, now=now, lock=False)
    return [str(i) for r in results for i in (r.rel_id, r.replaced_id) if i is not None]
