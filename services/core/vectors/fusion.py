"""Reciprocal-rank fusion of a hybrid search's two rankings, done here instead of in the engine,
so that one engine call yields both each hit's fused score and its cosine.

The engine answers three rankings in one batch, each over the same filtered points: ``dense``
(the top points by cosine), ``lexical`` (the top points by BM25) and ``lexical_cosines`` (the
lexical ranking's points again, scored by cosine). A point's dense rank is where its cosine
falls in the dense ranking, so the lexical points are placed there by their cosine and only the
few ids near that place are compared. Reading a point's id is what costs (Qdrant Edge builds a
Python ``uuid.UUID`` for each, dearer than scoring the point), so ids are read only for those
comparisons and for the hits returned: about as many as one engine query of ``limit`` hits.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from services.core.vectors.layout import RRF_K

# Two computations of one cosine agree to the last bit in practice; a window this wide only
# costs a few more id reads when several points share a cosine (the same text twice).
_SAME_COSINE = 1e-6
_CLEARLY_BELOW = 1e-3


@dataclass(frozen=True, slots=True)
class Fused:
    """One hit of a fused search: the engine's point id, its RRF score, its cosine (None only
    when the engine gave none for a lexical point: the caller asks for it), and its BM25 score
    (None when the lexical ranking did not hold it)."""

    id: Any
    score: float
    similarity: float | None
    lexical: float | None = None


def fuse(
    dense: Sequence[Any],
    lexical: Sequence[Any],
    lexical_cosines: Sequence[Any],
    limit: int,
    dense_head: int = 0,
) -> list[Fused]:
    """The best ``limit`` points by RRF, as Qdrant computes it: each ranking adds
    ``1 / (RRF_K + rank)``, rank from 0. Equal scores go to the higher cosine, then the better
    rank (Qdrant leaves that order to chance). Points are the engine's scored points (``id``,
    ``score``), each ranking best first.

    ``dense_head``: the dense ranking's first points are among them whatever their RRF (they
    take the places of the last by RRF). Where most points share a word with the query (long
    messages), a point at dense ranks and lexical ranks of ~60 outscores the nearest point by
    cosine that shares no word, and RRF's first 64 left it out."""
    cosines = [p.score for p in dense]
    descending = [-c for c in cosines]
    ids: dict[int, Any] = {}  # dense rank -> id, read once

    def dense_id(rank: int) -> Any:
        if rank not in ids:
            ids[rank] = dense[rank].id
        return ids[rank]

    lexical_cosine = {p.id: p.score for p in lexical_cosines}
    bonus: dict[int, float] = {}  # dense rank -> the lexical ranking's share
    bm25: dict[int, float] = {}  # dense rank -> its BM25 score
    alone: list[tuple[float, float, int, Any]] = []  # lexical-only points
    for rank, p in enumerate(lexical):
        point_id = p.id
        cosine = lexical_cosine.get(point_id)
        at = _dense_rank(point_id, cosine, descending, dense_id)
        if at is not None:
            bonus[at] = 1.0 / (RRF_K + rank)
            bm25[at] = p.score
        else:
            alone.append((1.0 / (RRF_K + rank), cosine if cosine is not None else -2.0, rank, p))
    candidates = [
        (-(1.0 / (RRF_K + r) + bonus.get(r, 0.0)), -c, r, 0, None) for r, c in enumerate(cosines)
    ]
    candidates += [(-score, -cosine, rank, 1, p) for score, cosine, rank, p in alone]
    best = _with_head(heapq.nsmallest(limit, candidates), candidates, limit, dense_head)
    return [
        Fused(dense_id(rank), -neg_score, cosines[rank], bm25.get(rank))
        if point is None
        else Fused(point.id, -neg_score, lexical_cosine.get(point.id), point.score)
        for neg_score, _, rank, _, point in best
    ]


_Candidate = tuple[float, float, int, int, Any]


def _with_head(
    best: list[_Candidate], candidates: list[_Candidate], limit: int, head: int
) -> list[_Candidate]:
    """``best`` with the dense ranking's first ``head`` points in it, RRF order kept."""
    missing = [c for c in candidates[: min(head, limit)] if c not in best]  # dense ranks first
    if not missing:
        return best
    kept = best[: max(0, limit - len(missing))]
    return sorted(kept + missing)


def _dense_rank(
    point_id: Any, cosine: float | None, descending: list[float], dense_id: Any
) -> int | None:
    """Where the dense ranking holds this point, or None when it does not."""
    everywhere = range(len(descending))
    if cosine is not None:
        low = bisect.bisect_left(descending, -cosine - _SAME_COSINE)
        high = bisect.bisect_right(descending, -cosine + _SAME_COSINE)
        for rank in range(low, high):
            if dense_id(rank) == point_id:
                return rank
        if not descending or -descending[-1] > cosine + _CLEARLY_BELOW:
            return None  # below every dense point's cosine: not in the dense ranking
    # No cosine to place it by, or one the dense ranking's scores did not reproduce exactly
    # (never seen): compare with every id rather than risk returning the point twice.
    for rank in everywhere:
        if dense_id(rank) == point_id:
            return rank
    return None
