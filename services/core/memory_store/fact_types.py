"""The fact writes of :mod:`.facts` and the live rows they meet, as named structs (pure)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any, Literal
from uuid import UUID

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
    replaces: UUID | None = None  # a live row this fact succeeds (a handle the plan named)


@dataclass(frozen=True)
class FactResult:
    rel_id: UUID
    outcome: FactOutcome
    replaced_id: UUID | None  # the row this write closed, or will close at its start


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


def row_identity(row: Existing) -> tuple[Any, ...]:
    """:func:`_identity` of a live row."""
    value = row.value if row.object_id is None else None
    return (row.scope, row.agent, row.subject_id, row.predicate, row.object_id, value)


def ends(fact: FactWrite, now: datetime) -> bool:
    return fact.valid_to is not None and fact.valid_to <= now


def expired(row: Existing, now: datetime) -> bool:
    return row.valid_to is not None and row.valid_to <= now


def nonempty(
    valid_from: datetime | None, valid_to: datetime | None, now: datetime
) -> tuple[datetime | None, datetime | None]:
    """A fact's time, never an empty interval that hides it. An end at or before the start:
    still to come ("from friday until friday", one instant written twice), the one-day fact
    ends at the end of that day (in the zone of its start: the person's); already past (ended
    before it was recorded, corrected the second it was said), it held the day it ended. An
    open start (None) is left to the caller."""
    if valid_from is None or valid_to is None or valid_to > valid_from:
        return valid_from, valid_to
    if valid_to > now:
        after = valid_from.date() + timedelta(days=1)
        return valid_from, datetime.combine(after, time(), valid_from.tzinfo)
    last = valid_to - timedelta(microseconds=1)
    return datetime.combine(last.date(), time(), valid_to.tzinfo), valid_to
