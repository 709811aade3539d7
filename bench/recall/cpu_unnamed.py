"""The unnamed turn query as main ``6741912`` ran it, for ``bench.recall.cpu --round 4``'s
*before*: the seed Persons' names in a statement of their own on its own connection, beside
the query's embedding, then a second embedding call of the query without them. (Its
``load_rows`` also read the names again; that work is Postgres's, not this process's.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from contracts.retrieve import RetrieveRequest
from services.core.deps import Database
from services.core.embedder import Embedder
from services.rag_gate import unnamed
from services.rag_gate.continuity import Continuity, SeedName, uuids
from services.rag_gate.query import Stage

NAMES = """
SELECT e.name FROM entities e
 WHERE e.user_id = $1 AND e.entity_id = ANY($2::uuid[]) AND e.active AND e.category = 'Person'
   AND e.entity_ref IS DISTINCT FROM 'self:user'
UNION
SELECT a.alias FROM entity_aliases a
  JOIN entities e ON e.user_id = a.user_id AND e.entity_id = a.entity_id
 WHERE a.user_id = $1 AND a.entity_id = ANY($2::uuid[]) AND e.active AND e.category = 'Person'
   AND e.entity_ref IS DISTINCT FROM 'self:user'
"""


def before(db: Database):  # type: ignore[no-untyped-def]
    """``query_vectors`` as it was, over ``db``."""

    async def names(user_id: str, entity_ids: Sequence[str]) -> list[str]:
        async with db.acquire() as conn:
            rows = await conn.fetch(NAMES, user_id, uuids(entity_ids))
        return [r[0] for r in rows if r[0]]

    async def embed(embedder: Embedder, text: str, stage: Stage, name: str) -> list[float]:
        with stage(name):
            return await embedder.embed_query(text)

    async def query_vectors(
        embedder: Embedder,
        req: RetrieveRequest,
        query: str,
        loading: asyncio.Future[Continuity],
        stage: Stage,
    ) -> tuple[list[float] | None, list[float] | None]:
        said: list[str] = []
        if req.entity_ids and req.limits.turns.max:
            dense, said = await asyncio.gather(
                embed(embedder, query, stage, "embed"), names(req.user_id, req.entity_ids)
            )
        else:
            dense = await embed(embedder, query, stage, "embed")
        texts = unnamed.texts(query, [SeedName(n, person=True) for n in said])
        if len(texts) == 1:
            return dense, None
        other = await embed(embedder, texts[1], stage, "embed_unnamed")
        return dense, unnamed.mixed(dense, other)

    return query_vectors
