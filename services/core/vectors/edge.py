"""Qdrant Edge: the engine embedded in this process, one shard directory per collection.

``{path}/episodes``, ``{path}/knowledge`` and ``{path}/facts`` are opened (or created) on first
use and kept open until :meth:`EdgeVectorIndex.close`. A shard belongs to one process: opening
a path another index holds raises :class:`VectorIndexUnavailable`. Writes go through the
shard's write-ahead log, so an upsert that returned survives the process dying without
``close`` (the log replays on the next open); ``close`` flushes segments.

Edge calls take well under a millisecond and hold the GIL, so they run inline under one lock:
handing them to a thread frees the event loop for nothing (the GIL stays held) and costs a
thread hop per call (bench/RESULTS.md, issue 16). A hybrid search is one engine call (three
rankings in one batch, fused by :mod:`.fusion`); a payload asked for takes a second one.
HNSW building is switched off: every search is filtered to one user, and a user's points are
scanned exactly through the ``user_id`` payload index (about 1 ms for a scoped hybrid search
over 20k points on 2 cores), while building HNSW would stall the whole process for seconds
(15 s at 20k points) whenever the optimizer ran.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import qdrant_edge as qe

from services.core.vectors import edge_rewrite, filters
from services.core.vectors.edge_shard import (
    ensure_payload_indexes,
    hybrid_batch,
    shard_config,
    stored_datatype,
    to_filter,
)
from services.core.vectors.fusion import fuse
from services.core.vectors.layout import (
    ACTIVE_KEY,
    DENSE,
    SPARSE,
    SparseEncoder,
    active_mark,
    check_limit,
    dense_list,
    fused_hits,
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
        dense_head: int = 0,
    ) -> list[VectorHit]:
        check_collection(collection)
        check_limit(limit)
        where = to_filter(
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
            idf=qe.IdfParams(corpus=to_filter(filters.user_only(user_id, with_shared=with_shared)))
        )
        with_payload = _payload_selector(payload)
        if dense_q is None or sparse_q is None:
            if dense_q is not None:
                query, params = qe.Query.Nearest(dense_q, using=DENSE), None
            elif sparse_q is not None:
                query, params = qe.Query.Nearest(sparse_q, using=SPARSE), user_idf
            request = qe.QueryRequest(
                limit=limit, query=query, filter=where, params=params, with_payload=with_payload
            )
            with self._engine(collection) as shard:
                found = shard.query(request)
            return to_hits(found, score_is_similarity=dense_q is not None)
        return self._hybrid(
            collection, where, dense_q, sparse_q, user_idf, (limit, dense_head), with_payload
        )

    def _hybrid(
        self,
        collection: str,
        where: qe.Filter,
        dense_q: list[float],
        sparse_q: qe.SparseVector,
        user_idf: qe.SearchParams,
        limits: tuple[int, int],
        with_payload: bool | list[str],
    ) -> list[VectorHit]:
        """One engine call answers both rankings and the lexical points' cosines; the fusion is
        done here (vectors.fusion) and the dense ranking's scores are the cosines. A payload
        asked for takes a second, id-filtered query."""
        limit, dense_head = limits
        rankings = hybrid_batch(dense_q, sparse_q, where, limit, user_idf)
        with self._engine(collection) as shard:
            near, lexical_hits, lexical_cosines = shard.query_batch(rankings)
            fused = fuse(near, lexical_hits, lexical_cosines, limit, dense_head)
            wanted = [f.id for f in fused if with_payload or f.similarity is None]
            # The ids came from this user's filtered rankings, so the id condition alone keeps
            # to the user's points.
            details = (
                shard.query(
                    qe.QueryRequest(
                        limit=len(wanted),
                        query=qe.Query.Nearest(dense_q, using=DENSE),
                        filter=qe.Filter(must=[qe.HasIdCondition(set(wanted))]),
                        with_payload=with_payload,
                    )
                )
                if wanted
                else []
            )
        return fused_hits(fused, details)

    async def set_active(
        self, collection: str, *, user_id: str, ids: Sequence[str], active: bool
    ) -> int:
        check_collection(collection)
        where = to_filter(filters.owned(user_id=user_id, ids=ids))
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
        where = to_filter(filters.owned(user_id=user_id, ids=ids, agent_id=agent_id))
        if ids is not None and not ids:
            return 0
        with self._engine(collection) as shard:
            matched = shard.count(qe.CountRequest(exact=True, filter=where))
            if matched:
                shard.update(qe.UpdateOperation.delete_points_by_filter(where))
        return matched

    async def count(self, collection: str, *, user_id: str) -> int:
        check_collection(collection)
        where = to_filter(filters.user_only(user_id))
        with self._engine(collection) as shard:
            return shard.count(qe.CountRequest(exact=True, filter=where))

    async def optimize(self) -> None:
        for collection in COLLECTIONS:
            with self._engine(collection) as shard:
                shard.optimize()

    async def purge(self, collection: str) -> bool:
        """Rewrite the collection's shard from its live points (:mod:`.edge_rewrite`): no
        file of it keeps a deleted point's vectors or term ids afterwards. Blocks the process
        for the copy (about 1.4 s per 20k points of 384 dims on 2 cores); returns True."""
        check_collection(collection)
        with self._engine(collection) as shard:
            where = self._root / collection
            config = shard_config(self._dim, stored_datatype(where / "edge_config.json"))
            del self._shards[collection]  # reopened from disk if the rewrite fails midway
            fresh, _ = edge_rewrite.rewrite(shard, where, config)
            self._shards[collection] = fresh
        return True

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
        edge_rewrite.recover(where)
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


def _payload_selector(keys: Sequence[str] | None) -> bool | list[str]:
    """Every key (None), none (empty), or just these; the public keys never include ours."""
    if keys is None:
        return True
    return [str(k) for k in keys] if keys else False
