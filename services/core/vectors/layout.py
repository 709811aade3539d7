"""How a point is laid out in either form of Qdrant, so both behave the same.

- two named vectors: ``dense`` (cosine) and ``bm25`` (sparse, IDF modifier on the collection);
- the BM25 vector is computed client-side by Qdrant Edge's ``Bm25`` encoder (pure, in-process,
  deterministic token hashing), for Edge and server alike; documents get saturated term
  frequencies, queries one weight per unique token, and the engine applies IDF at query time,
  over the querying user's own points;
- the payload as given, plus ``_active``: a keyword mirror of ``active``. Edge's keyword index
  answers a user-filtered search about 3x faster than its bool index, so filters use the
  mirror; the bool field stays (and stays indexed) for anyone filtering on it directly.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import qdrant_edge

from services.core.vectors.port import VectorHit, VectorPoint

if TYPE_CHECKING:
    from services.core.vectors.fusion import Fused

DENSE = "dense"
SPARSE = "bm25"
ACTIVE_KEY = "_active"
INTERNAL_KEYS = frozenset({ACTIVE_KEY})
RRF_K = 60
MIN_PREFETCH = 32

# Keyword payload indexes (user_id marks the tenant), then the bool one. ``memory_type``
# (facts) lets a search leave out the kinds of fact its caller may not return (PSYCHE) inside
# the query, instead of spending candidate slots on them.
TENANT_FIELD = "user_id"
KEYWORD_FIELDS: tuple[str, ...] = (
    "agent_id",
    "scope",
    "entity_ids",
    ACTIVE_KEY,
    "memory_type",
    "standing",
    "session_id",  # messages: rag-gate's search among the sessions of a named period
)
BOOL_FIELDS: tuple[str, ...] = ("active",)


def active_mark(active: bool) -> str:
    return "true" if active else "false"


def stored_payload(point: VectorPoint) -> dict[str, Any]:
    payload = dict(point.payload)
    payload[ACTIVE_KEY] = active_mark(point.payload["active"])
    return payload


def public_payload(stored: Mapping[str, Any] | None) -> dict[str, Any]:
    return {k: v for k, v in (stored or {}).items() if k not in INTERNAL_KEYS}


def prefetch_limit(limit: int) -> int:
    return max(4 * limit, MIN_PREFETCH)


class SparseEncoder:
    """BM25 sparse vectors from text; a text without terms gives an empty vector.

    English tokenization, stemming and stopwords, lower-cased and accent-folded ("Márta"
    matches "marta"). The same text always gives the same vector, in any process.
    """

    def __init__(self) -> None:
        self._bm25 = qdrant_edge.Bm25(qdrant_edge.Bm25Config(ascii_folding=True))
        # A turn searches every collection with the same text: encode it once.
        self._query = functools.lru_cache(maxsize=256)(self._bm25.embed_query)

    def document(self, text: str) -> qdrant_edge.SparseVector:
        return self._bm25.embed_document(text or "")

    def query(self, text: str) -> qdrant_edge.SparseVector:
        return self._query(text or "")


def dense_list(vector: Sequence[float], dim: int) -> list[float]:
    """The vector as a list of floats; ``ValueError`` unless it has ``dim`` finite values."""
    if isinstance(vector, np.ndarray):
        values = vector.astype(np.float64).ravel().tolist()
    else:
        values = [float(x) for x in vector]
    if len(values) != dim:
        raise ValueError(f"dense vector has {len(values)} values, the index expects {dim}")
    if not math.isfinite(math.fsum(values)):  # a NaN or infinity anywhere makes the sum one
        raise ValueError("dense vector has a NaN or infinite value")
    return values


def cosines(query: Sequence[float], stored: Sequence[Sequence[float] | None]) -> list[float | None]:
    """Cosine between the query and each stored vector (None where a point has none)."""
    q = np.asarray(query, dtype=np.float64)
    q_norm = float(np.linalg.norm(q))
    present = [i for i, v in enumerate(stored) if v is not None]
    out: list[float | None] = [None] * len(stored)
    if not present or q_norm == 0.0:
        return out
    matrix = np.asarray([stored[i] for i in present], dtype=np.float64)
    norms = np.linalg.norm(matrix, axis=1)
    dots = matrix @ q
    for i, dot, norm in zip(present, dots.tolist(), norms.tolist(), strict=True):
        out[i] = dot / (q_norm * norm) if norm else None
    return out


def check_limit(limit: int) -> int:
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise ValueError(f"limit must be a positive integer, got {limit!r}")
    return limit


def query_vectors(
    dense: Sequence[float] | None, text: str | None, dim: int, encoder: SparseEncoder
) -> tuple[list[float] | None, qdrant_edge.SparseVector | None]:
    """The dense and sparse halves of a query; a half is None when the query lacks it (a text
    of stopwords only has no sparse half). ``ValueError`` when neither was asked for."""
    if dense is None and text is None:
        raise ValueError("search needs a dense vector, a text, or both")
    dense_query = dense_list(dense, dim) if dense is not None else None
    sparse_query = encoder.query(text) if text else None
    if sparse_query is not None and not sparse_query.indices:
        sparse_query = None
    return dense_query, sparse_query


def fused_hits(fused: Sequence[Fused], details: Sequence[Any]) -> list[VectorHit]:
    """The fused hits, in order; ``details`` (the same points scored by cosine, with their
    payloads when asked for) gives each hit its payload and the cosines the fusion lacked."""
    by_id = {p.id: p for p in details}
    hits = []
    for f in fused:
        detail = by_id.get(f.id)
        similarity = f.similarity
        if similarity is None and detail is not None:
            similarity = detail.score
        payload = public_payload(detail.payload) if detail is not None else {}
        hits.append(
            VectorHit(
                id=str(f.id),
                score=f.score,
                payload=payload,
                similarity=similarity,
                lexical=f.lexical,
            )
        )
    return hits


def to_hits(
    found: Sequence[Any],
    similarities: Mapping[str, float] | None = None,
    *,
    score_is_similarity: bool = False,
) -> list[VectorHit]:
    """Hits from either engine's scored points, with the cosine per id when it is known."""
    hits = []
    for p in found:
        point_id = str(p.id)
        similarity = p.score if score_is_similarity else (similarities or {}).get(point_id)
        hits.append(
            VectorHit(
                id=point_id, score=p.score, payload=public_payload(p.payload), similarity=similarity
            )
        )
    return hits
