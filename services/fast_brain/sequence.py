"""The fast brain's step sequence, defined once: what each step is sent, and where a turn stops.

pulse (count, decay) → a replay of a turn already answered stops here → hydrate (with the
session's active entities and topic) → a pending "which Marta?" question stops here →
retrieve (with the resolved entities and the session's scratch) → envelope (every slot, the
session's summary and recent turns).

How a step is reached is the caller's: ``POST /v1/turn`` runs the nodes' own functions in its
process (:mod:`services.fast_brain.turn`), ``twin chat`` calls each node's route over HTTP
(:mod:`services.playground.turn`). This module imports contracts only, so either can use it.
"""

from __future__ import annotations

from typing import Any, Protocol

from contracts.envelope_io import EnvelopeRequest, EnvelopeResponse
from contracts.hydrate import HydrateRequest, HydrateResponse
from contracts.pulse import PulseRequest, PulseResponse
from contracts.retrieve import RetrieveRequest, RetrieveResponse
from contracts.slots import GraphSlot
from contracts.turn import TurnRequest, TurnResponse


class Steps(Protocol):
    """The four fast-brain steps, each answering what its node's route answers."""

    async def pulse(self, req: PulseRequest) -> PulseResponse: ...

    async def hydrate(self, req: HydrateRequest) -> HydrateResponse: ...

    async def retrieve(self, req: RetrieveRequest) -> RetrieveResponse: ...

    async def envelope(self, req: EnvelopeRequest) -> EnvelopeResponse: ...


async def run_turn(steps: Steps, req: TurnRequest) -> TurnResponse:
    """One turn through ``steps``; ``next`` says where it stopped (``replayed``, ``question``)
    or that the envelope is ready for the model (``model``). Every step gets ``req.now``."""
    pulse = await steps.pulse(pulse_request(req))
    if pulse.replay_reply is not None:
        return TurnResponse(next="replayed", pulse=pulse)
    hydrate = await steps.hydrate(hydrate_request(req, pulse))
    if not req.private_memory:
        envelope = await steps.envelope(envelope_request(req, pulse, withheld(req), None))
        return TurnResponse(next="model", pulse=pulse, hydrate=hydrate, envelope=envelope)
    if hydrate.GRAPH.pending_question is not None:
        return TurnResponse(next="question", pulse=pulse, hydrate=hydrate)
    recalled = await steps.retrieve(retrieve_request(req, pulse, hydrate))
    envelope = await steps.envelope(envelope_request(req, pulse, hydrate, recalled))
    return TurnResponse(
        next="model", pulse=pulse, hydrate=hydrate, retrieve=recalled, envelope=envelope
    )


def pulse_request(req: TurnRequest) -> PulseRequest:
    return PulseRequest(
        user_id=req.user_id,
        agent_id=req.agent_id,
        chat_id=req.chat_id,
        message=req.message,
        message_id=req.message_id,
        markers=req.markers,
        now=req.now,
    )


def hydrate_request(req: TurnRequest, pulse: PulseResponse) -> HydrateRequest:
    """The session's focus (its active entities and topic) goes to the hydrate."""
    return HydrateRequest(
        user_id=req.user_id,
        agent_id=req.agent_id,
        chat_id=req.chat_id,
        message=req.message,
        active_entity_ids=pulse.session.active_entity_ids,
        topic_focus=pulse.session.scratch.topic_focus,
        edge_cap=req.edge_cap,
        now=req.now,
    )


def retrieve_request(
    req: TurnRequest, pulse: PulseResponse, hydrate: HydrateResponse
) -> RetrieveRequest:
    """The entities the hydrate resolved and the session's scratch go to the retrieve."""
    return RetrieveRequest(
        user_id=req.user_id,
        agent_id=req.agent_id,
        chat_id=req.chat_id,
        message=req.message,
        entity_ids=hydrate.active_entity_ids,
        scratch=pulse.session.scratch,
        force=req.force,
        limits=req.limits,
        now=req.now,
    )


def withheld(req: TurnRequest) -> HydrateResponse:
    """What the envelope gets of the person's graph when their private memory stays out: an
    empty GRAPH."""
    return HydrateResponse(GRAPH=GraphSlot(user_id=req.user_id, agent_id=req.agent_id))


def envelope_request(
    req: TurnRequest,
    pulse: PulseResponse,
    hydrate: HydrateResponse,
    recalled: RetrieveResponse | None,
) -> EnvelopeRequest:
    """Every slot, in rag-gate's fused order, with the session's summary and recent turns;
    without ``recalled`` (private memory withheld) no episodes, knowledge or facts."""
    slots: dict[str, Any] = {}
    if recalled is not None:
        slots = {
            "EPISODE": recalled.EPISODE,
            "KNOWLEDGE": recalled.KNOWLEDGE,
            "FACTS": recalled.FACTS,
            "ranking": recalled.ranking,
        }
    return EnvelopeRequest(
        user_id=req.user_id,
        agent_id=req.agent_id,
        chat_id=req.chat_id,
        AFFECT=pulse.AFFECT,
        GRAPH=hydrate.GRAPH,
        **slots,
        persona_prompt=req.persona_prompt,
        realtime_context=req.realtime_context,
        user_context=req.user_context,
        conversation_summary=pulse.session.summary,
        recent_turns=pulse.session.turns,
        user_message=req.message,
        memory_budget_words=req.memory_budget_words,
        answer_format=req.answer_format,
        now=req.now,
    )
