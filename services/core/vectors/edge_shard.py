"""How a Qdrant Edge shard is configured and how the layout's filters become Edge filters.

Shared by the index (:mod:`services.core.vectors.edge`) and the float16 converter
(:mod:`services.core.vectors.edge_f16`), so both open a shard the same way.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import qdrant_edge as qe

from services.core.vectors import filters
from services.core.vectors.layout import (
    BOOL_FIELDS,
    DENSE,
    KEYWORD_FIELDS,
    SPARSE,
    TENANT_FIELD,
    prefetch_limit,
)

# One search thread per shard: every search is one user's exact scan of a few hundred points,
# which a pool of per-segment threads (one per CPU by default) only hands back and forth; on two
# cores that handoff costs CPU and wall time while the caller holds the GIL.
SEARCH_THREADS = 1

EdgeCondition = (
    qe.FieldCondition
    | qe.IsEmptyCondition
    | qe.IsNullCondition
    | qe.HasIdCondition
    | qe.HasVectorCondition
    | qe.NestedCondition
    | qe.Filter
)
IndexSchema = qe.KeywordIndexParams | qe.BoolIndexParams


def shard_config(dim: int, datatype: str, *, compacting: bool = False) -> qe.EdgeConfig:
    """A collection's Edge config; ``datatype`` ('float32' | 'float16') of the dense vectors.

    Serving never indexes (``indexing_threshold=0``): every search is one user's exact scan,
    and building an index would stall the process. ``compacting`` (for :mod:`.edge_compact`,
    offline) lets the optimizer turn the appendable segment into an immutable one, with no
    HNSW graph (``m=0``), whose sparse index and payload indexes are memory-mapped files
    instead of the heap.
    """
    storage = qe.VectorStorageDatatype.Float16 if datatype == "float16" else None
    no_graph = qe.HnswIndexConfig(m=0, ef_construct=100, full_scan_threshold=10_000, payload_m=0)
    return qe.EdgeConfig(
        vectors={
            DENSE: qe.EdgeVectorParams(size=dim, distance=qe.Distance.Cosine, datatype=storage)
        },
        sparse_vectors={
            SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf, memory=qe.Memory.Cached)
        },
        hnsw_config=no_graph,
        optimizers=qe.EdgeOptimizersConfig(indexing_threshold=1 if compacting else 0),
        max_search_threads=SEARCH_THREADS,
    )


def payload_indexes() -> list[tuple[str, IndexSchema]]:
    """The layout's payload indexes, kept on disk (memory-mapped) rather than on the heap."""
    on_disk = qe.Memory.Cached
    indexes: list[tuple[str, IndexSchema]] = [
        (TENANT_FIELD, qe.KeywordIndexParams(is_tenant=True, memory=on_disk))
    ]
    indexes += [(name, qe.KeywordIndexParams(memory=on_disk)) for name in KEYWORD_FIELDS]
    indexes += [(name, qe.BoolIndexParams(memory=on_disk)) for name in BOOL_FIELDS]
    return indexes


def ensure_payload_indexes(shard: qe.EdgeShard, *, rebuild: bool = False) -> None:
    """Create any of the layout's payload indexes the shard lacks (``rebuild``: all of them
    anew, e.g. to move indexes made on the heap before to disk)."""
    present = shard.info().payload_schema
    for name, schema in payload_indexes():
        if name in present and rebuild:
            shard.update(qe.UpdateOperation.delete_field_index(name))
        if name not in present or rebuild:
            shard.update(qe.UpdateOperation.create_field_index(name, schema))


def stored_datatype(config_file: Path) -> str:
    """The dense vectors' storage of an existing shard, from its ``edge_config.json``."""
    dense = json.loads(config_file.read_text()).get("vectors", {}).get(DENSE, {})
    return str(dense.get("datatype") or "float32").lower()


@functools.lru_cache(maxsize=1024)
def to_filter(condition: filters.AllOf) -> qe.Filter:
    """The Edge filter; remembered, since a turn's searches ask for the same few (a search
    builds two: its own and its user's, for BM25's IDF)."""
    return qe.Filter(must=[_condition(c) for c in condition.conditions])


def _condition(c: filters.Condition) -> EdgeCondition:
    match c:
        case filters.Eq(key, value):
            return qe.FieldCondition(key, match=qe.MatchValue(value))
        case filters.AnyOf(key, _) as any_of:
            return qe.FieldCondition(key, match=qe.MatchAny(any_of.listed()))
        case filters.HasIds(ids):
            return qe.HasIdCondition(set(ids))
        case filters.AllOf(conditions):
            return qe.Filter(must=[_condition(x) for x in conditions])
        case filters.OneOf(conditions):
            return qe.Filter(should=[_condition(x) for x in conditions])
    raise TypeError(f"not a filter condition: {c!r}")


def hybrid_batch(
    dense: list[float],
    sparse: qe.SparseVector,
    where: qe.Filter,
    limit: int,
    user_idf: qe.SearchParams,
) -> qe.QueryBatchRequest:
    """One batch for a hybrid search: the dense ranking, the lexical ranking (IDF over the
    user's points), and the dense cosines of the lexical points."""
    wide = prefetch_limit(limit)
    dense_query = qe.Query.Nearest(dense, using=DENSE)
    sparse_query = qe.Query.Nearest(sparse, using=SPARSE)
    lexical = qe.Prefetch(wide, query=sparse_query, filter=where, params=user_idf)
    return qe.QueryBatchRequest(
        [
            qe.QueryRequest(limit=wide, query=dense_query, filter=where, with_payload=False),
            qe.QueryRequest(
                limit=wide, query=sparse_query, filter=where, params=user_idf, with_payload=False
            ),
            qe.QueryRequest(
                limit=wide, prefetches=[lexical], query=dense_query, with_payload=False
            ),
        ]
    )
