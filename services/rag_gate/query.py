"""The query's vectors: one embedding call for every search of a retrieve.

The message is embedded once for every collection; when it names one of the seed people, the
message without their names (:mod:`.unnamed`) goes in the same call, for the turn search. The
names come with the continuity read (:mod:`.continuity`, a statement rag-gate runs anyway),
so the call waits for it only when the request has seed entities.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import AbstractContextManager

import structlog

from contracts.retrieve import RetrieveRequest
from services.core.embedder import Embedder
from services.core.errors import DependencyUnavailable
from services.rag_gate import unnamed
from services.rag_gate.continuity import Continuity, SeedName

Stage = Callable[[str], AbstractContextManager[None]]


async def query_vectors(
    embedder: Embedder,
    req: RetrieveRequest,
    query: str,
    loading: asyncio.Future[Continuity],
    stage: Stage,
) -> tuple[list[float] | None, list[float] | None]:
    """The query's dense vector, and the turn search's (the query's mixed with the one without
    the people it names; None when it names none); ``(None, None)`` when the embedder is down.
    The call is timed as ``embed``."""
    names: list[SeedName] = []
    if req.entity_ids and req.limits.turns.max and unnamed.SHARE > 0:
        names = (await asyncio.shield(loading)).names
    texts = unnamed.texts(query, names)
    try:
        with stage("embed"):
            vectors = await _embed(embedder, texts)
    except DependencyUnavailable as exc:
        structlog.get_logger().warning("query_unembedded", error=str(exc))
        return None, None
    return vectors[0], unnamed.mixed(vectors[0], vectors[1]) if len(vectors) > 1 else None


async def _embed(embedder: Embedder, texts: list[str]) -> list[list[float]]:
    if len(texts) == 1:
        return [await embedder.embed_query(texts[0])]
    return await embedder.embed_queries(texts)
