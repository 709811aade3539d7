"""The rows the store hands to the logic: plain data, no database types.

Frozen msgspec Structs rather than frozen dataclasses: a turn builds a few hundred of them, and
a frozen dataclass pays an ``object.__setattr__`` per field (the cost: bench/RESULTS.md).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec

from contracts.common import Category, Scope, TodoKind, TodoStatus


class EntityRow(msgspec.Struct, frozen=True, kw_only=True):
    """An entity visible to this agent. ``keys`` are its normalized name and aliases (what a
    mention must equal); empty for an entity only reached as an edge's endpoint. ``kin``: the
    predicates relating it to the person (``HAS_SISTER``; ``^SISTER_OF`` read from its side)."""

    entity_id: str
    name: str
    category: Category
    scope: Scope
    entity_ref: str | None = None
    last_seen: datetime | None = None
    attributes: dict[str, Any] = {}
    aliases: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    kin: tuple[str, ...] = ()


class EdgeRow(msgspec.Struct, frozen=True, kw_only=True):
    """An ACTIVE relation visible to this agent, with both endpoints: currently valid, or one
    the person scheduled (``valid_from`` after the read's ``now``)."""

    rel_id: str
    scope: Scope
    subject: EntityRow
    predicate: str
    text: str
    confidence: float
    updated_at: datetime
    obj: EntityRow | None = None  # None: a literal fact, see ``value``
    value: Any = None
    importance: int = 1
    pinned: bool = False
    source: str | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    message_ids: tuple[str, ...] = ()


class FactRow(msgspec.Struct, frozen=True, kw_only=True):
    """A foundation candidate (:func:`services.graph_hydrator.lists.is_foundation`);
    ``about_self``: its subject is the person's own entity."""

    fact_id: str
    subject_id: str
    predicate: str
    scope: str
    text: str
    memory_type: str
    importance: int
    pinned: bool
    source: str
    created_at: datetime
    updated_at: datetime | None = None
    about_self: bool = False
    message_ids: tuple[str, ...] = ()
    confidence: float = 1.0
    valid_to: datetime | None = None

    @property
    def seeded(self) -> bool:
        return self.source == "seeded_profile"


class TodoRow(msgspec.Struct, frozen=True, kw_only=True):
    """A todo of this user and agent; ``bucket``: its list when pending (LIST_OF_KIND), else WIN."""

    todo_id: str
    kind: TodoKind
    bucket: str
    text: str
    status: TodoStatus
    created_at: datetime
    updated_at: datetime
    due_at: datetime | None = None
    completed_at: datetime | None = None
    source_snippet: str | None = None
