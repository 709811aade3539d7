"""rag-gate's request and answer: one user message in; the gate's decision, ``EPISODE``,
``KNOWLEDGE`` and ``FACTS`` out.

Every threshold and weight can be overridden per request under ``limits``
(``contracts/retrieve_limits.py``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

import msgspec

from contracts.common import (
    SLOT_CONTRACT_VERSION,
    AgentId,
    ChatId,
    ContractVersion,
    RowId,
    Struct,
    UserId,
    UserMessage,
)
from contracts.envelope_io import FactsSlot
from contracts.recall import EpisodeSlot, KnowledgeSlot, RankedItem
from contracts.retrieve_limits import Limits
from contracts.slots import Scratch

GateRule = Literal[
    "continuity",  # "remember", "last time", "again", "you said", "yesterday", ...
    "entity_mention",  # the request carries entity ids (graph-hydrator found someone)
    "about_user",  # "where do I…", "what's my…", "who is my…", "do you know my…" (1.3)
    "plan_progress",  # "plan", "progress", "how am I doing", "goal", "streak", ...
    "reflection",  # "why do I", "I keep", "pattern", "feel", ...
    "logging",  # "I ate", "had for lunch", "ran 5k", "slept", ...
    "past_question",  # "when did", "what did", "did I", ...
    "session_mode",  # scratch.mode is a reflective/planning mode
]


GateForce = Annotated[
    Literal["open", "closed"],
    msgspec.Meta(
        description="Override the gate: 'open' always retrieves, 'closed' never does. The "
        "rules that fired are still reported."
    ),
]


class RetrieveRequest(Struct, kw_only=True, frozen=True):
    """One user turn, with the entities graph-hydrator resolved and the session's scratch."""

    user_id: UserId
    agent_id: AgentId
    chat_id: ChatId
    message: UserMessage
    entity_ids: Annotated[
        list[RowId],
        msgspec.Meta(
            max_length=100,
            description="Seed entity ids (graph-hydrator's `active_entity_ids`): they open the "
            "gate and narrow the episode search.",
        ),
    ] = []
    scratch: (
        Annotated[
            Scratch,
            msgspec.Meta(
                description="The session's scratch (pulse-decay's `session.scratch`): `mode` "
                "may open "
                "the gate, `topic_focus` enriches a short message's query."
            ),
        ]
        | None
    ) = None
    force: GateForce | None = None
    limits: Limits = msgspec.field(default_factory=Limits)
    now: (
        Annotated[
            datetime,
            msgspec.Meta(
                tz=True,
                description="The turn's time with its offset; decides recency, which facts are "
                "valid, "
                "and which session is the previous one. Defaults to the server clock.",
            ),
        ]
        | None
    ) = None


class Gate(Struct, kw_only=True, frozen=True):
    """Whether this turn hit the vector index, and why."""

    open: bool
    reasons: Annotated[
        list[GateRule],
        msgspec.Meta(description="Every rule that fired, in rule-table order (also when forced)."),
    ] = []
    forced: Annotated[
        bool, msgspec.Meta(description="`force` decided, whatever the rules said.")
    ] = False
    matched: Annotated[
        dict[str, list[str]],
        msgspec.Meta(
            description="Per rule, the words of the message that fired it (for entity_mention, "
            "the entity ids; for session_mode, the mode)."
        ),
    ] = {}


class RetrieveDebug(Struct, kw_only=True, frozen=True):
    """What the designer needs to see why items were (not) picked."""

    query: Annotated[
        str,
        msgspec.Meta(
            description="The text embedded and searched (the message, plus the topic focus when "
            "the message is short)."
        ),
    ] = ""
    embedder: str | None = None
    episode_filter: (
        Annotated[
            Literal["entities", "fallback", "none"],
            msgspec.Meta(
                description="entities: narrowed to the seed entities; fallback: narrowing found "
                "nothing, searched all; none: no seed entities."
            ),
        ]
        | None
    ) = None
    thresholds: Annotated[
        dict[str, float],
        msgspec.Meta(
            description="The cosine each kind of hit had to exceed: max(floor, top1 - margin).",
        ),
    ] = {}
    candidates: Annotated[
        dict[str, int], msgspec.Meta(description="Hits the index returned, per collection.")
    ] = {}
    dropped: Annotated[
        dict[str, int],
        msgspec.Meta(
            description="Why candidates were left out, e.g. episodes_below_cutoff, "
            "facts_not_live (inactive, expired, PSYCHE, another agent's), "
            "facts_over_max, facts_duplicate."
        ),
    ] = {}


class RetrieveResponse(Struct, kw_only=True, frozen=True):
    """The gate's decision and the three retrieval slots, each ready for envelope-validator."""

    slot_contract_version: ContractVersion = SLOT_CONTRACT_VERSION
    gate: Gate
    EPISODE: EpisodeSlot
    KNOWLEDGE: KnowledgeSlot
    FACTS: FactsSlot
    ranking: Annotated[
        list[RankedItem],
        msgspec.Meta(
            description="Every recalled turn, relevant fact, episode and knowledge chunk above, "
            "fused into one order, best first: what to keep when the prompt must be "
            "short (since 1.2)."
        ),
    ] = []
    timings: Annotated[
        dict[str, float],
        msgspec.Meta(description="Milliseconds per stage (embed, vectors, sql_rows, ...)."),
    ] = {}
    debug: RetrieveDebug = msgspec.field(default_factory=RetrieveDebug)


EXPORTS = {"retrieve-request": RetrieveRequest, "retrieve-response": RetrieveResponse}
