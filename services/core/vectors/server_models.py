"""How the layout (``layout``, ``filters``) is spelled in qdrant-client's models, for
:mod:`services.core.vectors.server`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import qdrant_edge
from qdrant_client import models
from qdrant_client.http.exceptions import ApiException

from services.core.vectors import filters
from services.core.vectors.layout import (
    BOOL_FIELDS,
    DENSE,
    KEYWORD_FIELDS,
    SPARSE,
    TENANT_FIELD,
    prefetch_limit,
)
from services.core.vectors.port import VectorIndexUnavailable

_FAULTS = (ApiException, httpx.HTTPError, OSError, TimeoutError)


@contextmanager
def faults(doing: str) -> Iterator[None]:
    """Transport faults and error answers become :class:`VectorIndexUnavailable`."""
    try:
        yield
    except _FAULTS as exc:
        raise VectorIndexUnavailable(f"Qdrant server, {doing}: {exc}") from exc


def payload_indexes() -> list[tuple[str, Any]]:
    indexes: list[tuple[str, Any]] = [
        (
            TENANT_FIELD,
            models.KeywordIndexParams(type=models.KeywordIndexType.KEYWORD, is_tenant=True),
        )
    ]
    indexes += [(name, models.PayloadSchemaType.KEYWORD) for name in KEYWORD_FIELDS]
    indexes += [(name, models.PayloadSchemaType.BOOL) for name in BOOL_FIELDS]
    return indexes


def dense_size(info: models.CollectionInfo) -> int | None:
    vectors = info.config.params.vectors
    params = vectors.get(DENSE) if isinstance(vectors, dict) else None
    return params.size if params is not None else None


def sparse_model(vector: qdrant_edge.SparseVector) -> models.SparseVector:
    return models.SparseVector(indices=list(vector.indices), values=list(vector.values))


def point_vectors(dense: list[float], lexical: qdrant_edge.SparseVector) -> dict[str, Any]:
    named: dict[str, Any] = {DENSE: dense}
    if lexical.indices:
        named[SPARSE] = sparse_model(lexical)
    return named


def to_filter(condition: filters.AllOf) -> models.Filter:
    return models.Filter(must=[_condition(c) for c in condition.conditions])


def _condition(c: filters.Condition) -> Any:
    match c:
        case filters.Eq(key, value):
            return models.FieldCondition(key=key, match=models.MatchValue(value=value))
        case filters.AnyOf(key, _) as any_of:
            return models.FieldCondition(key=key, match=models.MatchAny(any=any_of.listed()))
        case filters.HasIds(ids):
            return models.HasIdCondition(has_id=list(ids))
        case filters.AllOf(conditions):
            return models.Filter(must=[_condition(x) for x in conditions])
        case filters.OneOf(conditions):
            return models.Filter(should=[_condition(x) for x in conditions])
    raise TypeError(f"not a filter condition: {c!r}")


def hybrid_requests(
    dense: list[float],
    sparse: models.SparseVector,
    where: models.Filter,
    limit: int,
    user_idf: models.SearchParams,
) -> list[models.QueryRequest]:
    """One batch for a hybrid search: the dense ranking, the lexical ranking (IDF over the
    user's points), and the dense cosines of the lexical points."""
    wide = prefetch_limit(limit)
    lexical = models.Prefetch(query=sparse, using=SPARSE, filter=where, limit=wide, params=user_idf)
    return [
        models.QueryRequest(query=dense, using=DENSE, filter=where, limit=wide, with_payload=False),
        models.QueryRequest(
            query=sparse,
            using=SPARSE,
            filter=where,
            limit=wide,
            params=user_idf,
            with_payload=False,
        ),
        models.QueryRequest(
            prefetch=[lexical], query=dense, using=DENSE, limit=wide, with_payload=False
        ),
    ]
