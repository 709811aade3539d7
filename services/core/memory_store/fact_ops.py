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
    nonempty,
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
    by_identity = {row_identity(e): e for e in existing}
    survivor, turns = plan_batch(facts, now)
    said = {i: by_identity.get(_identity(f)) for i, f in enumerate(facts) if i not in survivor}
    claimed = {row.rel_id for row in said.values() if row is not None}
    released = {  # rows of a fact that a later one of its key succeeds: they give up the key
        row.rel_id for i, row in said.items() if row is not None and not turns[i].takes_key
    }
    batch = _Batch(
        by_key={(e.scope, e.agent, e.memory_key): e for e in existing if e.memory_key},
        by_id={e.rel_id: e for e in existing},
        claimed=claimed,
        released=released,
        now=now,
        count_reference=count_reference,
    )
    outcome = {i: batch.one(facts[i], same, turns[i]) for i, same in said.items()}
    for i in range(len(facts)):
        j = i
        while j in survivor:
            j = survivor[j]
        batch.ops.results.append(outcome[j])
    return batch.ops


@dataclass
class _Batch:
    """One decision's state: the live rows by key and by id, the rows the batch's facts say
    again (``claimed``) and those that give up their key (``released``), the rows closed so
    far, and the writes."""

    by_key: dict[tuple[str, str, str], Existing]
    by_id: dict[UUID, Existing]
    claimed: set[UUID]
    released: set[UUID]
    now: datetime
    count_reference: bool
    ops: FactOps = field(default_factory=FactOps)
    closed: set[UUID] = field(default_factory=set)

    def one(self, fact: FactWrite, same: Existing | None, turn: Turn) -> FactResult:
        """One fact of the batch: its live row said again, or a new row; either closes the
        rows it supersedes or replaces."""
        fact = replace(fact, valid_to=turn.end)
        ending = ends(fact, self.now)
        holder = self.by_key.get((fact.scope, fact.agent_id or "", fact.memory_key or ""))
        lapsed = same if same is not None and expired(same, self.now) and not ending else None
        if lapsed is not None:  # said again after its end: a new row, the old one history
            same = None
            self.claimed.discard(lapsed.rel_id)
        targets = [
            row
            for row in (holder if turn.supersedes else None, self.by_id.get(fact.replaces or _NONE))
            if row is not None and row is not same and row.rel_id not in self.claimed
        ]
        if same is not None:
            return self._again(fact, same, turn, ending, targets)
        return self._insert(fact, holder, turn, ending, targets, lapsed)

    def close(self, row: Existing, by: UUID, at: datetime | None) -> UUID | None:
        """``row`` ends where ``by`` begins: superseded now, or — ``by`` beginning later —
        kept current until then, giving up its key."""
        if row.rel_id in self.closed or row.rel_id == by:
            return None
        self.closed.add(row.rel_id)
        self.ops.closes.append(CloseRow(row.rel_id, None, at, at is not None and at > self.now))
        self.ops.links.append(LinkRow(row.rel_id, by))
        return row.rel_id

    def _again(
        self, fact: FactWrite, same: Existing, turn: Turn, ending: bool, targets: list[Existing]
    ) -> FactResult:
        """The fact's live row said again (a released row with an end closes at that end)."""
        if same.rel_id in self.released and same.memory_key and fact.valid_to is not None:
            self.closed.add(same.rel_id)
            self.ops.closes.append(CloseRow(same.rel_id, None, fact.valid_to, True))
        replaced = [self.close(row, same.rel_id, fact.valid_from) for row in targets]
        return _restate(
            self.ops, fact, same, turn, ending, self.count_reference, replaced, self.now
        )

    def _insert(
        self,
        fact: FactWrite,
        holder: Existing | None,
        turn: Turn,
        ending: bool,
        targets: list[Existing],
        lapsed: Existing | None,
    ) -> FactResult:
        """A new row for the fact, holding its key unless it ends or another row keeps it."""
        new_id = uuid.uuid4()
        if lapsed is not None:  # history at its own end: the identity is unique among live rows
            self.close(lapsed, new_id, lapsed.valid_to)
        keyless = ending or not turn.takes_key
        if holder is not None and holder.rel_id in self.claimed - self.released:
            keyless = True  # the holder, restated as another fact of the batch, keeps its key
        importance = 3 if fact.pinned else fact.importance
        valid_from, valid_to = fact.valid_from, fact.valid_to
        if valid_to is not None:  # never an empty interval; an open start is the write's now
            valid_from, valid_to = nonempty(valid_from or self.now, valid_to, self.now)
            valid_from = None if fact.valid_from is None and valid_from == self.now else valid_from
        row = replace(
            fact,
            memory_key=None if keyless else fact.memory_key,
            importance=importance,
            valid_from=valid_from,
            valid_to=valid_to,
        )
        self.ops.inserts.append(insert_row(new_id, row))
        replaced = [self.close(row, new_id, fact.valid_from) for row in targets]
        first = next(filter(None, replaced), None)
        current = first is not None and start(fact, self.now) <= self.now
        outcome: FactOutcome = (
            "ended" if ending else "superseded_previous" if current else "created"
        )
        return FactResult(new_id, outcome, first)


_NONE = uuid.UUID(int=0)


def _restate(
    ops: FactOps,
    fact: FactWrite,
    same: Existing,
    turn: Turn,
    ending: bool,
    count_reference: bool,
    replaced: Sequence[UUID | None],
    now: datetime,
) -> FactResult:
    """The live row of the fact's identity said again: its words, scores (importance,
    confidence and pinning only rise), provenance and time; ``unchanged`` when nothing moved."""
    valid_from, valid_to = _validity(fact, same, now)
    row = UpdateRow(
        id=same.rel_id,
        text=fact.text,
        importance=max(same.importance, 3 if fact.pinned else fact.importance),
        pinned=same.pinned or fact.pinned,
        confidence=max(same.confidence, fact.confidence),
        key=fact.memory_key if turn.takes_key else None,
        memory_type=fact.memory_type,
        fact_type=fact.fact_type,
        prov=_json(list(dict.fromkeys([*same.provenance, *fact.message_ids]))[-MAX_PROVENANCE:]),
        changed=False,
        counted=1 if count_reference else 0,
        vfrom=valid_from,
        vto=valid_to,
    )
    row = replace(row, changed=_changed(row, same))
    ops.updates.append(row)
    first = next(filter(None, replaced), None)
    return FactResult(
        same.rel_id,
        "ended" if ending else "updated" if row.changed or first else "unchanged",
        first,
    )


def _validity(
    fact: FactWrite, same: Existing, now: datetime
) -> tuple[datetime | None, datetime | None]:
    """The restated row's time: the fact's where it says one, else the row's; never empty
    (:func:`.fact_types.nonempty`: said to have ended before it was recorded, the end is the
    truth and the fact held that day)."""
    valid_from = fact.valid_from or same.valid_from
    valid_to = fact.valid_to if fact.valid_to is not None else same.valid_to
    return nonempty(valid_from, valid_to, now)


def _changed(row: UpdateRow, same: Existing) -> bool:
    """Whether the update moves anything but provenance and the reference count."""
    said = (row.text, row.importance, row.pinned, row.confidence, row.key)
    before = (same.text, same.importance, same.pinned, same.confidence, same.memory_key)
    kinds = (row.memory_type, row.fact_type) != (same.memory_type, same.fact_type)
    return said != before or kinds or (row.vfrom, row.vto) != (same.valid_from, same.valid_to)
