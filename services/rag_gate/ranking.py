"""Which hits survive and in what order. Pure: no I/O; time comes in as ``now``.

**Relative cutoff (003 §6.3).** A hit is kept when its cosine ``similarity > max(floor,
top1 - margin)``, top1 being the best cosine among the live candidates. 003's 0.65 / 0.12 are
OpenAI-embedding numbers; MiniLM's cosines sit lower and spread wider. On the labelled set of
``bench/rag_gate_cutoff.py`` (45 messages over 28 episodes) the episodes a human wanted score
min 0.23 / median 0.50 and the others median 0.17 / p95 0.34, and 0.65 / 0.12 keeps 13 % of
the wanted ones. The defaults, picked on that set's precision/recall grid (F1 flat within
±0.02 around them): episodes floor 0.35 / margin 0.15 (P 0.85, R 0.88), knowledge chunks
0.275 / 0.15 (P 0.80, R 0.92), facts 0.20 / 0.20 (short texts, cosines lower still; the
blended score orders the survivors; P 0.76, R 0.96). All are per-request overridable, and an
OpenAI embedder needs 003's values back.

**Lexical keep.** The search is hybrid (dense + BM25, fused by RRF), and a hit found for a rare
word ("Alfama", "almond cake", "rail pass") can have a low cosine. Such a hit is kept anyway
when it is among the first ``lexical_rank`` (3) by fused rank, has at least
``lexical_min_similarity`` (0.15) and shares with the query a *distinctive* term: a BM25 term
(stemmed, stopwords dropped) that no other candidate contains and that is not a gate cue word
("remember", "again", "feel"... say *that* memory is wanted, not *which*). Without the
distinctiveness test, "said" or "keep" let unrelated hits in (episode precision 0.85 → 0.63).

**Blended ranking (000).** ``blended = w_s·similarity + w_r·recency + w_f·frequency`` with
weights 0.4 / 0.3 / 0.3 (relative: divided by their sum), recency ``0.5 ** (age_days / 14)``
from the fact's ``updated_at``, and frequency = how many candidates share the fact's most
common entity key, divided by the largest such count in the set (the most discussed entity
scores 1). Ties break on similarity, then the index's rank.

Entity cards and the user's own entity: :mod:`services.rag_gate.cards`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from contracts.retrieve_limits import BlendWeights, Cutoff
from services.rag_gate.gate import normalize

_WORDS = re.compile(r"\w+")
SECONDS_PER_DAY = 86_400.0


@dataclass(frozen=True, slots=True)
class Candidate:
    """One hit whose row is live in Postgres: its fused rank (1 = best), the index's score
    (RRF), its cosine, and its text (or its BM25 terms) for the lexical keep."""

    id: str
    rank: int
    rrf: float
    similarity: float | None
    terms: frozenset[int] | None = None  # None: ``terms_of(text)`` when needed
    text: str = ""


@dataclass(frozen=True, slots=True)
class Kept:
    candidate: Candidate
    lexical: bool  # kept by the lexical rule, not by its cosine
    shared_terms: int  # distinctive query terms it shares (counted for lexical keeps)


def threshold(similarities: Iterable[float | None], floor: float, margin: float) -> float:
    """``max(floor, top1 - margin)``; just the floor when no hit has a cosine."""
    known = [s for s in similarities if s is not None]
    return max(floor, max(known) - margin) if known else floor


def apply_cutoff(
    candidates: Sequence[Candidate],
    params: Cutoff,
    *,
    query_terms: frozenset[int] = frozenset(),
    cue_terms: frozenset[int] = frozenset(),
    terms_of: Callable[[str], frozenset[int]] | None = None,
) -> tuple[list[Kept], float]:
    """The candidates that pass, in their given order, and the threshold they were held to.

    Texts are analysed (``terms_of``) only when some candidate failed the cosine test and is
    eligible for the lexical keep: most turns need no analysis at all."""
    bar = threshold((c.similarity for c in candidates), params.floor, params.margin)

    def cosine(c: Candidate) -> float:
        return c.similarity if c.similarity is not None else -1.0

    eligible = {
        c.id
        for c in candidates
        if cosine(c) <= bar
        and c.rank <= params.lexical_rank
        and cosine(c) >= params.lexical_min_similarity
    }
    wanted = query_terms - cue_terms
    distinctive: dict[str, int] = {}
    if eligible and wanted:
        shared = {
            c.id: (
                c.terms if c.terms is not None else terms_of(c.text) if terms_of else frozenset()
            )
            & wanted
            for c in candidates
        }
        df = Counter(t for terms in shared.values() for t in terms)
        distinctive = {cid: sum(1 for t in terms if df[t] == 1) for cid, terms in shared.items()}
    kept = []
    for c in candidates:
        if cosine(c) > bar:
            kept.append(Kept(c, lexical=False, shared_terms=0))
        elif c.id in eligible and distinctive.get(c.id):
            kept.append(Kept(c, lexical=True, shared_terms=distinctive[c.id]))
    return kept, bar


def cutoff_details(kept: Kept, bar: float) -> dict[str, float]:
    c = kept.candidate
    details = {
        "rrf": round(c.rrf, 6),
        "rank": float(c.rank),
        "threshold": round(bar, 4),
        "lexical": 1.0 if kept.lexical else 0.0,
    }
    if kept.lexical:
        details["shared_terms"] = float(kept.shared_terms)
    if c.similarity is not None:
        details["similarity"] = round(c.similarity, 4)
    return details


# --- blended ranking ---------------------------------------------------------------------------


def recency(updated_at: datetime, now: datetime, half_life_days: float) -> float:
    """1.0 now, 0.5 after one half-life; a future timestamp counts as now."""
    age_days = max(0.0, (now - updated_at).total_seconds() / SECONDS_PER_DAY)
    return float(0.5 ** (age_days / half_life_days))


def frequencies(keys: Sequence[Iterable[str]]) -> list[float]:
    """Per item: the count of its most shared entity key in the set, over the largest count."""
    sets = [frozenset(k) for k in keys]
    counts = Counter(key for item in sets for key in item)
    top = max(counts.values(), default=0)
    return [max((counts[k] for k in item), default=0) / top if top else 0.0 for item in sets]


def blend(
    similarity: float, recency_score: float, frequency: float, weights: BlendWeights
) -> float:
    total = weights.similarity + weights.recency + weights.frequency
    s = min(1.0, max(0.0, similarity))
    return (
        weights.similarity * s + weights.recency * recency_score + weights.frequency * frequency
    ) / total


@dataclass(frozen=True, slots=True)
class Ranked:
    id: str
    text: str
    score: float
    details: dict[str, float]


def rank_facts(
    facts: Sequence[tuple[Kept, str, datetime, Iterable[str]]],
    *,
    now: datetime,
    half_life_days: float,
    weights: BlendWeights,
    limit: int,
) -> tuple[list[Ranked], int]:
    """``(kept hit, text, updated_at, entity keys)`` → the best ``limit`` by blended score,
    duplicates (same normalized text) dropped; also how many duplicates were dropped."""
    freq = frequencies([keys for _, _, _, keys in facts])
    scored = []
    for (kept, text, updated_at, _), f in zip(facts, freq, strict=True):
        c = kept.candidate
        sim = c.similarity if c.similarity is not None else 0.0
        rec = recency(updated_at, now, half_life_days)
        score = blend(sim, rec, f, weights)
        details = {
            "similarity": round(sim, 4),
            "recency": round(rec, 4),
            "frequency": round(f, 4),
            "blended": round(score, 4),
            "rrf": round(c.rrf, 6),
            "rank": float(c.rank),
            "lexical": 1.0 if kept.lexical else 0.0,
        }
        scored.append((score, sim, -c.rank, Ranked(c.id, text, score, details)))
    scored.sort(key=lambda item: item[:3], reverse=True)
    out: list[Ranked] = []
    seen: set[str] = set()
    duplicates = 0
    for *_, item in scored:
        key = dedupe_key(item.text)
        if key in seen:
            duplicates += 1
            continue
        seen.add(key)
        out.append(item)
    return out[:limit], duplicates


def dedupe_key(text: str) -> str:
    """Text as compared for duplicates: normalized, words only ("Call Márta!" = "call marta")."""
    return " ".join(_WORDS.findall(normalize(text)))


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending with "…" when cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
