"""``POST /v1/knowledge``: markdown → chunks → vectors, upserted by content hash."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Sequence

import httpx
import pytest

from services.core.app import create_app
from services.core.deps import Clients
from services.core.embedder import Embedder
from services.core.settings import Settings
from services.core.vectors.port import SHARED_OWNER
from services.memory_upserter.app import SPEC
from tests.memory_upserter.conftest import rows

PROTEIN = " ".join(["Protein at every meal helps muscles recover after training."] * 40)
DOC = f"""# Nutrition guide
Eat a plant-rich diet with plenty of vegetables.

## Protein
{PROTEIN}

## Hydration
Drink water through the day; thirst lags behind need.
"""


class CountingEmbedder:
    """The real embedder, counting the texts it was asked to embed."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.texts = inner, []
        self.dim, self.name = inner.dim, inner.name

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.texts += list(texts)
        return await self.inner.embed(texts)

    async def embed_query(self, text: str) -> list[float]:
        (vector,) = await self.embed([text])
        return vector

    async def close(self) -> None:
        return None


@pytest.fixture
async def counted(
    settings: Settings, resources: Clients, app_client
) -> AsyncIterator[tuple[httpx.AsyncClient, CountingEmbedder]]:
    embedder = CountingEmbedder(resources.embedder)
    with_counter = resources.replace(embedder=embedder)
    async with app_client(create_app(SPEC, settings, with_counter)) as client:
        yield client, embedder


@pytest.fixture
def agent() -> str:
    return f"coach-{uuid.uuid4().hex[:8]}"


async def ingest(client: httpx.AsyncClient, **body) -> dict:
    response = await client.post("/v1/knowledge", json=body)
    assert response.status_code == 200, response.text
    return response.json()


async def test_a_document_is_chunked_by_heading_and_indexed_for_every_user_of_the_agent(
    counted, resources: Clients, agent: str
) -> None:
    client, embedder = counted
    answer = await ingest(client, agent_id=agent, doc_id="guide", domain="nutrition", text=DOC)
    assert answer["added"] == answer["chunks"] == answer["indexed"] == len(embedder.texts) >= 4
    assert (answer["unchanged"], answer["removed"], answer["warnings"]) == (0, 0, [])
    stored = await rows(
        resources,
        "SELECT chunk_id, section_path, position, domain, "
        "indexed_at, user_id, text FROM knowledge_chunks "
        "WHERE agent_id = $1 ORDER BY position",
        agent,
    )
    assert stored[0]["section_path"] == ["Nutrition guide"]
    assert {tuple(r["section_path"]) for r in stored} == {
        ("Nutrition guide",),
        ("Nutrition guide", "Protein"),
        ("Nutrition guide", "Hydration"),
    }
    assert all(
        r["indexed_at"] and r["domain"] == "nutrition" and r["user_id"] is None for r in stored
    )
    protein = [len(r["text"]) for r in stored if r["section_path"][-1] == "Protein"]
    assert len(protein) >= 2 and all(800 <= n <= 1200 for n in protein[:-1])
    hits = await resources.vectors.search(
        "knowledge",
        user_id=SHARED_OWNER,
        agent_id=agent,
        text="how much water should I drink",
        limit=3,
    )
    (best,) = [r for r in stored if str(r["chunk_id"]) == hits[0].id]
    assert best["section_path"] == ["Nutrition guide", "Hydration"] and "thirst" in best["text"]
    assert hits[0].payload["doc_id"] == "guide" and "text" not in hits[0].payload


async def test_ingesting_the_same_document_again_changes_and_embeds_nothing(
    counted, resources: Clients, agent: str
) -> None:
    client, embedder = counted
    first = await ingest(client, agent_id=agent, doc_id="guide", text=DOC)
    embedded = len(embedder.texts)
    again = await ingest(client, agent_id=agent, doc_id="guide", text=DOC)
    assert (again["added"], again["unchanged"], again["removed"], again["indexed"]) == (
        0,
        first["chunks"],
        0,
        0,
    )
    assert len(embedder.texts) == embedded


async def test_a_changed_section_replaces_its_old_chunks_and_their_vectors(
    counted, resources: Clients, agent: str
) -> None:
    client, embedder = counted
    await ingest(client, agent_id=agent, doc_id="guide", text=DOC)
    old = await rows(
        resources,
        "SELECT chunk_id::text FROM knowledge_chunks WHERE agent_id = $1"
        " AND section_path @> '[\"Hydration\"]'",
        agent,
    )
    embedder.texts.clear()
    changed = DOC.replace(
        "Drink water through the day; thirst lags behind need.",
        "Drink two litres of electrolytes after long runs.",
    )
    answer = await ingest(client, agent_id=agent, doc_id="guide", text=changed)
    assert (answer["added"], answer["removed"], answer["indexed"]) == (1, 1, 1)
    assert len(embedder.texts) == 1 and "electrolytes" in embedder.texts[0]
    left = await rows(resources, "SELECT text FROM knowledge_chunks WHERE agent_id = $1", agent)
    assert not any("thirst" in r["text"] for r in left)
    hits = await resources.vectors.search(
        "knowledge",
        user_id=SHARED_OWNER,
        agent_id=agent,
        text="thirst water day",
        limit=10,
        include_inactive=True,
    )
    assert old[0]["chunk_id"] not in {h.id for h in hits}


async def test_a_document_for_one_user_is_indexed_for_that_user_only(
    counted, resources: Clients, agent: str, user_id: str
) -> None:
    client, _ = counted
    await ingest(
        client, agent_id=agent, doc_id="plan", text="# Plan\nYour meal plan: oats.", user_id=user_id
    )
    mine = await resources.vectors.search(
        "knowledge", user_id=user_id, agent_id=agent, text="meal plan oats"
    )
    shared = await resources.vectors.search(
        "knowledge", user_id=SHARED_OWNER, agent_id=agent, text="meal plan oats"
    )
    assert len(mine) == 1 and shared == []


async def test_an_empty_document_is_refused(counted, agent: str) -> None:
    client, _ = counted
    response = await client.post(
        "/v1/knowledge", json={"agent_id": agent, "doc_id": "x", "text": ""}
    )
    assert response.status_code == 422
    assert [e["path"] for e in response.json()["errors"]] == ["$.text"]
