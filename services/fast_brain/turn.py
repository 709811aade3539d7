"""The fast brain's steps in this process: each is its node's own function
(:mod:`services.pulse_decay.step`, :mod:`services.graph_hydrator.step`,
:mod:`services.rag_gate.pipeline`, :mod:`services.envelope_validator.logic`), so a turn answers
what the four routes would, minus three HTTP round trips and the slots' encoding. The order
and the bodies: :mod:`services.fast_brain.sequence`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import msgspec

from contracts.envelope_io import EnvelopeRequest, EnvelopeResponse
from contracts.hydrate import HydrateRequest, HydrateResponse
from contracts.pulse import PulseRequest, PulseResponse
from contracts.retrieve import RetrieveRequest, RetrieveResponse
from contracts.turn import TurnRequest, TurnResponse
from services.core.deps import Database
from services.core.embedder import Embedder
from services.core.settings import Settings
from services.core.vectors import VectorIndex
from services.core.working_memory import WorkingMemory
from services.envelope_validator.logic import build
from services.fast_brain.sequence import run_turn
from services.graph_hydrator.step import hydrate_graph
from services.pulse_decay.step import count_turn
from services.rag_gate.pipeline import retrieve


@dataclass(frozen=True, slots=True)
class Stores:
    """What the four steps read and write."""

    memory: WorkingMemory
    db: Database
    vectors: VectorIndex
    embedder: Embedder
    settings: Settings


@dataclass(frozen=True, slots=True)
class InProcess:
    """The four steps as function calls over ``stores``, all at the turn's time ``now``."""

    stores: Stores
    now: datetime

    async def pulse(self, req: PulseRequest) -> PulseResponse:
        return await count_turn(self.stores.memory, self.stores.settings, req, self.now)

    async def hydrate(self, req: HydrateRequest) -> HydrateResponse:
        return await hydrate_graph(self.stores.db, req, self.now)

    async def retrieve(self, req: RetrieveRequest) -> RetrieveResponse:
        s = self.stores
        return await retrieve(s.db, s.vectors, s.embedder, s.settings, req, self.now)

    async def envelope(self, req: EnvelopeRequest) -> EnvelopeResponse:
        return build(req, self.now)


async def turn_in_process(stores: Stores, req: TurnRequest, now: datetime) -> TurnResponse:
    """One turn at ``now`` (every step is sent it), each step its node's function."""
    return await run_turn(InProcess(stores, now), msgspec.structs.replace(req, now=now))
