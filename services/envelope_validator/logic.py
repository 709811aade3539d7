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

from collections.abc import Hashable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import msgspec

from contracts.envelope import InferenceEnvelope
from contracts.envelope_io import (
    EnvelopeRequest,
    EnvelopeResponse,
    EnvelopeStats,
    EnvelopeWarning,
)
from contracts.slots import Turn
from services.core.errors import InvalidInput
from services.envelope_validator.answer_format import response_format
from services.envelope_validator.caps import (  # noqa: F401  (CAPS…: re-exported for callers)
    CAPS,
    MEMORY_TYPES,
    PROMPT_WARN_CHARS,
    TEXT_CAPS,
    Warnings,
    cap,
    card,
    clip,
    fact_id,
    fact_text,
    memory_types,
    normalize,
    repeats,
    same_text,
    turns,
    unverified,
)
from services.envelope_validator.checks import TODO_LISTS, check
from services.envelope_validator.evidence import (
    Evidence,
    budget,
    collect,
    dedupe,
    memory_order,
)
from services.envelope_validator.once import recalled_once, tail_once
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
    """Merge FACTS into GRAPH, drop repeats, apply every cap; each change gets a warning."""
    now = _utc(now)
    w = Warnings()
    graph, facts = request.GRAPH, request.FACTS
    for name, slot in (
        ("FACTS", facts),
        ("EPISODE", request.EPISODE),
        ("KNOWLEDGE", request.KNOWLEDGE),
    ):
        if slot is not None and slot.degraded:
            w.add("degraded", name, slot.degraded)

    foundation, doubtful = unverified(
        memory_types(
            repeats(graph.foundation, fact_id, "GRAPH.foundation", w), "GRAPH.foundation", w
        ),
        w,
    )
    foundation = cap(foundation, "foundation", "GRAPH.foundation", w)
    relevant = graph.relevant_facts + (facts.relevant_facts if facts else [])
    relevant = repeats(relevant, fact_id, "GRAPH.relevant_facts", w)
    relevant = memory_types(relevant, "GRAPH.relevant_facts", w)
    relevant = same_text(
        relevant,
        "GRAPH.relevant_facts",
        w,
        fact_text,
        seen={normalize(f.text) for f in foundation},
        against="foundation",
    )
    relevant = cap(relevant, "relevant_facts", "GRAPH.relevant_facts", w)
    known = {f.fact_id for f in relevant}
    relevant += [f for f in doubtful if f.fact_id not in known]  # past the cap: unverified
    cards = graph.entity_cards + (facts.entity_cards if facts else [])
    cards = [card(c, w) for c in repeats(cards, lambda c: c.entity_ref, "GRAPH.entity_cards", w)]
    seen_todos: set[Hashable] = set()
    todos = {}
    for name in TODO_LISTS:
        items = repeats(
            getattr(graph, name), lambda t: t.todo_id, f"GRAPH.{name}", w, seen=seen_todos
        )
        items = same_text(items, f"GRAPH.{name}", w, lambda t: t.text)
        todos[name] = cap(items, name, f"GRAPH.{name}", w)
    graph = msgspec.structs.replace(
        graph,
        foundation=foundation,
        relevant_facts=relevant,
        entity_cards=cards,
        entities=repeats(graph.entities, lambda e: e.entity_id, "GRAPH.entities", w),
        edges=cap(
            repeats(graph.edges, lambda e: e.rel_id, "GRAPH.edges", w), "edges", "GRAPH.edges", w
        ),
        **todos,
    )

    history = turns(request.recent_turns, "recent_turns", w)
    latest = request.latest_session_summary or request.EPISODE.latest_session_summary or ""
    latest = clip(latest, "latest_session_summary", w)
    episode = msgspec.structs.replace(
        request.EPISODE,
        latest_session_summary=latest or None,
        hits=cap(
            repeats(request.EPISODE.hits, lambda h: h.episode_id, "EPISODE.hits", w),
            "episodes",
            "EPISODE.hits",
            w,
        ),
        turns=cap(
            recalled_once(
                repeats(request.EPISODE.turns, lambda t: t.message_id, "EPISODE.turns", w),
                history,
                w,
            ),
            "recalled_turns",
            "EPISODE.turns",
            w,
        ),
    )
    knowledge = msgspec.structs.replace(
        request.KNOWLEDGE,
        hits=cap(
            repeats(request.KNOWLEDGE.hits, lambda h: h.chunk_id, "KNOWLEDGE.hits", w),
            "knowledge",
            "KNOWLEDGE.hits",
            w,
        ),
    )

    affect_expired = _utc(request.AFFECT.affect.decay_at) <= now
    if affect_expired and request.AFFECT.affect.label != "neutral":
        w.add(
            "affect_expired",
            "AFFECT",
            f"{request.AFFECT.affect.label!r} decayed at "
            f"{request.AFFECT.affect.decay_at.isoformat()}; rendered as neutral",
        )
    if not request.user_message.strip():
        w.add("empty_user_message", "user_message", "the current user message is empty")

    envelope = InferenceEnvelope(
        user_id=request.user_id,
        agent_id=request.agent_id,
        chat_id=request.chat_id,
        AFFECT=request.AFFECT,
        GRAPH=graph,
        EPISODE=episode,
        KNOWLEDGE=knowledge,
    )
    ranked, repeated = dedupe(collect(envelope, request.ranking), [f.text for f in foundation])
    if repeated:
        w.add(
            "deduplicated",
            "RELEVANT MEMORIES",
            f"dropped {repeated} item(s) already in the "
            "foundation or shown by a better ranked item (a fact and an edge of one relation)",
        )
    fitted = budget(ranked, request.memory_budget_words)
    if fitted.left_out:
        w.add(
            "budgeted",
            "RELEVANT MEMORIES",
            f"{len(fitted.left_out)} item(s) past the budget "
            f"of {request.memory_budget_words} words left out: "
            + ", ".join(f"{e.kind}:{e.id}" for e in fitted.left_out),
        )
    shown = {e.id for e in fitted.kept if e.kind == "turn"}
    tail = tail_once(
        turns(request.EPISODE.previous_session_tail, "EPISODE.previous_session_tail", w),
        history,
        [t for t in episode.turns if t.message_id in shown],
        w,
    )
    envelope = msgspec.structs.replace(
        envelope, EPISODE=msgspec.structs.replace(episode, previous_session_tail=tail)
    )
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
        evidence=fitted.kept,
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


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
