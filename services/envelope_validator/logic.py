"""Assemble the envelope the prompt is rendered from, and the node's whole answer.

Pure: no I/O, ``now`` is passed in. Guarantees:

- a request with any problem of :mod:`.checks` is refused (``InvalidInput``) with every
  problem listed;
- over-long texts and over-full lists are cut, never refused, and every cut is named in a
  warning: lists keep their first N (the producer's ranking), texts keep their head;
- repeated items (same id and same content, or the same normalized text) are dropped with a
  warning; relevant memories are deduplicated against the foundation (001), and every old
  turn appears once (:mod:`.once`);
- a foundation fact under :data:`contracts.slots.UNVERIFIED_BELOW` is no foundation: it joins
  the relevant memories, rendered as unverified, never as authoritative GRAPH;
- the evidence for this message (:mod:`.evidence`) is rendered best first, and with
  ``memory_budget_words`` only what fits that many words is (warning ``budgeted``);
  ``memory_order`` lists every rendered memory item in the order the prompt carries it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from contracts.envelope import InferenceEnvelope
from contracts.envelope_io import (
    EnvelopeRequest,
    EnvelopeResponse,
    EnvelopeStats,
    EnvelopeWarning,
)
from contracts.slots import Turn
from services.core.errors import InvalidInput
from services.envelope_validator import assembly as step
from services.envelope_validator.answer_format import response_format
from services.envelope_validator.caps import (
    PROMPT_WARN_CHARS,
    Warnings,
    clip,
    turns,
)
from services.envelope_validator.checks import check
from services.envelope_validator.evidence import (
    Evidence,
    memory_order,
)
from services.envelope_validator.render import render


@dataclass(frozen=True)
class Assembled:
    """The envelope after merges and caps, plus the prompt context texts after their caps."""

    envelope: InferenceEnvelope
    now: datetime
    affect_expired: bool
    realtime_context: str
    persona_prompt: str
    user_context: str
    conversation_summary: str
    latest_session_summary: str
    history: list[Turn]
    user_message: str
    warnings: list[EnvelopeWarning] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)  # RELEVANT MEMORIES, in order
    answer_format: str = "twin_answer"


def build(request: EnvelopeRequest, now: datetime) -> EnvelopeResponse:
    """Check, assemble, render. Raises ``InvalidInput`` listing every problem."""
    errors = check(request)
    if errors:
        raise InvalidInput(errors, "Invalid envelope")
    assembled = assemble(request, now)
    messages, chars = render(assembled)
    total = sum(len(message.content) for message in messages)
    warnings = list(assembled.warnings)
    if total > PROMPT_WARN_CHARS:
        warnings.append(
            EnvelopeWarning(
                code="prompt_large",
                section="total",
                detail=f"the prompt is {total} characters, over {PROMPT_WARN_CHARS}; nothing "
                f"was cut",
            )
        )
    return EnvelopeResponse(
        envelope=assembled.envelope,
        messages=messages,
        response_format=response_format(),
        warnings=warnings,
        stats=EnvelopeStats(
            chars=chars, counts=counts(assembled), total_chars=total, messages=len(messages)
        ),
        memory_order=memory_order(
            assembled.envelope.GRAPH,
            assembled.evidence,
            assembled.envelope.EPISODE.previous_session_tail,
        ),
    )


def assemble(request: EnvelopeRequest, now: datetime) -> Assembled:
    """Merge FACTS into GRAPH, drop repeats, apply every cap; each change gets a warning
    (the steps: :mod:`.assembly`)."""
    now = step.utc(now)
    w = Warnings()
    step.degraded(request, w)
    graph = step.graph(request, w)
    history = turns(request.recent_turns, "recent_turns", w)
    latest = step.latest_summary(request, w)
    episode = step.episode(request, history, latest, w)
    knowledge = step.knowledge(request, w)
    affect_expired = step.affect_expired(request, now, w)
    envelope = InferenceEnvelope(
        user_id=request.user_id,
        agent_id=request.agent_id,
        chat_id=request.chat_id,
        AFFECT=request.AFFECT,
        GRAPH=graph,
        EPISODE=episode,
        KNOWLEDGE=knowledge,
    )
    kept = step.evidence(envelope, request, now, w)
    envelope = step.with_tail(envelope, request, history, kept, w)
    return Assembled(
        envelope=envelope,
        now=now,
        affect_expired=affect_expired,
        realtime_context=request.realtime_context,
        persona_prompt=request.persona_prompt,
        user_context=clip(request.user_context, "user_context", w),
        conversation_summary=clip(
            request.conversation_summary or graph.summary_spine, "conversation_summary", w
        ),
        latest_session_summary=latest,
        history=history,
        user_message=request.user_message,
        warnings=list(w),
        evidence=kept,
        answer_format=request.answer_format,
    )


def counts(assembled: Assembled) -> dict[str, int]:
    env = assembled.envelope
    graph = env.GRAPH
    return {
        "foundation": len(graph.foundation),
        "relevant_facts": len(graph.relevant_facts),
        "entity_cards": len(graph.entity_cards),
        "entities": len(graph.entities),
        "edges": len(graph.edges),
        "commitments": len(graph.commitments),
        "threads": len(graph.threads),
        "frictions": len(graph.frictions),
        "wins": len(graph.wins),
        "episodes": len(env.EPISODE.hits),
        "recalled_turns": len(env.EPISODE.turns),
        "knowledge": len(env.KNOWLEDGE.hits),
        "recent_turns": len(assembled.history),
    }
