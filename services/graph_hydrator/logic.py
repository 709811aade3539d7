"""graph-hydrator's rules, end to end, as pure functions (time passed in, no I/O).

A turn is: :func:`lookup` (what to ask the store for the message) → the store's entity rows →
:func:`resolve.resolve` (mentions, disambiguation, seeds) → the store's edges, foundation facts
and todos → :func:`assemble` (subgraph merge/rank/cap, the question, the lists) → the answer.
The concepts live in their own modules: ``text`` (normalization, lookup keys), ``resolve``
(mentions, 003 §10), ``question`` (the disambiguation question), ``subgraph`` (scope merge,
priority, edge cap) and ``lists`` (foundation and todo lists).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from contracts.common import Provenance
from contracts.hydrate import HydrateRequest, HydrateResponse, Mention
from contracts.slots import GraphEdge, GraphEntity, GraphSlot
from services.graph_hydrator import kin
from services.graph_hydrator.lists import hidden_todos, pick_foundation, pick_todos
from services.graph_hydrator.question import ask, namesakes_told_apart
from services.graph_hydrator.resolve import Seeds, valid_ids
from services.graph_hydrator.rows import EdgeRow, EntityRow, FactRow, TodoRow
from services.graph_hydrator.subgraph import is_critical, select_subgraph
from services.graph_hydrator.text import Scan, scan


@dataclass(frozen=True, slots=True)
class Lookup:
    """What the entity query needs: the message's keys, the session's well-formed ids, and
    the relation words with the predicates that can stand behind them."""

    scan: Scan
    active_ids: list[str]
    kin_words: list[kin.KinWord]
    kin_predicates: list[str]

    @property
    def needed(self) -> bool:
        return bool(self.scan.keys or self.active_ids or self.kin_predicates)


def lookup(message: str, active_entity_ids: Sequence[str]) -> Lookup:
    words = kin.find(message)
    wanted = sorted({*kin.predicates(words), *kin.place_predicates(message)})
    return Lookup(scan(message), valid_ids(active_entity_ids), words, wanted)


def _entity(row: EntityRow, seed: Literal["mention", "active", "neighbor"]) -> GraphEntity:
    return GraphEntity(
        entity_id=row.entity_id,
        name=row.name,
        category=row.category,
        scope=row.scope,
        entity_ref=row.entity_ref,
        aliases=list(row.aliases),
        last_seen=row.last_seen,
        seed=seed,
    )


def _edge(edge: EdgeRow) -> GraphEdge:
    return GraphEdge(
        rel_id=edge.rel_id,
        subject_id=edge.subject.entity_id,
        subject=edge.subject.name,
        predicate=edge.predicate,
        object_id=edge.obj.entity_id if edge.obj is not None else None,
        object=edge.obj.name if edge.obj is not None else None,
        value=edge.value,
        text=edge.text,
        scope=edge.scope,
        confidence=min(max(edge.confidence, 0.0), 1.0),
        importance=edge.importance,
        pinned=edge.pinned,
        critical=is_critical(edge.predicate),
        valid_from=edge.valid_from,
        valid_to=edge.valid_to,
        updated_at=edge.updated_at,
        provenance=Provenance(
            row_id=edge.rel_id, message_ids=list(edge.message_ids), source=edge.source
        ),
    )


def assemble(
    request: HydrateRequest,
    seeds: Seeds,
    edges: Sequence[EdgeRow],
    facts: Sequence[FactRow],
    todos: Sequence[TodoRow],
    now: datetime,
    *,
    spine: str = "",
) -> HydrateResponse:
    """The answer from everything loaded for this turn."""
    sub = select_subgraph(edges, seeds.seeds, request.edge_cap)
    asked = seeds.question_for
    lists = pick_todos(todos, now)
    graph = GraphSlot(
        user_id=request.user_id,
        agent_id=request.agent_id,
        entities=namesakes_told_apart(
            [
                *(_entity(row, reason) for row, reason in seeds.seeds.values()),
                *(_entity(row, "neighbor") for row in sub.neighbors),
            ],
            [*(row for row, _ in seeds.seeds.values()), *sub.neighbors],
            edges,
        ),
        edges=[_edge(e) for e in sub.edges],
        foundation=pick_foundation(facts),
        commitments=lists["COMMITMENT"],
        threads=lists["THREAD"],
        frictions=lists["FRICTION"],
        wins=lists["WIN"],
        pending_question=ask(asked, edges) if asked is not None else None,
        summary_spine=spine,
        dropped=sub.dropped | hidden_todos(todos, now),
    )
    return HydrateResponse(
        GRAPH=graph,
        active_entity_ids=list(seeds.seeds),
        mentions=[
            Mention(
                text=m.text,
                normalized=m.key,
                candidates=[c.entity_id for c in m.candidates],
                entity_id=m.chosen.entity_id if m.chosen else None,
                resolution=m.resolution,
                relation=m.role,
            )
            for m in seeds.mentions
        ],
        active_fallback=seeds.fallback,
    )
