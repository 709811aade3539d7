"""rag-gate's request and answer: one user message in; the gate's decision, ``EPISODE``,
``KNOWLEDGE`` and ``FACTS`` out.

Every threshold and weight has a default tuned for the offline MiniLM embedder (see
``services/rag_gate/ranking.py``) and can be overridden per request under ``limits``.
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
    MutableStruct,
    RowId,
    Struct,
    Text,
    UserId,
)
from contracts.envelope_io import FactsSlot
from contracts.slots import EpisodeSlot, KnowledgeSlot, RankedItem, Scratch

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

# Defaults measured on MiniLM (all-MiniLM-L6-v2) with bench/rag_gate_cutoff.py; 003's 0.65 /
# 0.12 are OpenAI-embedding values and keep about one relevant MiniLM hit in six.
EPISODE_FLOOR, EPISODE_MARGIN = 0.35, 0.15
KNOWLEDGE_FLOOR, KNOWLEDGE_MARGIN = 0.275, 0.15
FACT_FLOOR, FACT_MARGIN = 0.20, 0.20
TURN_FLOOR, TURN_MARGIN = 0.15, 0.30
LEXICAL_RANK, LEXICAL_MIN_SIMILARITY = 3, 0.15

Similarity = Annotated[float, msgspec.Meta(ge=-1.0, le=1.0)]
Floor = Annotated[
    float,
    msgspec.Meta(
        ge=-1.0, le=1.0, description="Cosine a hit must exceed, however good the best hit is."
    ),
]
Margin = Annotated[
    float,
    msgspec.Meta(ge=0.0, le=2.0, description="A hit must also exceed top1_similarity - margin."),
]
LexicalRank = Annotated[
    int,
    msgspec.Meta(
        ge=0,
        le=20,
        description="A hit failing the cosine test is still kept when it is among this many first "
        "by fused (RRF) rank, shares a distinctive word with the message (one no other "
        "candidate contains, and not a gate cue word such as 'remember') and reaches "
        "`lexical_min_similarity`. 0 turns this lexical keep off.",
    ),
]
LexicalMinSimilarity = Annotated[
    float,
    msgspec.Meta(ge=-1.0, le=1.0, description="The least cosine a lexically kept hit may have."),
]
Weight = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]


class Cutoff(Struct, kw_only=True, frozen=True):
    """The relative cutoff of 003 §6.3, ``similarity > max(floor, top1 - margin)``, plus the
    lexical keep for hits the BM25 half found."""

    floor: Floor
    margin: Margin
    lexical_rank: LexicalRank = LEXICAL_RANK
    lexical_min_similarity: LexicalMinSimilarity = LEXICAL_MIN_SIMILARITY


class EpisodeLimits(Cutoff, kw_only=True, frozen=True):
    top_k: Annotated[
        int,
        msgspec.Meta(ge=1, le=20, description="Episodes fetched from the index before the cutoff."),
    ] = 8
    floor: Floor = EPISODE_FLOOR
    margin: Margin = EPISODE_MARGIN


class KnowledgeLimits(Cutoff, kw_only=True, frozen=True):
    k: Annotated[
        int,
        msgspec.Meta(
            ge=0, le=8, description="Chunks fetched before the cutoff; 0 skips knowledge."
        ),
    ] = 4
    floor: Floor = KNOWLEDGE_FLOOR
    margin: Margin = KNOWLEDGE_MARGIN


class BlendWeights(Struct, kw_only=True, frozen=True):
    """000's blended ranking; the weights are relative (divided by their sum)."""

    similarity: Weight = 0.4
    recency: Weight = 0.3
    frequency: Weight = 0.3

    def __post_init__(self) -> None:
        if self.similarity + self.recency + self.frequency <= 0:
            raise ValueError("at least one weight must be positive")


