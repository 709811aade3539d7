"""One search's query texts in one embedding call (``embed_queries``): rag-gate embeds a
question with and without the people it names together (:mod:`services.rag_gate.query`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import numpy as np
import pytest

from services.core.embedder import HashingEmbedder
from services.core.minilm import MiniLMEmbedder

ASKED = "What did Melanie find out about adoption agencies?"
UNNAMED = "What did they find out about adoption agencies?"


@pytest.fixture(scope="module")
async def minilm() -> AsyncIterator[MiniLMEmbedder]:
    embedder = MiniLMEmbedder(threads=1)
    yield embedder
    await embedder.close()


async def test_one_searchs_texts_share_a_run_and_stay_near_their_own_vectors(
    minilm: MiniLMEmbedder,
) -> None:
    """The int8 build quantizes activations per run, so the pair's vectors differ a little
    from each text run alone, and are the same every time, whatever else runs beside them."""
    pair = await minilm.embed_queries([ASKED, UNNAMED])
    alone = [await minilm.embed_query(t) for t in (ASKED, UNNAMED)]
    for together, single in zip(pair, alone, strict=True):
        assert float(np.dot(together, single)) > 0.98
        assert np.isclose(np.linalg.norm(together), 1.0)
    beside = await asyncio.gather(
        minilm.embed_queries([ASKED, UNNAMED]),
        minilm.embed_query("The cat sat on the mat"),
        minilm.embed(["My sister Marta lives in Lisbon"]),
    )
    assert beside[0] == pair
    assert beside[1] == await minilm.embed_query("The cat sat on the mat")


async def test_a_searchs_texts_run_once_not_once_each(minilm: MiniLMEmbedder) -> None:
    runs: list[int] = []
    real = minilm._run

    def counted(session, batch):  # type: ignore[no-untyped-def]
        runs.append(len(batch))
        return real(session, batch)

    minilm._run = counted  # type: ignore[method-assign]
    try:
        await minilm.embed_queries([ASKED, UNNAMED])
    finally:
        del minilm._run
    assert runs == [2]


async def test_hashing_embeds_a_searchs_texts_as_its_queries() -> None:
    hashing = HashingEmbedder(dim=64)
    pair = await hashing.embed_queries([ASKED, UNNAMED])
    assert pair == [await hashing.embed_query(ASKED), await hashing.embed_query(UNNAMED)]
