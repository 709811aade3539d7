"""The prompt slots AFFECT and GRAPH of 003 §1 and the Redis working-memory objects of 003 §3
(the recalled slots, EPISODE and KNOWLEDGE, are in ``contracts/recall.py``).

Authority ladder: GRAPH (authoritative) > KNOWLEDGE (static) > EPISODE (historical) >
AFFECT (non-factual, tone only). Each slot carries its labels so the envelope can check them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec

from contracts.common import (
    FEW,
    MANY,
    SLOT_CONTRACT_VERSION,
    AgentId,
    Category,
    ChatId,
    Confidence,
    ContractVersion,
    Importance,
    Provenance,
    Role,
    RowId,
    Scope,
    ShortText,
    Struct,
    Text,
    TodoKind,
    TodoStatus,
    UserId,
)

# --- Working memory (Redis) -------------------------------------------------------------------


class Turn(Struct, kw_only=True, frozen=True):
    role: Role
    text: Text
    speaker: str | None = None
    ts: datetime | None = None
    message_id: str | None = None


class Scratch(Struct, kw_only=True, frozen=True):
    """Per-session scratch variables (003 §3.1)."""

    topic_focus: str | None = None
    mode: str | None = None
    pending_questions: Annotated[list[ShortText], msgspec.Meta(max_length=FEW)] = []
    flags: Annotated[dict[str, str | int | float | bool], msgspec.Meta(max_length=FEW)] = {}


class SessionState(Struct, kw_only=True, frozen=True):
    """``sess:{user}:{agent}:{chat}``: the rolling "now" of one conversation."""

    slot_contract_version: ContractVersion = SLOT_CONTRACT_VERSION
    user_id: UserId
    agent_id: AgentId
    chat_id: ChatId
    msg_count: Annotated[int, msgspec.Meta(ge=0)] = 0
    summary: Annotated[str, msgspec.Meta(max_length=2_000)] = ""
    turns: Annotated[list[Turn], msgspec.Meta(max_length=MANY)] = []
    scratch: Scratch = msgspec.field(default_factory=Scratch)
    active_entity_ids: Annotated[list[RowId], msgspec.Meta(max_length=MANY)] = []
    updated_at: datetime | None = None
    last_message_id: (
        Annotated[
            str,
            msgspec.Meta(
                max_length=128,
                description="pulse-decay's last counted message_id (retry detection).",
            ),
        ]
        | None
    ) = None


class Pulse(Struct, kw_only=True, frozen=True):
    every_n_messages: Annotated[int, msgspec.Meta(ge=1, le=100)] = 3
    last_pulse_at: datetime | None = None
    still_valid: bool = True


class Affect(Struct, kw_only=True, frozen=True):
    label: Annotated[str, msgspec.Meta(min_length=1, max_length=40)] = "neutral"
    confidence: Confidence = 0.0
    markers: Annotated[
        list[Annotated[str, msgspec.Meta(max_length=80)]], msgspec.Meta(max_length=FEW)
    ] = []
    decay_at: datetime
    pulse: Pulse = msgspec.field(default_factory=Pulse)


class AffectSlot(Struct, kw_only=True, frozen=True):
    """``{{AFFECT}}`` — tone and mode only; never a fact (003 §3.2)."""

    slot_contract_version: ContractVersion = SLOT_CONTRACT_VERSION
    authority: Literal["non-factual"] = "non-factual"
    stability: Literal["volatile"] = "volatile"
    user_id: UserId
    agent_id: AgentId
    chat_id: ChatId | None = None
    ts: datetime
    affect: Affect
    interaction_mode: str = "default"
    topic_focus: str | None = None
    active_entity_ids: Annotated[list[RowId], msgspec.Meta(max_length=MANY)] = []


# --- GRAPH (Postgres) -------------------------------------------------------------------------

# A fact stored with less confidence than this (a reflection's psyche guess, a fact the write
# path could not ground) is not authoritative: never in the foundation, and shown, if at all,
# as unverified. One threshold for graph-hydrator and envelope-validator.
UNVERIFIED_BELOW = 0.6


class GraphEntity(Struct, kw_only=True, frozen=True):
    entity_id: RowId
    name: str
    category: Category
    scope: Scope
    entity_ref: str | None = None
    aliases: Annotated[list[str], msgspec.Meta(max_length=MANY)] = []
    last_seen: datetime | None = None
    seed: Literal["mention", "active", "neighbor"] = "neighbor"
    hint: (
        Annotated[
            str,
            msgspec.Meta(
                max_length=120,
                description="What tells this entity apart from another of the same name in the "
                "same slot (since 1.10): what it is to the person ('brother', 'colleague') or "
                "its strongest relation; null when no other entity shares its name.",
            ),
        ]
        | None
    ) = None


class GraphEdge(Struct, kw_only=True, frozen=True):
    """A relation between two entities, or a literal fact about one (``value``)."""

    rel_id: RowId
    subject_id: RowId
    subject: str
    predicate: str
    object_id: RowId | None = None
    object: str | None = None
    value: Any = None
    text: str | None = None
    scope: Scope = "global"
    confidence: Confidence = 1.0
    importance: Importance = 1
    pinned: bool = False
    critical: bool = False
    valid_from: Annotated[
        datetime | None,
        msgspec.Meta(
            description="When it holds from; later than the read's ``now`` for a change the "
            "person scheduled ('from dec 3 i'm at X': since 1.10 such facts are in the slot)."
        ),
    ] = None
    valid_to: Annotated[
        datetime | None,
        msgspec.Meta(
            description="When it stops holding (exclusive; since 1.10): 'until friday', or the "
            "day a scheduled successor starts. None: open."
        ),
    ] = None
    updated_at: datetime | None = None
    provenance: Provenance


class FactLine(Struct, kw_only=True, frozen=True):
    """One human-readable fact (foundation, relevant or card fact)."""

    fact_id: RowId
    text: Text
    memory_type: str = "PROFILE"
    importance: Importance = 1
    pinned: bool = False
    source: str | None = None
    score: float | None = None
    score_details: Annotated[dict[str, float], msgspec.Meta(max_length=FEW)] = {}
    confidence: Annotated[
        Confidence,
        msgspec.Meta(
            description=f"The stored fact's confidence (since 1.5); under {UNVERIFIED_BELOW} it "
            "is rendered as unverified, never as authoritative GRAPH."
        ),
    ] = 1.0
    valid_to: Annotated[
        datetime | None,
        msgspec.Meta(
            description="When the fact stops holding (exclusive; since 1.10), rendered as its "
            "last day; None: open."
        ),
    ] = None
    provenance: Provenance


class EntityCard(Struct, kw_only=True, frozen=True):
    """``[person:john]: fact1; fact2; fact3`` of 000 (importance ≥ 2 or pinned, top 3)."""

    entity_ref: str
    label: str
    facts: Annotated[list[str], msgspec.Meta(max_length=MANY)]
    fact_ids: Annotated[
        list[RowId],
        msgspec.Meta(
            description="The row id of each of ``facts``, in their order (since 1.5), so each "
            "renders with its handle; empty from a producer that does not send them."
        ),
    ] = []


class TodoLine(Struct, kw_only=True, frozen=True):
    todo_id: RowId
    kind: TodoKind
    text: ShortText
    status: TodoStatus = "PENDING"
    due_at: datetime | None = None
    created_at: datetime | None = None
    completed_at: datetime | None = None
    source_snippet: ShortText | None = None


class Candidate(Struct, kw_only=True, frozen=True):
    entity_id: RowId
    name: str
    hint: str


class Disambiguation(Struct, kw_only=True, frozen=True):
    """Several entities answer to one name and nothing picks one: ask, don't guess (003 §10)."""

    mention: str
    question: ShortText
    candidates: Annotated[list[Candidate], msgspec.Meta(max_length=FEW)]


