"""Raw-turn re-ranking and the fused order of everything rag-gate returns. Pure: no I/O.

**Turns.** The ``messages`` search is hybrid: the dense vector of the message itself and the
BM25 vector of it *with the message before it* (a later question usually echoes the turn that
raised the topic, while the answer is in the reply), fused by RRF (k = 60), so a hit's index
score is ``Σ 1 / (60 + rank)`` over the two lists. Two signals raw-turn search lacks are added
in the same units (``b / 61``, b = one list's first place weighted by ``b``):

- ``entity_boost``: the turn was said by an entity the message mentions (its ``speaker`` is one
  of that entity's names or aliases), or names one (graph-hydrator's entities are in the
  turn's ``entity_ids``). "What did Caroline research?" is about what *Caroline* said;
- ``session_boost / (60 + r)``: the turn's session has the episode ranked ``r`` by the
  episode search — finding the right conversation is much easier than finding the exact turn,
  so a session whose summary matches may lift its turns. Off by default (0): measured through
  the product (offline extractive reflections, entity-narrowed episode search) it *lost*
  recall (R@10 0.673 → 0.672 at 0.5, 0.616 at 1.5; R@5 0.585 → 0.570 → 0.524), although a
  session prior from BM25 + MiniLM over whole sessions gained +0.02 R@10 offline. Worth
  re-measuring with an LLM's reflections.

On the 4 LoCoMo conversations of ``bench/recall`` (MiniLM, offline), measured over raw turns
outside the product: BM25 of the pair instead of the turn +0.04 R@10 (0.609 → 0.653), a dense
vector of the pair −0.06; through the product the entity boost adds +0.04 R@10 (0.630 →
0.673; 1.0 instead of 0.5 changes nothing).

**Fused order** (``RetrieveResponse.ranking``). Each slot is already ranked; an item scores
``weight[kind] / (60 + its rank in its slot)`` (weighted reciprocal-rank fusion), equal scores
put the item with fewer words first (a short, equally relevant item costs the prompt less).
With the default weights (turn 1, knowledge 0.8, fact 0.5, episode 0.3) a dated raw turn
outranks a fact or an episode reflection of the same rank: on the benchmark a turn carries the
evidence in ~28 words where an episode reflection spends ~190.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from contracts.retrieve_limits import FusionWeights, TurnLimits
from services.rag_gate.gate import normalize

RRF_K = 60
FIRST = 1.0 / (RRF_K + 1)  # one list's first place


@dataclass(frozen=True, slots=True)
class TurnCandidate:
    id: str
    rrf: float  # the index's fused score
    similarity: float | None
    speaker: str | None
    session_id: str | None
    entity_ids: frozenset[str]
    lexical: bool = False  # kept by the lexical rule, not by its cosine


@dataclass(frozen=True, slots=True)
class ScoredTurn:
    id: str
    score: float
    details: dict[str, float]


def names_key(name: str) -> str:
    return " ".join(normalize(name).split())


def score_turns(
    candidates: Sequence[TurnCandidate],
    *,
    limits: TurnLimits,
    entity_ids: Iterable[str],
    entity_names: Iterable[str],
    session_ranks: Mapping[str, int],
) -> list[ScoredTurn]:
    """The candidates re-scored and sorted, best first (ties: the index's order)."""
    ids = frozenset(entity_ids)
    names = frozenset(names_key(n) for n in entity_names if n and n.strip())
    scored = []
    for order, c in enumerate(candidates):
        spoken = bool(c.speaker) and names_key(c.speaker or "") in names
        named = bool(ids & c.entity_ids)
        entity = limits.entity_boost * FIRST if (spoken or named) else 0.0
        rank = session_ranks.get(c.session_id or "")
        session = limits.session_boost / (RRF_K + rank) if rank else 0.0
        score = c.rrf + entity + session
        details = {
            "rrf": round(c.rrf, 6),
            "entity": round(entity, 6),
            "session": round(session, 6),
            "fused": round(score, 6),
            "lexical": 1.0 if c.lexical else 0.0,
        }
        if rank:
            details["episode_rank"] = float(rank)
        if c.similarity is not None:
            details["similarity"] = round(c.similarity, 4)
        scored.append((score, -order, ScoredTurn(c.id, score, details)))
    scored.sort(key=lambda item: item[:2], reverse=True)
    return [item for *_, item in scored]


ItemKind = Literal["turn", "fact", "episode", "knowledge"]


@dataclass(frozen=True, slots=True)
class Slotted:
    """One returned item: its kind, id, rank in its own slot (1 = best), and its words."""

    kind: ItemKind
    id: str
    rank: int
    words: int


def fuse(items: Iterable[Slotted], weights: FusionWeights) -> list[tuple[Slotted, float]]:
    """Weighted reciprocal-rank fusion of the slots: ``(item, score)`` best first; equal
    scores put fewer words first, then keep the input order."""
    scored = []
    for order, item in enumerate(items):
        weight = getattr(weights, item.kind)
        score = weight / (RRF_K + item.rank)
        scored.append((-score, item.words, order, item, score))
    scored.sort(key=lambda x: x[:3])
    return [(item, score) for *_, item, score in scored]


def words(text: str) -> int:
    return len(text.split())


def said(speaker: str | None, text: str) -> str:
    return f"{speaker}: {text}" if speaker else text
