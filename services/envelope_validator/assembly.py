"""The steps of :func:`~.logic.assemble`, one slot or one decision each (pure): the GRAPH
merged with FACTS and capped, the EPISODE and KNOWLEDGE capped, the affect's expiry, the
evidence ranked and budgeted, and the previous session's tail shown once. Every change a step
makes is a warning added to the shared :class:`~.caps.Warnings`."""

from __future__ import annotations

from collections.abc import Hashable
from datetime import UTC, datetime

import msgspec

from contracts.envelope import InferenceEnvelope
from contracts.envelope_io import EnvelopeRequest
from contracts.recall import EpisodeSlot, KnowledgeSlot
from contracts.slots import FactLine, GraphSlot, TodoLine, Turn
from services.envelope_validator.caps import (
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
from services.envelope_validator.checks import TODO_LISTS
from services.envelope_validator.evidence import Evidence, budget, collect, dedupe
from services.envelope_validator.once import newer_still_listed, recalled_once, tail_once


def degraded(request: EnvelopeRequest, w: Warnings) -> None:
    """A warning for each slot its producer marked degraded."""
    for name, slot in (
        ("FACTS", request.FACTS),
        ("EPISODE", request.EPISODE),
        ("KNOWLEDGE", request.KNOWLEDGE),
    ):
        if slot is not None and slot.degraded:
            w.add("degraded", name, slot.degraded)


def graph(request: EnvelopeRequest, w: Warnings) -> GraphSlot:
    """GRAPH with FACTS merged in, repeats dropped and every list capped."""
    g, facts = request.GRAPH, request.FACTS
    foundation, relevant = _facts(request, w)
    cards = g.entity_cards + (facts.entity_cards if facts else [])
    cards = [card(c, w) for c in repeats(cards, lambda c: c.entity_ref, "GRAPH.entity_cards", w)]
    todos = _todos(g, w)
    entities = repeats(g.entities, lambda e: e.entity_id, "GRAPH.entities", w)
    edges = repeats(g.edges, lambda e: e.rel_id, "GRAPH.edges", w)
    return msgspec.structs.replace(
        g,
        foundation=foundation,
        relevant_facts=relevant,
        entity_cards=cards,
        entities=entities,
        edges=cap(edges, "edges", "GRAPH.edges", w),
        **todos,
    )


def _facts(request: EnvelopeRequest, w: Warnings) -> tuple[list[FactLine], list[FactLine]]:
    """The foundation (verified only, capped) and the relevant facts (FACTS merged, none the
    foundation says already, capped; the foundation's unverified ones past the cap)."""
    g, facts = request.GRAPH, request.FACTS
    foundation, doubtful = unverified(
        memory_types(repeats(g.foundation, fact_id, "GRAPH.foundation", w), "GRAPH.foundation", w),
        w,
    )
    foundation = cap(foundation, "foundation", "GRAPH.foundation", w)
    relevant = g.relevant_facts + (facts.relevant_facts if facts else [])
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
    return foundation, relevant


def _todos(g: GraphSlot, w: Warnings) -> dict[str, list[TodoLine]]:
    """Each todo list without repeats (across the lists too), capped."""
    seen: set[Hashable] = set()
    todos = {}
    for name in TODO_LISTS:
        items = repeats(getattr(g, name), lambda t: t.todo_id, f"GRAPH.{name}", w, seen=seen)
        items = same_text(items, f"GRAPH.{name}", w, lambda t: t.text)
        todos[name] = cap(items, name, f"GRAPH.{name}", w)
    return todos


def episode(request: EnvelopeRequest, history: list[Turn], latest: str, w: Warnings) -> EpisodeSlot:
    """EPISODE with its hits and recalled turns capped, no turn the history shows already."""
    e = request.EPISODE
    hits = cap(
        repeats(e.hits, lambda h: h.episode_id, "EPISODE.hits", w), "episodes", "EPISODE.hits", w
    )
    ranked = repeats(e.turns, lambda t: t.message_id, "EPISODE.turns", w)
    recalled = newer_still_listed(recalled_once(ranked, history, w), e.turns)
    return msgspec.structs.replace(
        e,
        latest_session_summary=latest or None,
        hits=hits,
        turns=cap(recalled, "recalled_turns", "EPISODE.turns", w),
    )


def latest_summary(request: EnvelopeRequest, w: Warnings) -> str:
    """The latest session's summary (the request's, else EPISODE's), clipped."""
    latest = request.latest_session_summary or request.EPISODE.latest_session_summary or ""
    return clip(latest, "latest_session_summary", w)


def knowledge(request: EnvelopeRequest, w: Warnings) -> KnowledgeSlot:
    """KNOWLEDGE with its hits deduplicated and capped."""
    hits = repeats(request.KNOWLEDGE.hits, lambda h: h.chunk_id, "KNOWLEDGE.hits", w)
    return msgspec.structs.replace(
        request.KNOWLEDGE, hits=cap(hits, "knowledge", "KNOWLEDGE.hits", w)
    )


def affect_expired(request: EnvelopeRequest, now: datetime, w: Warnings) -> bool:
    """Whether the affect has decayed (a non-neutral one is rendered neutral, with a warning);
    an empty user message is warned about too."""
    affect = request.AFFECT.affect
    expired = utc(affect.decay_at) <= now
    if expired and affect.label != "neutral":
        w.add(
            "affect_expired",
            "AFFECT",
            f"{affect.label!r} decayed at {affect.decay_at.isoformat()}; rendered as neutral",
        )
    if not request.user_message.strip():
        w.add("empty_user_message", "user_message", "the current user message is empty")
    return expired


def evidence(
    envelope: InferenceEnvelope, request: EnvelopeRequest, now: datetime, w: Warnings
) -> list[Evidence]:
    """The relevant memories ranked, without what the foundation says, within the budget."""
    foundation = [f.text for f in envelope.GRAPH.foundation]
    ranked, repeated = dedupe(collect(envelope, request.ranking, now), foundation)
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
    return fitted.kept


def with_tail(
    envelope: InferenceEnvelope,
    request: EnvelopeRequest,
    history: list[Turn],
    kept: list[Evidence],
    w: Warnings,
) -> InferenceEnvelope:
    """The envelope with the previous session's tail, no turn shown elsewhere."""
    shown = {e.id for e in kept if e.kind == "turn"}
    e = envelope.EPISODE
    tail = tail_once(
        turns(request.EPISODE.previous_session_tail, "EPISODE.previous_session_tail", w),
        history,
        [t for t in e.turns if t.message_id in shown],
        w,
    )
    return msgspec.structs.replace(
        envelope, EPISODE=msgspec.structs.replace(e, previous_session_tail=tail)
    )


def utc(moment: datetime) -> datetime:
    """``moment`` with UTC when it carries no zone."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