class FactLimits(Cutoff, kw_only=True, frozen=True):
    max: Annotated[
        int,
        msgspec.Meta(ge=0, le=8, description="Relevant facts returned (001: 8); 0 skips facts."),
    ] = 8
    candidates: Annotated[
        int,
        msgspec.Meta(
            ge=1, le=64, description="Facts fetched from the index before filtering and ranking."
        ),
    ] = 24
    floor: Floor = FACT_FLOOR
    margin: Margin = FACT_MARGIN
    half_life_days: Annotated[
        float,
        msgspec.Meta(gt=0, le=3650, description="Recency halves every this many days (000: 14)."),
    ] = 14.0
    weights: BlendWeights = msgspec.field(default_factory=BlendWeights)
    cards: Annotated[
        int,
        msgspec.Meta(
            ge=0, le=8, description="Entity cards at most, for the entities of the top facts."
        ),
    ] = 3
    card_facts: Annotated[
        int, msgspec.Meta(ge=1, le=5, description="Facts per entity card (000: 3).")
    ] = 3


class TurnLimits(Cutoff, kw_only=True, frozen=True):
    """Raw-turn recall: the ``messages`` collection searched (dense of the message, BM25 of it
    with the message before it), then re-ranked by fusion with what the graph and the episodes
    say about the message (see ``services/rag_gate/fusion.py``)."""

    max: Annotated[
        int,
        msgspec.Meta(ge=0, le=20, description="Recalled turns returned; 0 skips raw-turn recall."),
    ] = 20
    candidates: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=64,
            description="Turns fetched from the index before the cutoff and the re-ranking.",
        ),
    ] = 32
    floor: Floor = TURN_FLOOR
    margin: Margin = TURN_MARGIN
    entity_boost: Annotated[
        float,
        msgspec.Meta(
            ge=0.0,
            le=4.0,
            description="Added weight (in fused-rank units) for a turn spoken by, "
            "or naming, an entity the message mentions.",
        ),
    ] = 0.5
    session_boost: Annotated[
        float,
        msgspec.Meta(
            ge=0.0,
            le=4.0,
            description="Added weight for a turn of a session whose episode the "
            "episode search ranked, by that episode's rank (off by "
            "default: with the offline reflections it cost recall).",
        ),
    ] = 0.0
    context: Annotated[
        bool,
        msgspec.Meta(
            description="Return each recalled turn with the message before it in its session "
            "(`context`): the question a reply answers. A message already shown is "
            "not shown twice."
        ),
    ] = False


class FusionWeights(Struct, kw_only=True, frozen=True):
    """How ``ranking`` interleaves the slots: each item scores ``weight / (60 + rank in its
    own list)``; equal scores put the shorter item first."""

    turn: Weight = 1.0
    fact: Weight = 0.5
    episode: Weight = 0.3
    knowledge: Weight = 0.8


class Limits(Struct, kw_only=True, frozen=True):
    episodes: EpisodeLimits = msgspec.field(default_factory=EpisodeLimits)
    knowledge: KnowledgeLimits = msgspec.field(default_factory=KnowledgeLimits)
    facts: FactLimits = msgspec.field(default_factory=FactLimits)
    turns: TurnLimits = msgspec.field(default_factory=TurnLimits)
    fusion: FusionWeights = msgspec.field(default_factory=FusionWeights)
    tail_turns: Annotated[
        int,
        msgspec.Meta(
            ge=0,
            le=20,
            description="Messages of the previous unconsolidated session "
            "returned in EPISODE.previous_session_tail.",
        ),
    ] = 10


class RetrieveRequest(Struct, kw_only=True, frozen=True):
    """One user turn, with the entities graph-hydrator resolved and the session's scratch."""

    user_id: UserId
    agent_id: AgentId
    chat_id: ChatId
    message: Annotated[
        Text,
        msgspec.Meta(description="The user's message as received ('' for a sticker or a photo)."),
    ]
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
    force: (
        Annotated[
            Literal["open", "closed"],
            msgspec.Meta(
                description="Override the gate: 'open' always retrieves, 'closed' never does. The "
                "rules that fired are still reported."
            ),
        ]
        | None
    ) = None
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


class RetrieveDebug(MutableStruct, kw_only=True):
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
