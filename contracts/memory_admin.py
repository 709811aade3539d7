"""memory-upserter's writes outside a turn: ingest a knowledge document, seed the person's
profile, re-index the vectors from Postgres. Idempotent like the commit: a retried request
changes nothing more."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from contracts.common import (
    MANY,
    AgentId,
    Category,
    Confidence,
    MemoryType,
    Scope,
    Struct,
    UserId,
)
from contracts.memory import EntityWritten, FactWritten, Name, Notice, Predicate
from contracts.plan import EntityHandle, FactType

# --- POST /v1/knowledge -----------------------------------------------------------------------


class KnowledgeRequest(Struct, kw_only=True, frozen=True):
    """A markdown document for one agent's library (003 §2.4)."""

    agent_id: AgentId
    doc_id: Annotated[str, msgspec.Meta(min_length=1, max_length=255, pattern=r"^[^\x00-\x1f]+$")]
    domain: Annotated[str, msgspec.Meta(min_length=1, max_length=64)] = "general"
    title: Annotated[str, msgspec.Meta(max_length=255)] | None = None
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=2_000_000, description="Markdown.")]
    user_id: (
        Annotated[
            UserId,
            msgspec.Meta(
                description="Only this user sees the document (default: every user of the agent).",
            ),
        ]
        | None
    ) = None


class KnowledgeResponse(Struct, kw_only=True, frozen=True):
    agent_id: AgentId
    doc_id: str
    user_id: UserId | None = None
    chunks: int
    added: int
    unchanged: int
    removed: int
    indexed: int
    warnings: Annotated[list[Notice], msgspec.Meta(max_length=MANY)] = []


# --- POST /v1/profile -------------------------------------------------------------------------


class ProfileFact(Struct, kw_only=True, frozen=True):
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=500)]
    predicate: Predicate | None = None
    memory_type: MemoryType = "PROFILE"
    subject: EntityHandle = "user"
    subject_category: Category = "Person"
    object: EntityHandle | None = None
    object_category: Category = "Other"
    value: Annotated[str, msgspec.Meta(max_length=500)] | None = None
    fact_type: FactType = "fact"
    confidence: Confidence = 1.0
    scope: Scope = "global"


class ProfileRequest(Struct, kw_only=True, frozen=True):
    """The initial profile (000 UserSeed): stored pinned, importance 3, source seeded_profile."""

    user_id: UserId
    agent_id: (
        Annotated[AgentId, msgspec.Meta(description="Needed for facts with scope 'agent'.")] | None
    ) = None
    display_name: Name | None = None
    timezone: (
        Annotated[str, msgspec.Meta(max_length=64, description="IANA, e.g. Europe/Lisbon")] | None
    ) = None
    seed_text: Annotated[str, msgspec.Meta(max_length=800)] | None = None
    facts: Annotated[list[ProfileFact], msgspec.Meta(max_length=100)] = []


class ProfileResponse(Struct, kw_only=True, frozen=True):
    user_id: UserId
    seed: Literal["created", "updated", "unchanged", "absent"]
    entities: Annotated[list[EntityWritten], msgspec.Meta(max_length=MANY)] = []
    facts: Annotated[list[FactWritten], msgspec.Meta(max_length=MANY)] = []
    warnings: Annotated[list[Notice], msgspec.Meta(max_length=MANY)] = []


# --- POST /v1/reindex -------------------------------------------------------------------------


class ReindexRequest(Struct, kw_only=True, frozen=True):
    user_id: Annotated[UserId, msgspec.Meta(description="Default: every user.")] | None = None
    limit: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 1_000


class ReindexResponse(Struct, kw_only=True, frozen=True):
    facts_indexed: int
    facts_deactivated: int
    knowledge_indexed: int
    remaining: bool
    warnings: Annotated[list[Notice], msgspec.Meta(max_length=MANY)] = []
    messages_indexed: Annotated[
        int,
        msgspec.Meta(
            description="Logged messages written into the `messages` collection (raw-turn "
            "recall); the sweep back-fills messages logged before it existed."
        ),
    ] = 0
    episodes_indexed: Annotated[
        int,
        msgspec.Meta(
            description="Episodes written into the `episodes` collection (contract 1.6): an "
            "imported person's, or one whose vector a crash or an outage left unwritten."
        ),
    ] = 0


EXPORTS = {
    "knowledge-request": KnowledgeRequest,
    "knowledge-response": KnowledgeResponse,
    "profile-request": ProfileRequest,
    "profile-response": ProfileResponse,
    "reindex-request": ReindexRequest,
    "reindex-response": ReindexResponse,
}
