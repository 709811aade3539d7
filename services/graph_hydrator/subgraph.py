"""The local subgraph (003 §4.2 scope merge, §6.4 priority and edge cap) — pure.

Scope merge: a fact is visible when it is global or scoped to this agent. When a global and an
agent-scoped fact share subject and predicate, the predicate's class decides:

* agent-domain predicates (:data:`AGENT_DOMAIN_PREDICATES`: how *this* agent works with the
  person — diet plan, calorie target, training plan, counseling mode…) → the agent's fact wins;
* every other predicate is an identity predicate (name, birthday, lives in, sister of, job…)
  → the global fact wins;
* critical predicates (:data:`CRITICAL_PREDICATES`) never conflict: an allergy known to one
  agent is as true as one known to all, so both are kept.

Priority (003 §6.4): this agent's facts, then critical predicates, then confidence, then
recency (``updated_at``), then importance; ``rel_id`` makes the order total. The first
``edge_cap`` edges are kept; ``dropped`` counts what the cap and the merge removed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from services.graph_hydrator.rows import EdgeRow, EntityRow

CRITICAL_PREDICATES = frozenset({"ALLERGY", "SAFETY_BOUNDARY", "MEDICATION", "INTOLERANCE"})

AGENT_DOMAIN_PREDICATES = frozenset(
    {
        # nutrition
        "DIET_PLAN",
        "MEAL_PLAN",
        "CALORIE_TARGET",
        "MACRO_TARGET",
        "PROTEIN_TARGET",
        "HYDRATION_TARGET",
        "FASTING_WINDOW",
        "NUTRITION_GOAL",
        # training
        "TRAINING_PLAN",
        "WORKOUT_PLAN",
        "TRAINING_GOAL",
        "STEP_GOAL",
        "WEIGHT_GOAL",
        # counseling and coaching
        "COUNSELING_MODE",
        "COUNSELING_GOAL",
        "THERAPY_GOAL",
        "COACHING_STYLE",
        "FOCUS_AREA",
        "HOMEWORK",
        # how this agent talks with the person
        "CHECKIN_SCHEDULE",
        "CHECKIN_FREQUENCY",
        "TONE_PREFERENCE",
        "INTERACTION_MODE",
        "SESSION_FORMAT",
    }
)

T = TypeVar("T")


def is_critical(predicate: str) -> bool:
    return predicate.upper() in CRITICAL_PREDICATES


def is_agent_domain(predicate: str) -> bool:
    return predicate.upper() in AGENT_DOMAIN_PREDICATES


def merge_scopes(
    rows: Sequence[T], key: Callable[[T], tuple[str, str, str]]
) -> tuple[list[T], int]:
    """Drop the losing side of each global/agent conflict; ``key(row)`` is
    ``(subject_id, predicate, scope)``. Returns the kept rows (order preserved) and how many
    were dropped."""
    keys = [key(row) for row in rows]
    if len({scope for _, _, scope in keys}) < 2:
        return list(rows), 0  # one scope only: nothing can conflict
    scopes: dict[tuple[str, str], set[str]] = {}
    for subject, predicate, scope in keys:
        scopes.setdefault((subject, predicate.upper()), set()).add(scope)
    kept: list[T] = []
    for row, (subject, predicate, scope) in zip(rows, keys, strict=True):
        if len(scopes[(subject, predicate.upper())]) > 1 and not is_critical(predicate):
            winner = "agent" if is_agent_domain(predicate) else "global"
            if scope != winner:
                continue
        kept.append(row)
    return kept, len(rows) - len(kept)


def edge_rank(edge: EdgeRow) -> tuple[Any, ...]:
    return (
        edge.scope != "agent",
        not is_critical(edge.predicate),
        -edge.confidence,
        -edge.updated_at.timestamp(),
        -edge.importance,
        edge.rel_id,
    )


def _edge_key(edge: EdgeRow) -> tuple[str, str, str]:
    return edge.subject.entity_id, edge.predicate, edge.scope


@dataclass(frozen=True, slots=True)
class Subgraph:
    edges: list[EdgeRow]
    neighbors: list[EntityRow]
    dropped: dict[str, int]


def _endpoints(edge: EdgeRow) -> Iterable[EntityRow]:
    yield edge.subject
    if edge.obj is not None:
        yield edge.obj


def select_subgraph(edges: Iterable[EdgeRow], seeds: Iterable[str], edge_cap: int) -> Subgraph:
    """The 1-hop edges of ``seeds``, merged, ranked and capped, and the neighbours they reach.

    Edges not touching a seed are ignored (the store may load more, e.g. a disambiguation
    candidate's facts, to describe it). A neighbour reached only through a dropped edge is
    dropped too, and counted."""
    seed_ids = set(seeds)
    touching = list(
        {
            e.rel_id: e
            for e in edges
            if e.subject.entity_id in seed_ids
            or (e.obj is not None and e.obj.entity_id in seed_ids)
        }.values()
    )
    merged, conflicts = merge_scopes(touching, _edge_key)
    ranked = sorted(merged, key=edge_rank)
    kept, cut = ranked[:edge_cap], ranked[edge_cap:]
    neighbors: dict[str, EntityRow] = {}
    for edge in kept:
        for entity in _endpoints(edge):
            if entity.entity_id not in seed_ids:
                neighbors.setdefault(entity.entity_id, entity)
    unreached = {
        entity.entity_id
        for edge in touching
        for entity in _endpoints(edge)
        if entity.entity_id not in seed_ids and entity.entity_id not in neighbors
    }
    dropped = {"edges": len(cut), "scope_conflicts": conflicts, "neighbors": len(unreached)}
    return Subgraph(
        kept, list(neighbors.values()), {name: count for name, count in dropped.items() if count}
    )
