"""The stores a turn's memory lives in, as one capability: Postgres (the truth), the vector
index and its embedder (derived, repairable), and the working memory. The commit and the
forget write all four; the node's provider builds it from the handler's typed dependencies."""

from __future__ import annotations

from dataclasses import dataclass

from services.core.deps import Database
from services.core.embedder import Embedder
from services.core.vectors import VectorIndex
from services.core.working_memory import WorkingMemory


@dataclass(frozen=True)
class MemoryStores:
    db: Database
    vectors: VectorIndex
    embedder: Embedder
    memory: WorkingMemory
