"""How a Qdrant Edge shard is configured and how the layout's filters become Edge filters.

Shared by the index (:mod:`services.core.vectors.edge`) and the float16 converter
(:mod:`services.core.vectors.edge_f16`), so both open a shard the same way.
"""

from __future__ import annotations

import json
from pathlib import Path

import qdrant_edge as qe

from services.core.vectors import filters
from services.core.vectors.layout import BOOL_FIELDS, DENSE, KEYWORD_FIELDS, SPARSE, TENANT_FIELD

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
IndexSchema = qe.PayloadSchemaType | qe.KeywordIndexParams


def shard_config(dim: int, datatype: str) -> qe.EdgeConfig:
    """A collection's Edge config; ``datatype`` ('float32' | 'float16') of the dense vectors."""
    storage = qe.VectorStorageDatatype.Float16 if datatype == "float16" else None
    return qe.EdgeConfig(
        vectors={
            DENSE: qe.EdgeVectorParams(size=dim, distance=qe.Distance.Cosine, datatype=storage)
        },
        sparse_vectors={SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
        optimizers=qe.EdgeOptimizersConfig(indexing_threshold=0),
        max_search_threads=SEARCH_THREADS,
    )


def ensure_payload_indexes(shard: qe.EdgeShard) -> None:
    """Create any of the layout's payload indexes the shard lacks."""
    indexes: list[tuple[str, IndexSchema]] = [(TENANT_FIELD, qe.KeywordIndexParams(is_tenant=True))]
    indexes += [(name, qe.PayloadSchemaType.Keyword) for name in KEYWORD_FIELDS]
    indexes += [(name, qe.PayloadSchemaType.Bool) for name in BOOL_FIELDS]
    present = shard.info().payload_schema
    for name, schema in indexes:
        if name not in present:
            shard.update(qe.UpdateOperation.create_field_index(name, schema))


def stored_datatype(config_file: Path) -> str:
    """The dense vectors' storage of an existing shard, from its ``edge_config.json``."""
    dense = json.loads(config_file.read_text()).get("vectors", {}).get(DENSE, {})
    return str(dense.get("datatype") or "float32").lower()


def to_filter(condition: filters.AllOf) -> qe.Filter:
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
