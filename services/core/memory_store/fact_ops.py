"""The pure half of :mod:`.facts`: what a batch of fact writes does to the live rows it meets
(the decision its module docstring describes), with no I/O."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from uuid import UUID

from services.core.memory_store.fact_batch import Turn, plan_batch, start
from services.core.memory_store.fact_rows import (
    CloseRow,
    InsertRow,
    LinkRow,
    UpdateRow,
    _json,
)
from services.core.memory_store.fact_types import (
    MAX_PROVENANCE,
    Existing,
    FactOutcome,
    FactResult,
    FactWrite,
    _identity,
    ends,
    expired,
    row_identity,
)

__all__ = [  # the fact types live in .fact_types; callers import them from here
    "MAX_PROVENANCE",
    "Existing",
    "FactOps",
    "FactOutcome",
    "FactResult",
    "FactWrite",
    "_identity",
    "decide",
    "insert_row",
]


@dataclass
class FactOps:
    """What to write: rows to close, to update, to insert, closed rows to link, results."""

    closes: list[CloseRow] = field(default_factory=list)
    updates: list[UpdateRow] = field(default_factory=list)
    inserts: list[InsertRow] = field(default_factory=list)
    links: list[LinkRow] = field(default_factory=list)
    results: list[FactResult] = field(default_factory=list)


def insert_row(row_id: UUID, fact: FactWrite) -> InsertRow:
    return InsertRow(
        id=row_id,
        scope=fact.scope,
        agent=fact.agent_id or "",
        subject=fact.subject_entity_id,
        predicate=fact.predicate,
        object=fact.object_entity_id,
        value=None if fact.object_entity_id is not None else (fact.value or fact.text),
        confidence=fact.confidence,
        memory_type=fact.memory_type,
        fact_type=fact.fact_type,
        key=fact.memory_key,
        text=fact.text,
        importance=fact.importance,
        pinned=fact.pinned,
        source=fact.source,
        prov=_json(list(dict.fromkeys(fact.message_ids))),
        vfrom=fact.valid_from,
        vto=fact.valid_to,
    )


def decide(
    facts: Sequence[FactWrite],
    existing: Sequence[Existing],
    *,
    count_reference: bool,
    now: datetime,
) -> FactOps:
    """The pure decision (module docstring); ``facts`` all carry their memory key."""
    by_key = {(e.scope, e.agent, e.memory_key): e for e in existing if e.memory_key}
    by_identity = {row_identity(e): e for e in existing}
    by_id = {e.rel_id: e for e in existing}
    survivor, turns = plan_batch(facts, now)
    said = {i: by_identity.get(_identity(f)) for i, f in enumerate(facts) if i not in survivor}
    claimed = {row.rel_id for row in said.values() if row is not None}
    released = {  # rows of a fact that a later one of its key succeeds: they give up the key
        row.rel_id for i, row in said.items() if row is not None and not turns[i].takes_key
    }
    ops, closed = FactOps(), set[UUID]()
    outcome: dict[int, FactResult] = {}

    def close(row: Existing, by: UUID, at: datetime | None) -> UUID | None:
        """``row`` ends where ``by`` begins: superseded now, or — ``by`` beginning later —
        kept current until then, giving up its key."""
        if row.rel_id in closed or row.rel_id == by:
            return None
        closed.add(row.rel_id)
        ops.closes.append(CloseRow(row.rel_id, None, at, at is not None and at > now))
        ops.links.append(LinkRow(row.rel_id, by))
        return row.rel_id

    for i, same in said.items():
        turn = turns[i]
        fact = replace(facts[i], valid_to=turn.end)
        ending = ends(fact, now)
        holder = by_key.get((fact.scope, fact.agent_id or "", fact.memory_key or ""))
        if same is not None and expired(same, now) and not ending:
            holder, same = same, None  # restating an expired fact opens a new row
        targets = [
            row
            for row in (holder if turn.supersedes else None, by_id.get(fact.replaces or _NONE))
            if row is not None and row is not same and row.rel_id not in claimed
        ]
        if same is not None:
            if same.rel_id in released and same.memory_key and fact.valid_to is not None:
                closed.add(same.rel_id)
                ops.closes.append(CloseRow(same.rel_id, None, fact.valid_to, True))
            replaced = [close(row, same.rel_id, fact.valid_from) for row in targets]
            outcome[i] = _restate(ops, fact, same, turn, ending, count_reference, replaced)
            continue
        new_id = uuid.uuid4()
        keyless = ending or not turn.takes_key
        if holder is not None and holder.rel_id in claimed and holder.rel_id not in released:
            keyless = True  # the holder, restated as another fact of the batch, keeps its key
        importance = 3 if fact.pinned else fact.importance
        row = replace(fact, memory_key=None if keyless else fact.memory_key, importance=importance)
        ops.inserts.append(insert_row(new_id, row))
        replaced = [close(row, new_id, fact.valid_from) for row in targets]
        first = next(filter(None, replaced), None)
        current = first is not None and start(fact, now) <= now
        outcome[i] = FactResult(
            new_id, "ended" if ending else "superseded_previous" if current else "created", first
        )
    for i in range(len(facts)):
        j = i
        while j in survivor:
            j = survivor[j]
        ops.results.append(outcome[j])
    return ops


_NONE = uuid.UUID(int=0)


def _restate(
    ops: FactOps,
    fact: FactWrite,
    same: Existing,
    turn: Turn,
    ending: bool,
    count_reference: bool,
    replaced: Sequence[UUID | None],
) -> FactResult:
    """The live row of the fact's identity said again: its words, scores (importance,
    confidence and pinning only rise), provenance and time; ``unchanged`` when nothing moved."""
    importance = 3 if fact.pinned else fact.importance
    valid_from = fact.valid_from or same.valid_from
    valid_to = fact.valid_to if fact.valid_to is not None else same.valid_to
    if valid_from is not None and valid_to is not None and valid_to < valid_from:
        valid_from = valid_to  # said to have ended before it was recorded: the end is the truth
    key = fact.memory_key if turn.takes_key else None
    said = (
        fact.text,
        max(same.importance, importance),
        same.pinned or fact.pinned,
        max(same.confidence, fact.confidence),
        key,
        fact.memory_type,
        fact.fact_type,
    )
    before = (
        same.text,
        same.importance,
        same.pinned,
        same.confidence,
        same.memory_key,
        same.memory_type,
        same.fact_type,
    )
    changed = said != before or (valid_from, valid_to) != (same.valid_from, same.valid_to)
    provenance = list(dict.fromkeys([*same.provenance, *fact.message_ids]))
    text, kept_importance, kept_pinned, confidence, key, memory_type, fact_type = said
    ops.updates.append(
        UpdateRow(
            id=same.rel_id,
            text=text,
            importance=kept_importance,
            pinned=kept_pinned,
            confidence=confidence,
            key=key,
            memory_type=memory_type,
            fact_type=fact_type,
            prov=_json(provenance[-MAX_PROVENANCE:]),
            changed=changed,
            counted=1 if count_reference else 0,
            vfrom=valid_from,
            vto=valid_to,
        )
    )
    first = next(filter(None, replaced), None)
    return FactResult(
        same.rel_id,
        "ended" if ending else "updated" if changed or first else "unchanged",
        first,
    )
