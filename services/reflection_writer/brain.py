"""What one consolidation call uses, each capability present (built once per request by the
node's provider, or by a test from its own clients)."""

from __future__ import annotations

from dataclasses import dataclass

from services.core.deps import Database
from services.core.embedder import Embedder
from services.core.vectors import VectorIndex
from services.reflection_writer.drafting import Drafter


@dataclass(frozen=True, slots=True)
class SlowBrain:
    """The truth (``db``), the episodes' index and its embedder, the drafter (the model, or
    the offline engine when none is configured) and the session lease's length."""

    db: Database
    vectors: VectorIndex
    embedder: Embedder
    drafter: Drafter
    lease_s: float
