"""The shapes a caller hands to the entity writer and gets back, importable without the driver
(pure logic builds and reads them: memory-upserter's plan resolution and answer)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal
from uuid import UUID

from services.core.text import visible

EntityOutcome = Literal["created", "updated", "unchanged"]


@dataclass(frozen=True)
class EntityWrite:
    name: str
    category: str = "Person"
    aliases: Sequence[str] = ()
    scope: str = "global"
    ref: str | None = None  # a handle such as 'person:marta' to look up (and prefer) as entity_ref
    distinct_from: UUID | None = None  # a new person apart from this one: joins only by alias

    def __post_init__(self) -> None:
        """Names and keys are stored without zero-width or bidi characters, whoever wrote
        them (a model's plan, the offline judge, ``/v1/entities``): "Mar\u200dta" is Marta.
        A name of nothing else stays as written (a name is never empty)."""
        object.__setattr__(self, "name", visible(self.name) or self.name)
        object.__setattr__(self, "aliases", tuple(visible(a) or a for a in self.aliases))
        if self.ref is not None:
            object.__setattr__(self, "ref", visible(self.ref) or self.ref)


@dataclass(frozen=True)
class EntityResult:
    entity_id: UUID
    name: str
    category: str
    entity_ref: str | None
    outcome: EntityOutcome
