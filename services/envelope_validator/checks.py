"""What the types cannot say about an envelope request; every problem is listed, not the first.

Refused: a slot of another user, agent or chat; an id used twice for different content (which
one is true is unknowable); a todo in the wrong list for its status; an edge that points at an
object and holds a value, or says nothing; a pending disambiguation without its question.
Contract versions and authority/stability labels are pinned by the types, so decoding catches
them. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import msgspec

from contracts.common import AgentId, ChatId, UserId
from contracts.envelope_io import EnvelopeRequest, FactsSlot
from contracts.recall import EpisodeSlot, KnowledgeSlot
from contracts.slots import AffectSlot, GraphSlot
from services.core.errors import FieldError
from services.core.validation import collect_errors

TODO_LISTS = {
    "commitments": "PENDING",
    "threads": "PENDING",
    "frictions": "PENDING",
    "wins": "DONE",
}


def check(request: EnvelopeRequest) -> list[FieldError]:
    return semantic_errors(
        user_id=request.user_id,
        agent_id=request.agent_id,
        chat_id=request.chat_id,
        affect=request.AFFECT,
        graph=request.GRAPH,
        facts=request.FACTS,
        episode=request.EPISODE,
        knowledge=request.KNOWLEDGE,
    )


def errors_in(body: Any) -> list[FieldError]:
    """Every problem of a raw body: contract errors, and the semantic errors of every part that
    does decode — so one answer lists a bad AFFECT label *and* a GRAPH of another user."""
    errors = collect_errors(body, EnvelopeRequest)
    if not isinstance(body, dict):
        return errors
    return errors + semantic_errors(
        user_id=_part(body, "user_id", UserId),
        agent_id=_part(body, "agent_id", AgentId),
        chat_id=_part(body, "chat_id", ChatId),
        affect=_part(body, "AFFECT", AffectSlot),
        graph=_part(body, "GRAPH", GraphSlot),
        facts=_part(body, "FACTS", FactsSlot),
        episode=_part(body, "EPISODE", EpisodeSlot),
        knowledge=_part(body, "KNOWLEDGE", KnowledgeSlot),
    )


def semantic_errors(
    *,
    user_id: str | None,
    agent_id: str | None,
    chat_id: str | None,
    affect: AffectSlot | None,
    graph: GraphSlot | None,
    facts: FactsSlot | None,
    episode: EpisodeSlot | None,
    knowledge: KnowledgeSlot | None,
) -> list[FieldError]:
    """What the types cannot say. A part that is ``None`` (absent or undecodable) is skipped."""
    errors: list[FieldError] = []
    for name, slot in (("AFFECT", affect), ("GRAPH", graph)):
        if slot is None:
            continue
        if user_id is not None and slot.user_id != user_id:
            errors.append(
                FieldError(
                    f"$.{name}.user_id",
                    f"this {name} belongs to user {slot.user_id!r}, not to {user_id!r}",
                )
            )
        if agent_id is not None and slot.agent_id != agent_id:
            errors.append(
                FieldError(
                    f"$.{name}.agent_id",
                    f"this {name} belongs to agent {slot.agent_id!r}, not to {agent_id!r}",
                )
            )
        if slot is affect and chat_id is not None and affect.chat_id not in (None, chat_id):
            errors.append(
                FieldError(
                    "$.AFFECT.chat_id",
                    f"this AFFECT belongs to chat {affect.chat_id!r}, not to {chat_id!r}",
                )
            )
    if graph is not None:
        errors += _graph_errors(graph, facts)
    if episode is not None:
        errors += _conflicts(
            [
                (f"$.EPISODE.hits[{i}].episode_id", h.episode_id, h)
                for i, h in enumerate(episode.hits)
            ],
            "episode",
        )
    if knowledge is not None:
        errors += _conflicts(
            [
                (f"$.KNOWLEDGE.hits[{i}].chunk_id", h.chunk_id, h)
                for i, h in enumerate(knowledge.hits)
            ],
            "chunk",
        )
    return errors


def _graph_errors(graph: GraphSlot, facts: FactsSlot | None) -> list[FieldError]:
    """Ids that disagree, todos in the wrong list, edges that say nothing or too much."""
    return [
        *_id_conflicts(graph, facts),
        *_todo_errors(graph),
        *_edge_errors(graph),
        *_question_errors(graph),
    ]


def _id_conflicts(graph: GraphSlot, facts: FactsSlot | None) -> list[FieldError]:
    g = "$.GRAPH"
    errors = _conflicts(
        [(f"{g}.entities[{i}].entity_id", e.entity_id, e) for i, e in enumerate(graph.entities)],
        "entity",
    )
    errors += _conflicts(
        [(f"{g}.edges[{i}].rel_id", e.rel_id, e) for i, e in enumerate(graph.edges)], "relation"
    )
    errors += _conflicts(
        [(f"{g}.foundation[{i}].fact_id", f.fact_id, f) for i, f in enumerate(graph.foundation)],
        "fact",
    )
    extra_facts = facts.relevant_facts if facts else []
    extra_cards = facts.entity_cards if facts else []
    errors += _conflicts(
        [
            (f"{g}.relevant_facts[{i}].fact_id", f.fact_id, f)
            for i, f in enumerate(graph.relevant_facts)
        ]
        + [
            (f"$.FACTS.relevant_facts[{i}].fact_id", f.fact_id, f)
            for i, f in enumerate(extra_facts)
        ],
        "fact",
    )
    errors += _conflicts(
        [
            (f"{g}.entity_cards[{i}].entity_ref", c.entity_ref, c)
            for i, c in enumerate(graph.entity_cards)
        ]
        + [
            (f"$.FACTS.entity_cards[{i}].entity_ref", c.entity_ref, c)
            for i, c in enumerate(extra_cards)
        ],
        "entity card",
    )
    errors += _conflicts(
        [
            (f"{g}.{name}[{i}].todo_id", t.todo_id, t)
            for name in TODO_LISTS
            for i, t in enumerate(getattr(graph, name))
        ],
        "todo",
    )
    return errors


def _todo_errors(graph: GraphSlot) -> list[FieldError]:
    g, errors = "$.GRAPH", []
    for name, status in TODO_LISTS.items():
        errors += [
            FieldError(
                f"{g}.{name}[{i}].status", f"{name} holds {status} todos only, not {t.status}"
            )
            for i, t in enumerate(getattr(graph, name))
            if t.status != status
        ]
    return errors


def _edge_errors(graph: GraphSlot) -> list[FieldError]:
    g, errors = "$.GRAPH", []
    for i, edge in enumerate(graph.edges):
        if edge.object_id is not None and edge.value is not None:
            errors.append(
                FieldError(
                    f"{g}.edges[{i}]", "an edge points at an object or holds a value, not both"
                )
            )
        elif all(v is None for v in (edge.object_id, edge.object, edge.value, edge.text)):
            errors.append(
                FieldError(f"{g}.edges[{i}]", "an edge with no object, value or text says nothing")
            )
    return errors


def _question_errors(graph: GraphSlot) -> list[FieldError]:
    g, errors = "$.GRAPH", []
    question = graph.pending_question
    if question is not None and not question.question.strip():
        errors.append(
            FieldError(
                f"{g}.pending_question.question",
                "a pending disambiguation needs the question to ask",
            )
        )
    return errors


def _conflicts(items: Sequence[tuple[str, Hashable, object]], what: str) -> list[FieldError]:
    """Same id, different content: which one is true is unknowable, so refuse.
    (Same id, same content is a harmless repeat, dropped with a warning by ``assemble``.)"""
    first: dict[Hashable, tuple[str, object]] = {}
    errors = []
    for path, key, item in items:
        if key not in first:
            first[key] = (path, item)
        elif first[key][1] != item:
            errors.append(
                FieldError(
                    path,
                    f"{what} id {key!r} is used again with different "
                    f"content (first at {first[key][0]})",
                )
            )
    return errors


def _part(body: dict[str, Any], key: str, typ: Any) -> Any:
    if key not in body:
        return msgspec.convert({}, typ) if key in ("EPISODE", "KNOWLEDGE") else None
    try:
        return msgspec.convert(body[key], typ)
    except msgspec.ValidationError:
        return None
