"""How the facts of one batch follow each other (pure): the same fact twice is one, and the
facts of one single-valued key — "worked at X until Friday", "works at Y from Monday" — are a
succession, each ending where the next begins, the last holding the key."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from services.core.memory_store.fact_types import FactWrite, _identity, ends
from services.core.memory_store.keys import EXCLUSIVE_PREDICATES, canonical_predicate


@dataclass(frozen=True)
class Turn:
    """One fact of the batch as the batch decides it: where it ends (its ``valid_to``, or the
    start of the next fact of its key) and whether it holds the key, or supersedes the key's
    holder (the first fact of the key that is current or starts later)."""

    end: datetime | None
    takes_key: bool
    supersedes: bool


def start(fact: FactWrite, now: datetime) -> datetime:
    return fact.valid_from or now


def plan_batch(facts: Sequence[FactWrite], now: datetime) -> tuple[dict[int, int], list[Turn]]:
    """The same fact twice is one (the last says it: ``survivor`` maps the others to it); the
    facts of one single-valued key follow each other (:func:`_succession`), each ending
    where the next begins, the last holding the key. A multi-valued key (one per object or
    value) holds one fact: the last."""
    survivor: dict[int, int] = {}
    last: dict[tuple[Any, ...], int] = {}
    for i, fact in enumerate(facts):
        key = (fact.scope, fact.agent_id or "", fact.memory_key)
        for group_key in (_identity(fact), key if not _single(fact) else None):
            j = last.get(group_key) if group_key else None
            if j is not None:
                survivor[j] = i
            if group_key:
                last[group_key] = i
    turns = [Turn(f.valid_to, f.memory_key is not None, not ends(f, now)) for f in facts]
    groups: dict[tuple[Any, ...], list[int]] = {}
    for i, fact in enumerate(facts):
        if i not in survivor and fact.memory_key is not None:
            groups.setdefault((fact.scope, fact.agent_id or "", fact.memory_key), []).append(i)
    for members in groups.values():
        order = sorted(members, key=lambda i: _succession(facts[i]))
        stops: list[datetime | None] = [
            min(d for d in (facts[a].valid_to, start(facts[b], now)) if d is not None)
            for a, b in zip(order, order[1:], strict=False)
        ]
        stops.append(facts[order[-1]].valid_to)
        first = next((i for i, end in zip(order, stops, strict=True) if not end or end > now), None)
        for i, end in zip(order, stops, strict=True):
            turns[i] = Turn(end, i == order[-1], i == first)
    return survivor, turns


def _succession(fact: FactWrite) -> tuple[int, datetime]:
    """Where a fact stands among the facts of its key: those that end, by end; then the open
    ones with no start of their own, in plan order; then the open ones by start."""
    if fact.valid_to is not None:
        return 0, fact.valid_to
    return (1, _EARLIEST) if fact.valid_from is None else (2, fact.valid_from)


_EARLIEST = datetime.min.replace(tzinfo=UTC)


def _single(fact: FactWrite) -> bool:
    """A key that holds one value at a time (a multi-valued key names its object or value)."""
    literal = fact.object_entity_id is None
    return canonical_predicate(fact.predicate, literal=literal) in EXCLUSIVE_PREDICATES
