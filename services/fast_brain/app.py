"""``POST /v1/turn``: the fast brain in one call. Not a node: the entry point
(:mod:`services.nodes`) mounts :data:`ROUTES` on rag-gate, the node that already holds every
store the turn reads but Redis, which it opens for this route (and serves on without)."""

from __future__ import annotations

import structlog
from litestar import post
from litestar.params import JSONBody

from contracts.turn import TurnRequest, TurnResponse
from services.core.clock import request_clock
from services.core.deps import REDIS, Database, Inject
from services.core.embedder import Embedder
from services.core.logs import bind_ids
from services.core.readiness import degrades_without
from services.core.settings import Settings
from services.core.vectors import VectorIndex
from services.core.working_memory import WorkingMemory
from services.fast_brain.turn import Stores, turn_in_process


@post(
    "/v1/turn",
    status_code=200,
    tags=["fast brain"],
    summary="The fast brain in one call: pulse → hydrate → retrieve → envelope",
    description=(
        "Runs, in this process, what the fast-brain flow asks of four nodes: pulse-decay "
        "counts the message, graph-hydrator builds GRAPH from the session's focus, rag-gate "
        "retrieves with the entities it resolved, envelope-validator renders the model's "
        "messages. Each answer is the one its own route gives (`pulse`, `hydrate`, "
        "`retrieve`, `envelope`). `next` says what to do: `model` (send "
        "`envelope.messages`), `question` (reply with `hydrate.GRAPH.pending_question`; "
        "no retrieve, no envelope) or `replayed` (resend `pulse.replay_reply`). Then commit "
        "to memory-upserter as after the four calls, with `hydrate.active_entity_ids`. "
        "Degrades as the four routes do: Redis down gives a neutral AFFECT, the vector index "
        "or the embedder down empty recall slots; Postgres down is a 503 with Retry-After."
    ),
    opt=degrades_without(REDIS),
)
async def turn_route(
    data: JSONBody[TurnRequest],
    memory: Inject[WorkingMemory],
    db: Inject[Database],
    vectors: Inject[VectorIndex],
    embedder: Inject[Embedder],
    settings: Inject[Settings],
) -> TurnResponse:
    bind_ids(user_id=data.user_id, agent_id=data.agent_id, chat_id=data.chat_id)
    answer = await turn_in_process(
        Stores(memory, db, vectors, embedder, settings), data, request_clock(data.now)
    )
    structlog.contextvars.bind_contextvars(next=answer.next)
    return answer


ROUTES = [turn_route]
"""What the fast brain adds to the node that mounts it (:mod:`services.nodes`)."""
