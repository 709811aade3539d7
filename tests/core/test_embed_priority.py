"""A search query's embedding never waits behind a bulk ingest (issue 31 item 5).

A large knowledge upload is one ``embed`` call of hundreds of chunks; the MiniLM embedder
runs it in hops of 32 texts on its one worker, and a query that arrives meanwhile runs at the
next hop, before the documents still waiting. Measured in one run: the query's latency during
the ingest against the ingest's own length and against the same query idle (no absolute time).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from services.core.minilm import MiniLMEmbedder

HOPS = 5
QUESTION = "What did my sister say about the garden?"
CHUNK = " ".join(
    f"Chapter {i}: water the tomatoes at dawn, mulch the beds, and prune the roses in March."
    for i in range(2)
)


@pytest.fixture(scope="module")
async def minilm() -> AsyncIterator[MiniLMEmbedder]:
    embedder = MiniLMEmbedder(threads=1)
    yield embedder
    await embedder.close()


async def _timed_query(minilm: MiniLMEmbedder) -> tuple[float, float]:
    """(latency, when it was answered)."""
    started = time.perf_counter()
    await minilm.embed_query(QUESTION)
    done = time.perf_counter()
    return done - started, done


async def test_a_query_during_a_large_upload_waits_one_hop_at_most(
    minilm: MiniLMEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    hops: list[tuple[bool, float, float]] = []  # (query, start, end) of each worker hop
    real = minilm.embed_sync
    loop = asyncio.get_running_loop()
    document_hop = asyncio.Event()

    def recording(batch: list[str], *, query: bool = False, runs=None):
        start = time.perf_counter()
        out = real(batch, query=query, runs=runs)
        hops.append((query, start, time.perf_counter()))
        if not query:
            loop.call_soon_threadsafe(document_hop.set)
        return out

    monkeypatch.setattr(minilm, "embed_sync", recording)
    await minilm.embed_query(QUESTION)  # warm
    idle = min([(await _timed_query(minilm))[0] for _ in range(3)])

    chunks = [f"{i} {CHUNK}" for i in range(32 * HOPS)]
    began = time.perf_counter()
    upload = asyncio.create_task(minilm.embed(chunks))
    await document_hop.wait()  # the first document hop has run; the rest wait
    during = [await _timed_query(minilm) for _ in range(3)]
    await upload
    ended = time.perf_counter()

    ingest = ended - began
    hop = max(end - start for query, start, end in hops if not query)
    worst = max(latency for latency, _ in during)
    print(
        f"query idle {idle * 1000:.1f} ms, during the upload {worst * 1000:.1f} ms "
        f"(x{worst / idle:.1f}); one document hop {hop * 1000:.0f} ms, the upload {ingest:.2f} s"
    )
    # answered while documents were still waiting, not after the upload
    assert all(answered < ended for _, answered in during)
    # each waited at most for the hop under way (behind the whole queue it would be ~4 hops)
    assert worst < hop * 2 + idle * 3
    assert worst < ingest / 3


async def test_a_query_runs_beside_a_document_hop_not_after_it(
    minilm: MiniLMEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The query lane (issue 33, the first questions after an ingest): a query asked while a
    hop of long documents runs is answered before that hop ends."""
    hops: list[tuple[bool, float, float]] = []
    real = minilm.embed_sync
    loop = asyncio.get_running_loop()
    started = asyncio.Event()

    def recording(batch: list[str], *, query: bool = False, runs=None):
        start = time.perf_counter()
        if not query:
            loop.call_soon_threadsafe(started.set)
        out = real(batch, query=query, runs=runs)
        hops.append((query, start, time.perf_counter()))
        return out

    monkeypatch.setattr(minilm, "embed_sync", recording)
    await minilm.embed_query(QUESTION)  # warm
    long_reply = " ".join([CHUNK] * 8)  # ~256 tokens, what one BEAM reply holds
    upload = asyncio.create_task(minilm.embed([f"{i} {long_reply}" for i in range(2)]))
    await started.wait()  # the document hop is under way
    _, answered = await _timed_query(minilm)
    await upload
    first_document_hop_end = min(end for query, _, end in hops if not query)
    assert answered < first_document_hop_end
