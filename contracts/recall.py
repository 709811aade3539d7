"""The two recalled prompt slots of 003 §1, EPISODE (historical: continuity, never overrides
GRAPH) and KNOWLEDGE (static: the agent's library), and rag-gate's fused order of what they
hold. Both come from the vector index and Postgres.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

import msgspec

from contracts.common import (
    FEW,
    MANY,
    SLOT_CONTRACT_VERSION,
    ContractVersion,
    Provenance,
    Role,
    RowId,
    ShortText,
    Struct,
    Text,
)
from contracts.slots import Turn


class EpisodeHit(Struct, kw_only=True, frozen=True):
    episode_id: RowId
    ts: datetime
    day: date | None = None
    one_liner: ShortText = ""
    reflection: Text
    score: float
    score_details: Annotated[dict[str, float], msgspec.Meta(max_length=FEW)] = {}
    entity_ids: Annotated[list[RowId], msgspec.Meta(max_length=MANY)] = []
    provenance: Provenance


class RecalledTurn(Struct, kw_only=True, frozen=True):
    """A logged message recalled for this turn: what was said, by whom, and when (the date is
    what answers "when did…": a message saying "yesterday" means the day before ``ts``)."""

    message_id: RowId
    session_id: RowId | None = None
    ts: datetime
    role: Role
    speaker: str | None = None
    text: Text
    score: float
    score_details: Annotated[dict[str, float], msgspec.Meta(max_length=FEW)] = {}
    provenance: Provenance
    context: (
        Annotated[
            Turn,
            msgspec.Meta(
                description="The message before it in its session, when asked for "
                "(`limits.turns.context`)."
            ),
        ]
        | None
    ) = None


class EpisodeSlot(Struct, kw_only=True, frozen=True):
    """``{{EPISODE}}`` — continuity; context only, never overrides GRAPH."""

    slot_contract_version: ContractVersion = SLOT_CONTRACT_VERSION
    authority: Literal["historical"] = "historical"
    stability: Literal["historical"] = "historical"
    hits: Annotated[list[EpisodeHit], msgspec.Meta(max_length=MANY)] = []
    turns: Annotated[
        list[RecalledTurn],
        msgspec.Meta(
            description="Past messages of this agent's conversations recalled for the message "
            "(since 1.2), best first: raw turns, dated, with their speaker."
        ),
    ] = []
    latest_session_summary: ShortText | None = None
    previous_session_tail: Annotated[list[Turn], msgspec.Meta(max_length=MANY)] = []
    degraded: str | None = None


class KnowledgeHit(Struct, kw_only=True, frozen=True):
    chunk_id: RowId
    doc_id: str
    domain: str | None = None
    section: str = ""
    text: Text
    score: float
    score_details: Annotated[dict[str, float], msgspec.Meta(max_length=FEW)] = {}


class KnowledgeSlot(Struct, kw_only=True, frozen=True):
    """``{{KNOWLEDGE}}`` — this agent's library; applies unless GRAPH has a personal exception."""

    slot_contract_version: ContractVersion = SLOT_CONTRACT_VERSION
    authority: Literal["static"] = "static"
    stability: Literal["static"] = "static"
    hits: Annotated[list[KnowledgeHit], msgspec.Meta(max_length=MANY)] = []
    degraded: str | None = None


class RankedItem(Struct, kw_only=True, frozen=True):
    """One returned item in rag-gate's fused order (see ``Limits.fusion``)."""

    kind: Literal["turn", "fact", "episode", "knowledge"]
    id: Annotated[
        str,
        msgspec.Meta(
            description="message_id, fact_id, episode_id or chunk_id of the item in its slot."
        ),
    ]
    score: float


EXPORTS = {"episode-slot": EpisodeSlot, "knowledge-slot": KnowledgeSlot}
