"""graph-hydrator's step (load → logic), for its route and for the one-call turn.

Per call, on one pooled connection, sequentially, never one statement per entity: (1) the
entities the message names plus the session's active ids — skipped when the message has no
words and there are no active ids; (2) the 1-hop edges of the seeds (and of the question's
candidates) — skipped when there are none; (3) the foundation facts; (4) the todo lists;
(5) the user's summary spine. Read-only: nothing is written, not even ``entities.last_seen``.
"""

from __future__ import annotations

from datetime import datetime

from contracts.hydrate import HydrateRequest, HydrateResponse
from services.core.cpu import compute
from services.core.deps import Database
from services.graph_hydrator import store
from services.graph_hydrator.logic import assemble, lookup
from services.graph_hydrator.resolve import resolve


async def hydrate_graph(db: Database, data: HydrateRequest, now: datetime) -> HydrateResponse:
    """The GRAPH slot of ``data``'s message as of ``now``."""
    # the name scan is CPU on long messages (0.45 s at 20,000 characters): off the shared loop
    wanted = await compute(len(data.message), lookup, data.message, data.active_entity_ids)
    async with db.acquire() as conn:
        rows = (
            await store.find_entities(
                conn,
                data.user_id,
                data.agent_id,
                wanted.scan.keys,
                wanted.active_ids,
                wanted.kin_predicates,
                now,
            )
            if wanted.needed
            else []
        )
        seeds = resolve(
            data.message, wanted.scan, rows, wanted.active_ids, data.topic_focus, wanted.kin_words
        )
        edges = (
            await store.load_edges(conn, data.user_id, data.agent_id, seeds.load_ids, now)
            if seeds.load_ids
            else []
        )
        facts = await store.load_foundation(conn, data.user_id, data.agent_id, now)
        todos = await store.load_todos(conn, data.user_id, data.agent_id, now)
        spine = await store.load_spine(conn, data.user_id)
    return assemble(data, seeds, edges, facts, todos, now, spine=spine)
