"""The shapes a caller hands to the entity writer and gets back, importable without the driver
(pure logic builds and reads them: memory-upserter's plan resolution and answer)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal
from uuid import UUID

EntityOutcome = Literal["created", "updated", "unchanged"]


@dataclass(frozen=True)
class EntityWrite:
    name: str
    category: str = "Person"
    aliases: Sequence[str] = ()
    scope: str = "global"
    ref: str | None = None  # a handle such as 'person:marta' to look up (and prefer) as entity_ref
    distinct_from: UUID | None = None  # a new person apart from this one: joins only by alias


@dataclass(frozen=True)
class EntityResult:
    entity_id: UUID
    name: str
    category: str
    entity_ref: str | None
    outcome: EntityOutcome
