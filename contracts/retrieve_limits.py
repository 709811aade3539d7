"""rag-gate's ``limits``: the cut-offs, blend weights and fusion weights a request may
override, with defaults tuned for the offline MiniLM embedder (see
``services/rag_gate/ranking.py``).
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from contracts.common import Struct

# Defaults measured on MiniLM (all-MiniLM-L6-v2) with bench/rag_gate_cutoff.py; 003's 0.65 /
# 0.12 are OpenAI-embedding values and keep about one relevant MiniLM hit in six.
EPISODE_FLOOR, EPISODE_MARGIN = 0.35, 0.15
KNOWLEDGE_FLOOR, KNOWLEDGE_MARGIN = 0.275, 0.15
FACT_FLOOR, FACT_MARGIN = 0.20, 0.20
# Raw turns (1.9): the floor alone in practice. A turn below the best one's cosine by 0.3 is
# often the answer to it ("Why did she pick it?" → "Because they're inclusive"), and the
# session context of rag-gate's fusion lifts it (services/rag_gate/fusion.py, fitted on split A).
TURN_FLOOR, TURN_MARGIN = 0.15, 0.70
TURN_CANDIDATES = 64  # 1.9; was 32 (BEAM's long messages: fitted on split A, fusion.py)
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
    ] = TURN_CANDIDATES
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
