"""A Qdrant server or distributed cluster, over HTTP with qdrant-client's async REST transport.

Same collections, vectors, payload indexes and filters as the Edge form (``layout``, ``filters``);
the BM25 vectors are computed here, client-side, so both forms rank the same text the same way.
Writes wait for the server to apply them, so a search after an upsert sees it. Transport faults
and error answers become :class:`VectorIndexUnavailable`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import qdrant_edge
from qdrant_client import AsyncQdrantClient, models
from qdrant_client.http.exceptions import UnexpectedResponse

from services.core.vectors import filters
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
from services.core.vectors.server_models import (
    dense_size,
    hybrid_requests,
    payload_indexes,
    point_vectors,
    sparse_model,
    to_filter,
)
from services.core.vectors.server_models import (
    faults as _faults,
)


class ServerVectorIndex:
    """The vector index port over a Qdrant server at ``url``."""

    def __init__(
        self,
        url: str,
        *,
        api_key: str | None,
        dim: int,
        timeout_s: float = 5.0,
        client: AsyncQdrantClient | None = None,
    ) -> None:
        self._client = client or AsyncQdrantClient(
            url=url,
            api_key=api_key,
            timeout=max(1, round(timeout_s)),
            prefer_grpc=False,
            check_compatibility=False,
        )
        self._dim = dim
        self._sparse = SparseEncoder()
        self._ensured = True  # False after a failed ensure_collections, until one succeeds

    async def ensure_collections(self) -> None:
        self._ensured = False
        await self._ensure_collections()
        self._ensured = True

    async def _ready(self) -> None:
        """A node may start while the server is down: then its collections are made (or
        checked) on the first call that finds the server up."""
        if not self._ensured:
            await self.ensure_collections()

    async def _ensure_collections(self) -> None:
        for collection in COLLECTIONS:
            with _faults(f"ensuring collection {collection}"):
                if not await self._client.collection_exists(collection):
                    await self._create(collection)
                info = await self._client.get_collection(collection)
                size = dense_size(info)
                if size != self._dim:
                    raise VectorIndexUnavailable(
                        f"collection {collection} holds {size}-dimensional vectors, "
                        f"the embedder makes {self._dim}: reindex into a fresh collection"
                    )
                for name, schema in payload_indexes():
                    if name not in (info.payload_schema or {}):
                        await self._client.create_payload_index(
                            collection, name, field_schema=schema, wait=True
                        )

    async def upsert(self, collection: str, points: Sequence[VectorPoint]) -> None:
        check_collection(collection)
        if not points:
            return
        await self._ready()
        records = [
            models.PointStruct(
                id=p.id,
                vector=point_vectors(dense_list(p.dense, self._dim), self._sparse.document(p.text)),
                payload=stored_payload(p),
            )
            for p in points
        ]
        with _faults(f"upserting into {collection}"):
            await self._client.upsert(collection, points=records, wait=True)

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
        await self._ready()
        user_idf = models.SearchParams(
            idf=models.IdfCorpusParams(
                corpus=to_filter(filters.user_only(user_id, with_shared=with_shared))
            )
        )
        with_payload = True if payload is None else (list(payload) or False)
        if dense_q is None or sparse_q is None:
            request: dict[str, Any] = {"query": dense_q, "using": DENSE}
            if sparse_q is not None:
                request = dict(query=sparse_model(sparse_q), using=SPARSE, search_params=user_idf)
            with _faults(f"searching {collection}"):
                found = (
                    await self._client.query_points(
                        collection,
                        query_filter=where,
                        limit=limit,
                        with_payload=with_payload,
                        **request,
                    )
                ).points
            return to_hits(found, score_is_similarity=dense_q is not None)
        return await self._hybrid(
            collection, where, dense_q, sparse_q, user_idf, (limit, dense_head), payload
        )

    async def _hybrid(
        self,
        collection: str,
        where: models.Filter,
        dense_q: list[float],
        sparse_q: qdrant_edge.SparseVector,
        user_idf: models.SearchParams,
        limits: tuple[int, int],
        payload: Sequence[str] | None,
    ) -> list[VectorHit]:
        """As the Edge form: both rankings and the lexical points' cosines in one batch, fused
        here (vectors.fusion); a payload asked for comes from one id-filtered query."""
        limit, dense_head = limits
        with_payload = True if payload is None else (list(payload) or False)
        rankings = hybrid_requests(dense_q, sparse_model(sparse_q), where, limit, user_idf)
        with _faults(f"searching {collection}"):
            near, lexical_hits, lexical_cosines = await self._client.query_batch_points(
                collection, requests=rankings
            )
            fused = fuse(
                near.points, lexical_hits.points, lexical_cosines.points, limit, dense_head
            )
            wanted = [f.id for f in fused if with_payload or f.similarity is None]
            details = (
                (
                    await self._client.query_points(
                        collection,
                        query=dense_q,
                        using=DENSE,
                        query_filter=models.Filter(
                            must=[models.HasIdCondition(has_id=wanted), where]
                        ),
                        limit=len(wanted),
                        with_payload=with_payload,
                    )
                ).points
                if wanted
                else []
            )
        return fused_hits(fused, details)

    async def set_active(
        self, collection: str, *, user_id: str, ids: Sequence[str], active: bool
    ) -> int:
        check_collection(collection)
        where = to_filter(filters.owned(user_id=user_id, ids=ids))
        if not ids:
            return 0
        await self._ready()
        with _faults(f"setting active in {collection}"):
            matched = (await self._client.count(collection, count_filter=where, exact=True)).count
            if matched:
                await self._client.set_payload(
                    collection,
                    {"active": active, ACTIVE_KEY: active_mark(active)},
                    points=models.FilterSelector(filter=where),
                    wait=True,
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
        await self._ready()
        with _faults(f"deleting from {collection}"):
            matched = (await self._client.count(collection, count_filter=where, exact=True)).count
            if matched:
                await self._client.delete(
                    collection, points_selector=models.FilterSelector(filter=where), wait=True
                )
        return matched

    async def count(self, collection: str, *, user_id: str) -> int:
        check_collection(collection)
        where = to_filter(filters.user_only(user_id))
        await self._ready()
        with _faults(f"counting {collection}"):
            return (await self._client.count(collection, count_filter=where, exact=True)).count

    async def optimize(self) -> None:
        """Nothing to do: the server runs its optimizers in the background."""

    async def purge(self, collection: str) -> bool:
        """A server's files are its own: its optimizer vacuums deleted points when it will."""
        check_collection(collection)
        return False

    async def ping(self) -> None:
        with _faults("ping"):
            await self._client.info()
        await self._ready()

    async def close(self) -> None:
        with _faults("closing the client"):
            await self._client.close()

    async def _create(self, collection: str) -> None:
        try:
            await self._client.create_collection(
                collection,
                vectors_config={
                    DENSE: models.VectorParams(size=self._dim, distance=models.Distance.COSINE)
                },
                sparse_vectors_config={
                    SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)
                },
            )
        except UnexpectedResponse as exc:
            if exc.status_code != 409:  # 409: another node created it first
                raise