class GraphSlot(Struct, kw_only=True, frozen=True):
    """``{{GRAPH}}`` — identity and constraints, authoritative; a fact or edge stored under
    ``UNVERIFIED_BELOW`` confidence is not, and is rendered as unverified."""

    slot_contract_version: ContractVersion = SLOT_CONTRACT_VERSION
    authority: Literal["authoritative"] = "authoritative"
    stability: Literal["persistent"] = "persistent"
    user_id: UserId
    agent_id: AgentId
    entities: Annotated[list[GraphEntity], msgspec.Meta(max_length=MANY)] = []
    edges: Annotated[list[GraphEdge], msgspec.Meta(max_length=MANY)] = []
    foundation: Annotated[list[FactLine], msgspec.Meta(max_length=MANY)] = []
    relevant_facts: Annotated[list[FactLine], msgspec.Meta(max_length=MANY)] = []
    entity_cards: Annotated[list[EntityCard], msgspec.Meta(max_length=MANY)] = []
    commitments: Annotated[list[TodoLine], msgspec.Meta(max_length=MANY)] = []
    threads: Annotated[list[TodoLine], msgspec.Meta(max_length=MANY)] = []
    frictions: Annotated[list[TodoLine], msgspec.Meta(max_length=MANY)] = []
    wins: Annotated[list[TodoLine], msgspec.Meta(max_length=MANY)] = []
    pending_question: Disambiguation | None = None
    summary_spine: Annotated[
        str,
        msgspec.Meta(
            max_length=1_200,
            description="The user's latest summary spine (PROFILE / PROJECTS / PEOPLE, shared by "
            "every agent; '' before the first version). envelope-validator renders it "
            "as the conversation summary when the request carries none.",
        ),
    ] = ""
    dropped: Annotated[dict[str, int], msgspec.Meta(max_length=FEW)] = {}


EXPORTS = {
    "session-state": SessionState,
    "affect-slot": AffectSlot,
    "graph-slot": GraphSlot,
}
