"""Raw-turn re-ranking and the fused order of everything rag-gate returns. Pure: no I/O.

**Turns.** The ``messages`` search is hybrid: the dense vector of the message itself and the
BM25 vector of it *with the message before it* (a later question usually echoes the turn that
raised the topic, while the answer is in the reply). The index proposes the candidates by RRF
(k = 60); rag-gate re-scores them by their *scores*, not their ranks (:func:`relevance`):
``2/61 · (0.7 · cosine / best cosine + 0.3 · BM25 / best BM25)`` over the candidates, in the
units of two lists' first places. Rank fusion throws away how far apart two hits are: a turn
that shares the question's rare words scores far above the rest in BM25 but only one place
above in RRF. Measured offline over raw turns (bench/recall, dense + BM25 of the pair, fitted
on LoCoMo conv-26 and conv-30 and BEAM chats 1-5 only), R@10 0.614 → 0.708 on LoCoMo and
0.523 → 0.536 on BEAM; a dense share of 0.6 gives LoCoMo 0.722 but BEAM 0.517, 0.8 gives
0.683 / 0.559. A backend that gives no scores keeps the index's RRF. Two signals raw-turn
search lacks are added in the same units (``b / 61``, b = one list's first place weighted by
``b``):

- ``entity_boost``: the turn was said by an entity the message mentions (its ``speaker`` is one
  of that entity's names or aliases), or names one (graph-hydrator's entities are in the
  turn's ``entity_ids``). "What did Caroline research?" is about what *Caroline* said;
- ``session_context``: the best relevance among the candidates of the turn's session, over
  the best of all, times ``SESSION_SHARE`` (0.8) of two first places (:func:`session_context`).
  The answer to a question often shares few of its words ("Why did Melanie choose the
  agency?" → Caroline's "they help LGBTQ+ folks build a family") while the turn that raised
  the topic shares many; both are in one session;
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
from services.rag_gate import period, standing
from services.rag_gate.gate import normalize
from services.rag_gate.when import TEMPORAL_BOOST

RRF_K = 60
FIRST = 1.0 / (RRF_K + 1)  # one list's first place
DENSE_SHARE = 0.7  # of a turn's relevance; the rest is its BM25 (fitted: see above)
# ... among long turns (median words of the candidates above LONG_TURN_WORDS), 0.9: the BM25
# of a long reply and the message before it matches incidental words, while the dense vector
# reads its first 256 tokens. Fitted on BEAM chats 1-5 (median 250-300 words a message; LoCoMo
# 20-30): R@10 0.536 at 0.7 → 0.579 at 0.9 (dense alone 0.581), offline over raw turns.
LONG_DENSE_SHARE = 0.9
LONG_TURN_WORDS = 100
# A turn's session context, in two first places for the session of the best turn
# (:func:`session_context`). Fitted on split A only (LoCoMo conv-26/30, BEAM chats 1-5;
# bench/recall/fit.py, offline over raw turns, with the turn cutoff's margin 0.7 and 64
# candidates): LoCoMo R@10 0.705 → 0.764, adversarial (category 5) 0.430 → 0.662, BEAM
# 0.564 → 0.600; 0.6 gives 0.766 / 0.641 / 0.596, 1.0 0.761 / 0.676 / 0.596.
SESSION_SHARE = 0.8


@dataclass(frozen=True, slots=True)
class TurnCandidate:
    id: str
    rrf: float  # the index's fused score
    similarity: float | None
    speaker: str | None
    session_id: str | None
    entity_ids: frozenset[str]
    lexical: bool = False  # kept by the lexical rule, not by its cosine
    bm25: float | None = None  # its BM25 score, when the index's lexical ranking held it
    words: int = 0  # its length
    dated: bool = False  # it says when (:func:`services.rag_gate.when.says_when`)
    standing: bool = False  # a standing instruction of the person's (:mod:`.standing`)
    in_period: bool = False  # said in the period the question names (:mod:`.period`)


@dataclass(frozen=True, slots=True)
class ScoredTurn:
    id: str
    score: float
    details: dict[str, float]


def names_key(name: str) -> str:
    return " ".join(normalize(name).split())


def relevance(candidates: Sequence[TurnCandidate]) -> list[float]:
    """Each candidate's relevance, in fused-rank units (two first places = ``2 · FIRST``): its
    cosine and BM25 each divided by the best among the candidates, weighted
    :func:`dense_share` and the rest; a missing BM25 counts 0. The index's RRF when the scores
    are not there (a backend that gives none, a query with no BM25 term, no cosine above 0)."""
    cosines = [max(0.0, c.similarity or 0.0) for c in candidates]
    bm25 = [max(0.0, c.bm25 or 0.0) for c in candidates]
    top_cosine, top_bm25 = max(cosines, default=0.0), max(bm25, default=0.0)
    if top_cosine <= 0 or top_bm25 <= 0:
        return [c.rrf for c in candidates]
    share = dense_share(c.words for c in candidates)
    return [
        2 * FIRST * (share * cos / top_cosine + (1 - share) * lex / top_bm25)
        for cos, lex in zip(cosines, bm25, strict=True)
    ]


def dense_share(lengths: Iterable[int]) -> float:
    """The dense vector's share of relevance: larger among long turns (see above)."""
    ordered = sorted(lengths)
    long = bool(ordered) and ordered[len(ordered) // 2] > LONG_TURN_WORDS
    return LONG_DENSE_SHARE if long else DENSE_SHARE


def session_context(candidates: Sequence[TurnCandidate], base: Sequence[float]) -> list[float]:
    """Each candidate's session context, in fused-rank units: the best relevance among its
    session's candidates over the best of all, times ``SESSION_SHARE · 2 · FIRST``. The
    session where the question's topic came up is where its answer is, even when the answering
    turn shares few of its words ("Why did she choose the agency?" → "Because they're
    inclusive"); a candidate with no session is a session of its own."""
    best_of: dict[str, float] = {}
    for c, b in zip(candidates, base, strict=True):
        key = c.session_id or c.id
        best_of[key] = max(b, best_of.get(key, 0.0))
    best = max(best_of.values(), default=0.0)
    if SESSION_SHARE <= 0 or best <= 0:
        return [0.0] * len(candidates)
    return [SESSION_SHARE * 2 * FIRST * best_of[c.session_id or c.id] / best for c in candidates]


def score_turns(
    candidates: Sequence[TurnCandidate],
    *,
    limits: TurnLimits,
    entity_ids: Iterable[str],
    entity_names: Iterable[str],
    session_ranks: Mapping[str, int],
    asks_when: bool = False,
    across: bool = False,
) -> list[ScoredTurn]:
    """The candidates re-scored and sorted, best first (ties: the index's order); for a
    question that asks when, a turn that says when is lifted (:mod:`.when`); for a question
    across sessions (:mod:`.across`), no turn gets session context."""
    ids = frozenset(entity_ids)
    names = frozenset(names_key(n) for n in entity_names if n and n.strip())
    scored = []
    bases = relevance(candidates)
    contexts = [0.0] * len(candidates) if across else session_context(candidates, bases)
    for order, (c, base, context) in enumerate(zip(candidates, bases, contexts, strict=True)):
        spoken = bool(c.speaker) and names_key(c.speaker or "") in names
        named = bool(ids & c.entity_ids)
        entity = limits.entity_boost * FIRST if (spoken or named) else 0.0
        rank = session_ranks.get(c.session_id or "")
        session = limits.session_boost / (RRF_K + rank) if rank else 0.0
        dated = TEMPORAL_BOOST * FIRST if asks_when and c.dated else 0.0
        rule = standing.lift(base) if c.standing else 0.0
        during = period.BOOST * FIRST if c.in_period else 0.0
        score = base + entity + session + dated + context + rule + during
        details = {
            "rrf": round(c.rrf, 6),
            "relevance": round(base, 6),
            "entity": round(entity, 6),
            "session": round(session, 6),
            "when": round(dated, 6),
            "session_context": round(context, 6),
            "standing": round(rule, 6),
            "period": round(during, 6),
            "fused": round(score, 6),
            "lexical": 1.0 if c.lexical else 0.0,
        }
        if rank:
            details["episode_rank"] = float(rank)
        if c.similarity is not None:
            details["similarity"] = round(c.similarity, 4)
        if c.bm25 is not None:
            details["bm25"] = round(c.bm25, 4)
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
