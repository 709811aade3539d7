"""One turn of the fast brain in process: the four steps in the order the n8n flow calls them,
each given the body the flow would send it, and stopping where the flow stops.

pulse (count, decay) → a replay of a turn already answered stops here → hydrate (with the
session's active entities and topic) → a pending "which Marta?" question stops here →
retrieve (with the resolved entities and the session's scratch) → envelope (every slot, the
session's summary and recent turns). Each step is its node's own function
(:mod:`services.pulse_decay.step`, :mod:`services.graph_hydrator.step`,
:mod:`services.rag_gate.pipeline`, :mod:`services.envelope_validator.logic`), so a turn
answers what the four routes would, minus three HTTP round trips and the slots' encoding.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from contracts.envelope_io import EnvelopeRequest
from contracts.hydrate import HydrateRequest
from contracts.pulse import PulseRequest
from contracts.retrieve import RetrieveRequest
from contracts.turn import TurnRequest, TurnResponse
from services.core.deps import Database
from services.core.embedder import Embedder
from services.core.settings import Settings
from services.core.vectors import VectorIndex
from services.core.working_memory import WorkingMemory
from services.envelope_validator.logic import build
from services.graph_hydrator.step import hydrate_graph
from services.pulse_decay.step import count_turn
from services.rag_gate.pipeline import retrieve


@dataclass(frozen=True, slots=True)
class Stores:
    """What the four steps read and write."""

    memory: WorkingMemory
    db: Database
    vectors: VectorIndex
    embedder: Embedder
    settings: Settings


async def run_turn(stores: Stores, req: TurnRequest, now: datetime) -> TurnResponse:
    ids = {"user_id": req.user_id, "agent_id": req.agent_id, "chat_id": req.chat_id}
    pulse = await count_turn(
        stores.memory,
        stores.settings,
        PulseRequest(
            **ids, message=req.message, message_id=req.message_id, markers=req.markers, now=now
        ),
        now,
    )
    if pulse.replay_reply is not None:
        return TurnResponse(next="replayed", pulse=pulse)
    session = pulse.session
    hydrate = await hydrate_graph(
        stores.db,
        HydrateRequest(
            **ids,
            message=req.message,
            active_entity_ids=session.active_entity_ids,
            topic_focus=session.scratch.topic_focus,
            edge_cap=req.edge_cap,
            now=now,
        ),
        now,
    )
    if hydrate.GRAPH.pending_question is not None:
        return TurnResponse(next="question", pulse=pulse, hydrate=hydrate)
    recalled = await retrieve(
        stores.db,
        stores.vectors,
        stores.embedder,
        stores.settings,
        RetrieveRequest(
            **ids,
            message=req.message,
            entity_ids=hydrate.active_entity_ids,
            scratch=session.scratch,
            force=req.force,
            limits=req.limits,
            now=now,
        ),
        now,
    )
    envelope = build(
        EnvelopeRequest(
            user_id=req.user_id,
            agent_id=req.agent_id,
            chat_id=req.chat_id,
            AFFECT=pulse.AFFECT,
            GRAPH=hydrate.GRAPH,
            EPISODE=recalled.EPISODE,
            KNOWLEDGE=recalled.KNOWLEDGE,
            FACTS=recalled.FACTS,
            ranking=recalled.ranking,
            persona_prompt=req.persona_prompt,
            realtime_context=req.realtime_context,
            user_context=req.user_context,
            conversation_summary=session.summary,
            recent_turns=session.turns,
            user_message=req.message,
            memory_budget_words=req.memory_budget_words,
            answer_format=req.answer_format,
            now=now,
        ),
        now,
    )
    return TurnResponse(
        next="model", pulse=pulse, hydrate=hydrate, retrieve=recalled, envelope=envelope
    )
