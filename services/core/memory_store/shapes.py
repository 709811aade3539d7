"""The shapes a caller hands to the writers, importable without the driver (pure logic builds
them: memory-upserter's plan resolution)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from uuid import UUID


@dataclass(frozen=True)
class EntityWrite:
    name: str
    category: str = "Person"
    aliases: Sequence[str] = ()
    scope: str = "global"
    ref: str | None = None  # a handle such as 'person:marta' to look up (and prefer) as entity_ref
    distinct_from: UUID | None = None  # a new person apart from this one: joins only by alias
