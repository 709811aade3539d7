"""The index while a stand-in embedder serves: nothing it makes is written or compared.

When MiniLM fails to load, the node stays up on the hashing embedder (``open_embedder``). Both
make 384 dims, so Qdrant would take the stand-in's vectors into an index of MiniLM's without a
word: each such point would later be compared with MiniLM queries, and an unstamped folder
would be adopted by MiniLM with them inside. :class:`WithheldIndex` keeps the two spaces apart:

- **writes wait**: ``upsert`` answers :class:`VectorIndexUnavailable`, as a down index does, so
  the rows stay ``indexed_at = NULL`` in Postgres (the truth) with the writer's
  ``*_unindexed`` warning, and the sweep indexes them once the real embedder is back (a
  forget's rewrite of the points still mentioning what it removed waits the same way);
- **dense searches are refused** the same way, so rag-gate reports its slots degraded instead
  of comparing two spaces; a text-only (BM25) search, which compares no vectors, is answered
  (a forget finds the points still mentioning what it removed);
- **forgetting is whole**: ``set_active``, ``delete`` and ``purge`` reach the index as always,
  since they add no vector.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from services.core.vectors.port import (
    PayloadValue,
    VectorHit,
    VectorIndex,
    VectorIndexUnavailable,
    VectorPoint,
)


class WithheldIndex:
    """``inner`` with writes withheld and searches lexical, while ``embedder`` stands in for
    ``wanted``."""

    def __init__(self, inner: VectorIndex, *, embedder: str, wanted: str) -> None:
        self.inner = inner
        self.reason = (
            f"the embedder {embedder} stands in for {wanted}, which failed to load: vectors "
            f"wait for {wanted}"
        )

    async def ensure_collections(self) -> None:
        await self.inner.ensure_collections()

    async def upsert(self, collection: str, points: Sequence[VectorPoint]) -> None:
        raise VectorIndexUnavailable(self.reason)

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
        if dense is not None or not text:
            raise VectorIndexUnavailable(self.reason)
        return await self.inner.search(
            collection,
            user_id=user_id,
            text=text,
            agent_id=agent_id,
            agent_only=agent_only,
            with_shared=with_shared,
            entity_ids=entity_ids,
            include_inactive=include_inactive,
            limit=limit,
            extra_must=extra_must,
            payload=payload,
            dense_head=dense_head,
        )

    async def set_active(
        self, collection: str, *, user_id: str, ids: Sequence[str], active: bool
    ) -> int:
        return await self.inner.set_active(collection, user_id=user_id, ids=ids, active=active)

    async def delete(
        self,
        collection: str,
        *,
        user_id: str,
        ids: Sequence[str] | None = None,
        agent_id: str | None = None,
    ) -> int:
        return await self.inner.delete(collection, user_id=user_id, ids=ids, agent_id=agent_id)

    async def count(self, collection: str, *, user_id: str) -> int:
        return await self.inner.count(collection, user_id=user_id)

    async def optimize(self) -> None:
        await self.inner.optimize()

    async def purge(self, collection: str) -> bool:
        return await self.inner.purge(collection)

    async def ping(self) -> None:
        await self.inner.ping()

    async def close(self) -> None:
        await self.inner.close()
