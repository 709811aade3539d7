"""HTTP surface of rag-gate: ``POST /v1/retrieve`` (gate → retrieve → return).

The handler only binds the ids for the log line and fixes the clock; the turn is
:func:`services.rag_gate.pipeline.retrieve` (round trips listed there).
"""

from __future__ import annotations

from litestar import post
from litestar.params import JSONBody

from contracts.retrieve import RetrieveRequest, RetrieveResponse
from services.core.app import NodeSpec
from services.core.clock import request_clock
from services.core.deps import Database, Inject
from services.core.embedder import Embedder
from services.core.logs import bind_ids
from services.core.settings import Settings
from services.core.vectors import VectorIndex
from services.rag_gate.pipeline import retrieve


@post(
    "/v1/retrieve",
    status_code=200,
    tags=["rag-gate"],
    summary="Decide whether this turn needs memory, and retrieve EPISODE, KNOWLEDGE and FACTS",
    description=(
        "Every turn, after graph-hydrator. The gate (003 §6.2) opens on continuity words, "
        "entity mentions (`entity_ids`), questions about the person and their people "
        '("where do I…", "what\'s my…"), plan/progress and reflection requests, logging '
        "updates, questions about the past, or a reflective `scratch.mode`; `force` overrides "
        "it and `gate.reasons` says which rules fired. When open: the message is embedded "
        "once and searched (dense + BM25) in this agent's episodes (narrowed to `entity_ids`), "
        "knowledge chunks and the user's facts; hits pass the relative cutoff "
        "`similarity > max(floor, top1 - margin)` (or a strong lexical match), facts are "
        "ranked by the blended score (similarity 40 %, 14-day recency 30 %, entity frequency "
        "30 %) and expanded into entity cards. Always, open or closed: "
        "`EPISODE.latest_session_summary` and `EPISODE.previous_session_tail` (the raw tail of "
        "the previous session while it is not consolidated). If the vector index or the "
        "embedder is down, the slots come back empty with `degraded` set."
    ),
)
async def retrieve_route(
    data: JSONBody[RetrieveRequest],
    db: Inject[Database],
    vectors: Inject[VectorIndex],
    embedder: Inject[Embedder],
    settings: Inject[Settings],
) -> RetrieveResponse:
    bind_ids(user_id=data.user_id, agent_id=data.agent_id, chat_id=data.chat_id)
    now = request_clock(data.now)
    return await retrieve(db, vectors, embedder, settings, data, now)


SPEC = NodeSpec(
    name="rag-gate",
    summary="Decides whether a turn needs retrieval and returns EPISODE, KNOWLEDGE and "
    "relevant facts (FACTS), with the previous session's continuity.",
    route_handlers=[retrieve_route],
)
