"""Qdrant Edge: the engine embedded in this process, one shard directory per collection.

``{path}/episodes``, ``{path}/knowledge`` and ``{path}/facts`` are opened (or created) on first
use and kept open until :meth:`EdgeVectorIndex.close`. A shard belongs to one process: opening
a path another index holds raises :class:`VectorIndexUnavailable`. Writes go through the
shard's write-ahead log, so an upsert that returned survives the process dying without
``close`` (the log replays on the next open); ``close`` flushes segments.

Edge calls take well under a millisecond and hold the GIL, so they run inline under one lock.
HNSW building is switched off: every search is filtered to one user, and a user's points are
scanned exactly through the ``user_id`` payload index (about 1 ms for a scoped hybrid search
over 20k points on 2 cores), while building HNSW would stall the whole process for seconds
(15 s at 20k points) whenever the optimizer ran.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import qdrant_edge as qe

from services.core.vectors import filters
from services.core.vectors.layout import (
    ACTIVE_KEY,
    BOOL_FIELDS,
    DENSE,
    KEYWORD_FIELDS,
    RRF_K,
    SPARSE,
    TENANT_FIELD,
    SparseEncoder,
    active_mark,
    check_limit,
    dense_list,
    prefetch_limit,
    query_vectors,
    stored_payload,
    to_hits,
)
from services.core.vectors.port import (
    COLLECTIONS,
    PayloadValue,
    VectorHit,
    VectorIndexUnavailable,
    VectorPoint,
    check_collection,
)

# New shards keep dense vectors as float16: half the memory (~64 MiB less per 100k points of
# 384 dims), cosines within ~1e-3 of float32, the same search latency. Shards made before keep
# float32 until ``python -m services.core.vectors.edge_f16 <path>`` converts them.
NEW_SHARD_DATATYPE = "float16"


class EdgeVectorIndex:
    """The vector index port over Qdrant Edge shards under ``path``."""

    def __init__(self, path: str | Path, *, dim: int) -> None:
        self._root = Path(path)
        self._dim = dim
        self._shards: dict[str, qe.EdgeShard] = {}
        self._lock = threading.Lock()
        self._closed = False
        self._sparse = SparseEncoder()

    async def ensure_collections(self) -> None:
        for collection in COLLECTIONS:
            with self._engine(collection):
                pass

    async def upsert(self, collection: str, points: Sequence[VectorPoint]) -> None:
        check_collection(collection)
        if not points:
            return
        records = [
            qe.Point(
                p.id,
                {DENSE: dense_list(p.dense, self._dim), SPARSE: self._sparse.document(p.text)},
                stored_payload(p),
            )
            for p in points
        ]
        with self._engine(collection) as shard:
            shard.update(qe.UpdateOperation.upsert_points(records))

    async def search(
        self,
        collection: str,
        *,
        user_id: str,
        dense: Sequence[float] | None = None,
        text: str | None = None,
        agent_id: str | None = None,
        agent_only: bool = False,
        with_shared: bool = False,
        entity_ids: Sequence[str] | None = None,
        include_inactive: bool = False,
        limit: int = 8,
        extra_must: Mapping[str, PayloadValue] | None = None,
        payload: Sequence[str] | None = None,
    ) -> list[VectorHit]:
        check_collection(collection)
        check_limit(limit)
        where = _filter(
            filters.visible(
                user_id=user_id,
                agent_id=agent_id,
                agent_only=agent_only,
                with_shared=with_shared,
                entity_ids=entity_ids,
                include_inactive=include_inactive,
                extra_must=extra_must,
            )
        )
        dense_q, sparse_q = query_vectors(dense, text, self._dim, self._sparse)
        if dense_q is None and sparse_q is None:
            return []
        user_idf = qe.SearchParams(
            idf=qe.IdfParams(corpus=_filter(filters.user_only(user_id, with_shared=with_shared)))
        )
        with_payload = _payload_selector(payload)
        if dense_q is not None and sparse_q is not None:
            wide = prefetch_limit(limit)
            request = qe.QueryRequest(
                limit=limit,
                prefetches=[
                    qe.Prefetch(wide, query=qe.Query.Nearest(dense_q, using=DENSE), filter=where),
                    qe.Prefetch(
                        wide,
                        query=qe.Query.Nearest(sparse_q, using=SPARSE),
                        filter=where,
                        params=user_idf,
                    ),
                ],
                query=qe.Fusion.Rrf(k=RRF_K),
                filter=where,
                with_payload=with_payload,
            )
        elif dense_q is not None:
            request = qe.QueryRequest(
                limit=limit,
                query=qe.Query.Nearest(dense_q, using=DENSE),
                filter=where,
                with_payload=with_payload,
            )
        else:
            request = qe.QueryRequest(
                limit=limit,
                query=qe.Query.Nearest(sparse_q, using=SPARSE),
                filter=where,
                params=user_idf,
                with_payload=with_payload,
            )
        with self._engine(collection) as shard:
            found = shard.query(request)
            if dense_q is None or sparse_q is None or not found:
                cosine = None
            else:  # fused scores are ranks: the engine gives the hits' cosines cheaper than
                # their vectors would cost to ship into Python. The ids came from this user's
                # filtered query, so the id condition alone keeps to the user's points (and
                # skips a second pass through the user index: ~0.1 ms a search).
                cosine = shard.query(
                    qe.QueryRequest(
                        limit=len(found),
                        query=qe.Query.Nearest(dense_q, using=DENSE),
                        filter=qe.Filter(must=[qe.HasIdCondition({p.id for p in found})]),
                    )
                )
        if cosine is None:
            return to_hits(found, score_is_similarity=dense_q is not None)
        return to_hits(found, {str(p.id): p.score for p in cosine})

    async def set_active(
        self, collection: str, *, user_id: str, ids: Sequence[str], active: bool
    ) -> int:
        check_collection(collection)
        where = _filter(filters.owned(user_id=user_id, ids=ids))
        if not ids:  # checked after the filter, so a bad user_id or id still raises
            return 0
        with self._engine(collection) as shard:
            matched = shard.count(qe.CountRequest(exact=True, filter=where))
            if matched:
                shard.update(
                    qe.UpdateOperation.set_payload_by_filter(
                        where, {"active": active, ACTIVE_KEY: active_mark(active)}
                    )
                )
        return matched

    async def delete(
        self,
        collection: str,
        *,
        user_id: str,
        ids: Sequence[str] | None = None,
        agent_id: str | None = None,
    ) -> int:
        check_collection(collection)
        where = _filter(filters.owned(user_id=user_id, ids=ids, agent_id=agent_id))
        if ids is not None and not ids:
            return 0
        with self._engine(collection) as shard:
            matched = shard.count(qe.CountRequest(exact=True, filter=where))
            if matched:
                shard.update(qe.UpdateOperation.delete_points_by_filter(where))
        return matched

    async def count(self, collection: str, *, user_id: str) -> int:
        check_collection(collection)
        where = _filter(filters.user_only(user_id))
        with self._engine(collection) as shard:
            return shard.count(qe.CountRequest(exact=True, filter=where))

    async def optimize(self) -> None:
        for collection in COLLECTIONS:
            with self._engine(collection) as shard:
                shard.optimize()

    async def ping(self) -> None:
        for collection in COLLECTIONS:
            with self._engine(collection) as shard:
                shard.info()

    async def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            shards, self._shards = self._shards, {}
        failures = []
        for collection, shard in shards.items():
            try:
                shard.flush()
                shard.close()
            except Exception as exc:  # noqa: BLE001 - close the others, then report
                failures.append(f"{collection}: {exc}")
        if failures:
            raise VectorIndexUnavailable("closing Edge shards failed: " + "; ".join(failures))

    @contextmanager
    def _engine(self, collection: str) -> Iterator[qe.EdgeShard]:
        """The collection's open shard, under the lock; engine errors become unavailability."""
        with self._lock:
            if self._closed:
                raise VectorIndexUnavailable("the Edge vector index is closed")
            try:
                yield self._shards.get(collection) or self._open(collection)
            except VectorIndexUnavailable:
                raise
            except Exception as exc:  # Edge raises bare Exception for every engine fault
                raise VectorIndexUnavailable(f"Qdrant Edge ({collection}): {exc}") from exc

    def _open(self, collection: str) -> qe.EdgeShard:
        where = self._root / collection
        stored = where / "edge_config.json"
        if stored.exists():  # a shard keeps the storage it was made with (edge_f16 converts)
            shard = qe.EdgeShard.load(str(where), shard_config(self._dim, stored_datatype(stored)))
        else:
            shard = qe.EdgeShard.create(str(where), shard_config(self._dim, NEW_SHARD_DATATYPE))
        try:
            ensure_payload_indexes(shard)
        except Exception:
            shard.close()  # release the shard's lock before reporting
            raise
        self._shards[collection] = shard
        return shard


