"""The pure half of :mod:`.facts`: what a batch of fact writes does to the live rows it meets
(the decision its module docstring describes), with no I/O."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from services.core.memory_store.fact_rows import (
    CloseRow,
    InsertRow,
    LinkRow,
    UpdateRow,
    _json,
)
from services.core.memory_store.keys import canonical_predicate

FactOutcome = Literal["created", "updated", "unchanged", "superseded_previous", "ended"]
MAX_PROVENANCE = 50  # message ids kept per fact (the newest)


@dataclass(frozen=True)
class FactWrite:
    subject_entity_id: UUID
    predicate: str
    text: str
    memory_type: str
    fact_type: str = "fact"
    object_entity_id: UUID | None = None
    value: str | None = None  # the literal; with no object and no value the text is the value
    importance: int = 1
    pinned: bool = False
    confidence: float = 0.8
    scope: str = "global"
    agent_id: str | None = None  # required when scope='agent'
    source: str = "llm_plan"
    memory_key: str | None = None  # computed from the entities when None
    message_ids: Sequence[str] = ()
    valid_from: datetime | None = None  # default: the write's now
    valid_to: datetime | None = None  # at or before now: the fact ended


@dataclass(frozen=True)
class FactResult:
    rel_id: UUID
    outcome: FactOutcome
    replaced_id: UUID | None  # the row this write closed (contradiction), if any


@dataclass(frozen=True)
class Existing:
    """The columns of a live row that the decision reads."""

    rel_id: UUID
    memory_key: str | None
    scope: str
    agent: str
    subject_id: UUID
    predicate: str
    object_id: UUID | None
    value: object
    text: str
    memory_type: str
    fact_type: str
    importance: int
    pinned: bool
    confidence: float
    provenance: tuple[str, ...]
    valid_from: datetime | None = None
    valid_to: datetime | None = None


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


def _identity(fact: FactWrite) -> tuple[Any, ...]:
    value = None if fact.object_entity_id is not None else (fact.value or fact.text)
    return (
        fact.scope,
        fact.agent_id or "",
        fact.subject_entity_id,
        canonical_predicate(fact.predicate, literal=fact.object_entity_id is None),
        fact.object_entity_id,
        value,
    )


def _ends(fact: FactWrite, now: datetime) -> bool:
    return fact.valid_to is not None and fact.valid_to <= now


def _expired(row: Existing, now: datetime) -> bool:
    return row.valid_to is not None and row.valid_to <= now


def decide(
    facts: Sequence[FactWrite],
    existing: Sequence[Existing],
    *,
    count_reference: bool,
    now: datetime,
) -> FactOps:
    """The pure decision (module docstring); ``facts`` all carry their memory key."""
    by_key: dict[tuple[str, str, str | None], Existing] = {
        (e.scope, e.agent, e.memory_key): e for e in existing if e.memory_key
    }
    by_identity = {
        (
            e.scope,
            e.agent,
            e.subject_id,
            e.predicate,
            e.object_id,
            e.value if e.object_id is None else None,
        ): e
        for e in existing
    }
    survivor: dict[int, int] = {}
    last: dict[tuple[Any, ...], int] = {}
    for i, fact in enumerate(facts):
        for group_key in ((fact.scope, fact.agent_id or "", fact.memory_key), _identity(fact)):
            j = last.get(group_key)
            if j is not None:
                survivor[j] = i
            last[group_key] = i
    ops = FactOps()
    claimed = {by_identity[_identity(f)].rel_id for f in facts if _identity(f) in by_identity}
    outcome: dict[int, FactResult] = {}
    for i, fact in enumerate(facts):
        if i in survivor:
            continue
        pinned = fact.pinned
        importance = 3 if pinned else fact.importance
        same = by_identity.get(_identity(fact))
        holder = by_key.get((fact.scope, fact.agent_id or "", fact.memory_key))
        ending = _ends(fact, now)
        if same is not None and _expired(same, now) and not ending:
            holder, same = same, None  # restating an expired fact opens a new row
        if same is not None:
            replaced = (
                holder.rel_id if holder is not None and holder is not same and not ending else None
            )
            if replaced is not None:
                ops.closes.append(CloseRow(replaced, same.rel_id, fact.valid_from))
            valid_from = fact.valid_from or same.valid_from
            valid_to = fact.valid_to if fact.valid_to is not None else same.valid_to
            said = (
                fact.text,
                max(same.importance, importance),
                same.pinned or pinned,
                max(same.confidence, fact.confidence),
                fact.memory_key,
                fact.memory_type,
                fact.fact_type,
            )
            changed = said != (
                same.text,
                same.importance,
                same.pinned,
                same.confidence,
                same.memory_key,
                same.memory_type,
                same.fact_type,
            ) or (valid_from, valid_to) != (same.valid_from, same.valid_to)
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
            outcome[i] = FactResult(
                same.rel_id,
                "ended" if ending else "updated" if changed or replaced else "unchanged",
                replaced,
            )
            continue
        new_id = uuid.uuid4()
        key = fact.memory_key
        if ending or (holder is not None and holder.rel_id in claimed):
            # an ended fact is history, and a key holder being updated as another fact stays:
            # neither takes (or closes) the key
            key = None
            holder = None
        ops.inserts.append(insert_row(new_id, replace(fact, memory_key=key, importance=importance)))
        if holder is not None:
            ops.closes.append(CloseRow(holder.rel_id, None, fact.valid_from))
            ops.links.append(LinkRow(holder.rel_id, new_id))
            outcome[i] = FactResult(new_id, "superseded_previous", holder.rel_id)
        else:
            outcome[i] = FactResult(new_id, "ended" if ending else "created", None)
    for i in range(len(facts)):
        j = i
        while j in survivor:
            j = survivor[j]
        ops.results.append(outcome[j])
    return ops
