"""HTTP surface of graph-hydrator: ``POST /v1/hydrate`` (load → logic → return).

Per request, on one pooled connection, sequentially, at most four SQL round trips and never
one per entity: (1) the entities the message names plus the session's active ids — skipped
when the message has no words and there are no active ids; (2) the 1-hop edges of the seeds
(and of the question's candidates) — skipped when there are none; (3) the foundation facts;
(4) the todo lists. Read-only: nothing is written, not even ``entities.last_seen``.
"""

from __future__ import annotations

from litestar import post
from litestar.params import JSONBody

from contracts.hydrate import HydrateRequest, HydrateResponse
from services.core.app import NodeSpec
from services.core.clock import request_clock
from services.core.deps import Database, Inject
from services.core.logs import bind_ids
from services.graph_hydrator import store
from services.graph_hydrator.logic import assemble, lookup
from services.graph_hydrator.resolve import resolve


@post(
    "/v1/hydrate",
    status_code=200,
    tags=["graph-hydrator"],
    summary="Build the GRAPH slot: mentioned entities, their local subgraph, foundation, todos",
    description=(
        "Every turn, after pulse-decay. Finds the entities the message names (names and aliases, "
        "case- and accent-insensitive, possessives, multi-word) and the relatives its relation "
        'words name ("my sister", "my boss", "my kids": through the person\'s '
        "relations such as HAS_SISTER), falls back to the session's "
        "`active_entity_ids` for pronouns or when nobody is named, resolves same-name entities "
        "(active → most recently seen → `topic_focus` → ask one `pending_question`), loads their "
        "1-hop facts (global + this agent's; identity predicates: global wins, agent-domain "
        "predicates: agent wins), ranks them (this agent's, critical, confidence, recency) and "
        "keeps `edge_cap`; adds the person's foundation (seeded profile, then pinned, then "
        "their global identity, family and critical facts by importance and recency; 12), "
        "and this agent's "
        "pending commitments (5), threads (3), frictions (3) and wins of the last 48 h (3), "
        "and the user's latest summary spine. "
        "Store the answer's `active_entity_ids` back into the session."
    ),
)
async def hydrate(data: JSONBody[HydrateRequest], db: Inject[Database]) -> HydrateResponse:
    bind_ids(user_id=data.user_id, agent_id=data.agent_id, chat_id=data.chat_id)
    now = request_clock(data.now)
    wanted = lookup(data.message, data.active_entity_ids)
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


SPEC = NodeSpec(
    name="graph-hydrator",
    summary="Finds the entities a message mentions, disambiguates them and returns the local "
    "subgraph as the GRAPH slot.",
    route_handlers=[hydrate],
)