def shard_config(dim: int, datatype: str) -> qe.EdgeConfig:
    """A collection's Edge config; ``datatype`` ('float32' | 'float16') of the dense vectors."""
    storage = qe.VectorStorageDatatype.Float16 if datatype == "float16" else None
    return qe.EdgeConfig(
        vectors={
            DENSE: qe.EdgeVectorParams(size=dim, distance=qe.Distance.Cosine, datatype=storage)
        },
        sparse_vectors={SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
        optimizers=qe.EdgeOptimizersConfig(indexing_threshold=0),
    )


def ensure_payload_indexes(shard: qe.EdgeShard) -> None:
    """Create any of the layout's payload indexes the shard lacks."""
    indexes: list[tuple[str, object]] = [(TENANT_FIELD, qe.KeywordIndexParams(is_tenant=True))]
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


def _payload_selector(keys: Sequence[str] | None) -> bool | list[str]:
    """Every key (None), none (empty), or just these; the public keys never include ours."""
    if keys is None:
        return True
    return [str(k) for k in keys] if keys else False


def _filter(condition: filters.AllOf) -> qe.Filter:
    return qe.Filter(must=[_condition(c) for c in condition.conditions])


def _condition(c: filters.Condition) -> object:
    match c:
        case filters.Eq(key, value):
            return qe.FieldCondition(key, match=qe.MatchValue(value))
        case filters.AnyOf(key, values):
            return qe.FieldCondition(key, match=qe.MatchAny(list(values)))
        case filters.HasIds(ids):
            return qe.HasIdCondition(set(ids))
        case filters.AllOf(conditions):
            return qe.Filter(must=[_condition(x) for x in conditions])
        case filters.OneOf(conditions):
            return qe.Filter(should=[_condition(x) for x in conditions])
    raise TypeError(f"not a filter condition: {c!r}")
