"""In-process micro-timings, moved out of the test suite (tests never time anything): MiniLM's
latency and memory, and the Edge index's user-filtered hybrid search at 20k points.

``uv run python -m bench.micro`` (``--only minilm`` or ``--only search``); prints only. Touches
nothing but a temporary folder for the index.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import tempfile
import time
import uuid
from pathlib import Path

import numpy as np

from services.core.embedder import MiniLMEmbedder
from services.core.vectors import EdgeVectorIndex, VectorPoint

QUERY = "Where does my sister live?"
BATCH = [f"Note {i}: Marta flew to Lisbon for the family dinner on Friday." for i in range(32)]


def vm_rss_mb() -> float:
    status = Path("/proc/self/status").read_text()
    found = re.search(r"VmRSS:\s+(\d+)", status)
    return int(found.group(1)) / 1024 if found else float("nan")


async def minilm() -> str:
    """One short text (50 runs, p50/p95), the same as a search query, and batches of 32."""
    embedder = MiniLMEmbedder(threads=1)
    for _ in range(3):
        await embedder.embed([QUERY])
    timings, asked = [], []
    for _ in range(50):
        started = time.perf_counter()
        await embedder.embed([QUERY])
        timings.append((time.perf_counter() - started) * 1000)
    for _ in range(50):
        started = time.perf_counter()
        await embedder.embed_query(QUERY)
        asked.append((time.perf_counter() - started) * 1000)
    started = time.perf_counter()
    for _ in range(5):
        await embedder.embed(BATCH)
    batch_s = (time.perf_counter() - started) / 5
    await embedder.close()
    timings.sort()
    return (
        f"minilm (1 thread): short text p50 {statistics.median(timings):.1f} ms, "
        f"p95 {timings[int(len(timings) * 0.95)]:.1f} ms; as a search query (int8) p50 "
        f"{statistics.median(asked):.1f} ms; batch of 32 in {batch_s * 1000:.0f} ms "
        f"({32 / batch_s:.0f} texts/s); VmRSS {vm_rss_mb():.0f} MB"
    )


def _points(rng: np.random.Generator, pick: random.Random, words: list[str]) -> list[VectorPoint]:
    vectors = rng.standard_normal((20_000, 384)).astype(np.float32)
    return [
        VectorPoint(
            id=str(uuid.uuid4()),
            dense=vectors[i].tolist(),
            text=" ".join(pick.choices(words, k=40)),
            payload={
                "user_id": f"user-{i % 100}",
                "agent_id": f"agent-{i % 4}",
                "scope": "agent" if i % 3 else "global",
                "entity_ids": [],
                "active": True,
            },
        )
        for i in range(20_000)
    ]


async def search() -> str:
    """20k points of 100 users, then 400 user-filtered hybrid searches."""
    rng, pick = np.random.default_rng(7), random.Random(7)
    words = [f"term{i}" for i in range(5000)]
    points = _points(rng, pick, words)
    with tempfile.TemporaryDirectory() as folder:
        ix = EdgeVectorIndex(Path(folder) / "qdrant", dim=384)
        await ix.ensure_collections()
        started = time.perf_counter()
        for start in range(0, len(points), 500):
            await ix.upsert("episodes", points[start : start + 500])
        inserted = time.perf_counter() - started
        timings = []
        for i in range(400):
            dense, text = rng.standard_normal(384).tolist(), " ".join(pick.choices(words, k=6))
            t0 = time.perf_counter()
            await ix.search(
                "episodes",
                user_id=f"user-{i % 100}",
                dense=dense,
                text=text,
                agent_id="agent-1",
                limit=8,
            )
            timings.append((time.perf_counter() - t0) * 1000)
        await ix.close()
    timings.sort()
    return (
        f"20k points upserted in {inserted:.1f} s; user-filtered hybrid search "
        f"p50 {timings[200]:.2f} ms, p95 {timings[380]:.2f} ms"
    )


async def main(only: str | None) -> None:
    for name, measure in (("minilm", minilm), ("search", search)):
        if only in (None, name):
            print(await measure(), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", choices=["minilm", "search"])
    asyncio.run(main(parser.parse_args().only))
