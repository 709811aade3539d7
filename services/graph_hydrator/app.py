"""HTTP surface of graph-hydrator: ``POST /v1/hydrate`` (load → logic → return).

The step and its round trips: :mod:`services.graph_hydrator.step`.
"""

from __future__ import annotations

from litestar import post
from litestar.params import JSONBody

from contracts.hydrate import HydrateRequest, HydrateResponse
from services.core.app import NodeSpec
from services.core.clock import request_clock
from services.core.deps import Database, Inject
from services.core.logs import bind_ids
from services.graph_hydrator.step import hydrate_graph


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
    return await hydrate_graph(db, data, request_clock(data.now))


SPEC = NodeSpec(
    name="graph-hydrator",
    summary="Finds the entities a message mentions, disambiguates them and returns the local "
    "subgraph as the GRAPH slot.",
    route_handlers=[hydrate],
)
