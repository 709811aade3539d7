"""Plain values the pure modules take (no I/O): a logged message, a known entity."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class Message:
    """One row of the durable message log, as consolidation reads it."""

    message_id: str
    seq: int
    role: str  # 'user' | 'assistant' | 'system'
    text: str
    ts: datetime
    speaker: str | None = None


@dataclass(frozen=True, slots=True)
class KnownEntity:
    """One of the user's entities whose name or alias occurs in the session text."""

    entity_id: str
    name: str
    category: str
