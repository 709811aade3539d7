"""``POST /v1/retrieve`` through the app: the contract, the cheap closed gate, degrading."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import httpx
import msgspec
import pytest
from structlog.testing import capture_logs

from contracts.envelope_io import FactsSlot
from contracts.recall import EpisodeSlot, KnowledgeSlot
from contracts.retrieve import RetrieveResponse
from services.core.app import create_app
from services.core.deps import Clients
from services.core.embedder import EmbedderUnavailable
from services.core.settings import Settings
from services.core.stores import open_pg_pool
from services.core.vectors import EdgeVectorIndex
from services.nodes import node_spec
from services.rag_gate.app import SPEC
from tests.rag_gate.conftest import T0, Memory


class CountingIndex:
    """The real index, counting searches."""

    def __init__(self, inner) -> None:
        self._inner = inner
        self.searches = 0

    async def search(self, *args, **kwargs):
        self.searches += 1
        return await self._inner.search(*args, **kwargs)

    def __getattr__(self, name: str):
        return getattr(self._inner, name)


class CountingEmbedder:
    def __init__(self, inner, *, fail: bool = False) -> None:
        self._inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.calls = 0
        self.fail = fail

    async def embed(self, texts):
        self.calls += 1
        if self.fail:
            raise EmbedderUnavailable("endpoint down")
        return await self._inner.embed(texts)

    async def embed_query(self, text):
        (vector,) = await self.embed([text])
        return vector

    async def embed_queries(self, texts):
        return await self.embed(texts)

    async def close(self) -> None:
        return None


@pytest.fixture
def post(settings: Settings, app_client):
    """``await post(resources, body)``: one request to a fresh app over these resources."""

    async def send(res: Clients, body: dict) -> httpx.Response:
        async with app_client(create_app(SPEC, settings, res)) as client:
            return await client.post("/v1/retrieve", json=body)

    return send


def body(memory: Memory, message: str, **extra) -> dict:
    return {
        "user_id": memory.user_id,
        "agent_id": memory.agent,
        "chat_id": "tg:1",
        "message": message,
        "now": T0.isoformat(),
        **extra,
    }


async def seed(memory: Memory) -> dict[str, str]:
    marta = await memory.entity("Marta", ref="person:marta")
    ids = {
        "marta": marta,
        "episode": await memory.episode(
            "Marta started night shifts",
            "Observation: the user said Marta started night "
            "shifts at the hospital and sounds exhausted.",
            entity_ids=[marta],
            ts=T0 - timedelta(days=2),
            what_mattered=["Marta's shifts"],
        ),
        "fact": await memory.fact(marta, "Marta works night shifts at the hospital", importance=2),
        "chunk": await memory.chunk(
            "Night shift sleep: keep a fixed sleep window after "
            "night shifts, dark room, no caffeine late."
        ),
    }
    await memory.session(
        "tg:1",
        [
            ("user", "Marta starts nights tomorrow"),
            ("assistant", "That sounds hard. How is she feeling?"),
        ],
        started_at=T0 - timedelta(hours=4),
    )
    return ids


async def test_an_open_gate_returns_all_three_slots_with_reasons_and_timings(
    resources: Clients, memory: Memory, post
) -> None:
    ids = await seed(memory)
    response = await post(
        resources,
        body(
            memory,
            "Remember Marta's night shifts? How should she sleep?",
            entity_ids=[ids["marta"]],
        ),
    )
    assert response.status_code == 200, response.text
    answer = response.json()
    assert set(answer) == {
        "slot_contract_version",
        "gate",
        "EPISODE",
        "KNOWLEDGE",
        "FACTS",
        "ranking",
        "timings",
        "debug",
    }
    assert answer["gate"] == {
        "open": True,
        "reasons": ["continuity", "entity_mention"],
        "forced": False,
        "matched": {"continuity": ["remember"], "entity_mention": [ids["marta"]]},
    }
    assert [h["episode_id"] for h in answer["EPISODE"]["hits"]] == [ids["episode"]]
    assert [h["chunk_id"] for h in answer["KNOWLEDGE"]["hits"]] == [ids["chunk"]]
    assert [f["fact_id"] for f in answer["FACTS"]["relevant_facts"]] == [ids["fact"]]
    assert answer["EPISODE"]["latest_session_summary"] == (
        "Marta started night shifts — what mattered: Marta's shifts"
    )
    assert len(answer["EPISODE"]["previous_session_tail"]) == 2
    # one fused order over every returned item: knowledge (0.8) before the fact (0.5) before
    # the episode (0.3), each first in its slot
    assert [(r["kind"], r["id"]) for r in answer["ranking"]] == [
        ("knowledge", ids["chunk"]),
        ("fact", ids["fact"]),
        ("episode", ids["episode"]),
    ]
    assert {"embed", "vectors", "sql_rows", "sql_continuity", "total"} <= set(answer["timings"])
    # Each slot is exactly what envelope-validator takes.
    for key, typ in (("EPISODE", EpisodeSlot), ("KNOWLEDGE", KnowledgeSlot), ("FACTS", FactsSlot)):
        assert msgspec.to_builtins(msgspec.convert(answer[key], typ)) == answer[key]
    msgspec.convert(answer, RetrieveResponse)


async def test_a_closed_gate_makes_no_embedding_and_no_vector_search_but_keeps_continuity(
    resources: Clients, memory: Memory, post
) -> None:
    await seed(memory)
    index, embedder = CountingIndex(resources.vectors), CountingEmbedder(resources.embedder)
    spied = resources.replace(vectors=index, embedder=embedder)
    for message, extra in (("ok thanks", {}), ("remember last time?", {"force": "closed"})):
        answer = (await post(spied, body(memory, message, **extra))).json()
        assert answer["gate"]["open"] is False
        assert answer["EPISODE"]["hits"] == answer["KNOWLEDGE"]["hits"] == []
        assert answer["FACTS"]["relevant_facts"] == []
        assert len(answer["EPISODE"]["previous_session_tail"]) == 2
        assert answer["EPISODE"]["latest_session_summary"]
        assert "embed" not in answer["timings"]
    assert (index.searches, embedder.calls) == (0, 0)
    opened = (await post(spied, body(memory, "ok thanks", force="open"))).json()
    assert opened["gate"] == {"open": True, "reasons": [], "forced": True, "matched": {}}
    assert embedder.calls == 1 and index.searches == 5  # 4 collections + standing


async def test_collections_the_limits_do_not_ask_for_are_not_searched(
    resources: Clients, memory: Memory, post
) -> None:
    await seed(memory)
    index = CountingIndex(resources.vectors)
    none_but_episodes = {"knowledge": {"k": 0}, "facts": {"max": 0}, "turns": {"max": 0}}
    answer = (
        await post(
            resources.replace(vectors=index),
            body(memory, "remember Marta's shifts?", limits=none_but_episodes),
        )
    ).json()
    assert index.searches == 1 and answer["debug"]["candidates"] == {
        "episodes": 1,
        "knowledge": 0,
        "facts": 0,
        "turns": 0,
    }
    assert [h["chunk_id"] for h in answer["KNOWLEDGE"]["hits"]] == []


def test_the_node_opens_exactly_what_its_handler_takes() -> None:
    """rag-gate alone never reads Redis; the entry point mounts the fast brain, which does."""
    assert SPEC.stores == {"postgres", "vectors", "embedder"}
    assert node_spec("rag-gate").stores == SPEC.stores | {"redis"}  # redis: /v1/turn's pulse


async def test_a_closed_vector_index_degrades_the_slots_and_keeps_continuity(
    resources: Clients, memory: Memory, post, tmp_path: Path
) -> None:
    await seed(memory)
    closed = EdgeVectorIndex(tmp_path / "closed", dim=resources.embedder.dim)
    await closed.ensure_collections()
    await closed.close()
    with capture_logs() as logs:
        response = await post(
            resources.replace(vectors=closed), body(memory, "remember Marta's shifts?")
        )
    assert response.status_code == 200, response.text
    failed = {e["collection"] for e in logs if e["event"] == "vector_search_failed"}
    assert failed == {"episodes", "knowledge", "facts", "messages"}  # said in the log
    answer = response.json()
    for slot in ("EPISODE", "KNOWLEDGE", "FACTS"):
        assert answer[slot]["degraded"] == "vector index unavailable"
    assert answer["EPISODE"]["hits"] == [] and answer["FACTS"]["relevant_facts"] == []
    assert len(answer["EPISODE"]["previous_session_tail"]) == 2


async def test_an_unavailable_embedder_degrades_the_slots(
    resources: Clients, memory: Memory, post
) -> None:
    await seed(memory)
    broken = resources.replace(embedder=CountingEmbedder(resources.embedder, fail=True))
    with capture_logs() as logs:
        answer = (await post(broken, body(memory, "remember Marta's shifts?"))).json()
    assert [e["event"] for e in logs if e["log_level"] == "warning"] == ["query_unembedded"]
    assert {answer[s]["degraded"] for s in ("EPISODE", "KNOWLEDGE", "FACTS")} == {
        "embedder unavailable"
    }
    assert answer["EPISODE"]["latest_session_summary"]


async def test_postgres_down_is_a_503_naming_it(
    resources: Clients, memory: Memory, post, settings: Settings
) -> None:
    nowhere = msgspec.structs.replace(
        settings, database_url="postgresql://postgres@127.0.0.1:1/x", pg_timeout_s=1.0
    )
    pool = await open_pg_pool(nowhere)
    try:
        response = await post(resources.replace(db=pool), body(memory, "ok"))
    finally:
        await pool.close()
    assert response.status_code == 503
    assert response.json()["dependency"] == "postgres" and response.headers["Retry-After"]


async def test_a_bad_request_is_a_422_naming_every_field(
    resources: Clients, memory: Memory, post
) -> None:
    bad = body(
        memory, "hi", force="maybe", limits={"episodes": {"floor": 5, "top_k": 0}}, extra_field=1
    )
    del bad["message"]
    response = await post(resources, bad)
    assert response.status_code == 422
    paths = {e["path"] for e in response.json()["errors"]}
    assert {
        "$.message",
        "$.force",
        "$.limits.episodes.floor",
        "$.limits.episodes.top_k",
        "$.extra_field",
    } <= paths


async def test_the_limits_are_overridable_per_request(
    resources: Clients, memory: Memory, post
) -> None:
    await seed(memory)
    strict = {
        "episodes": {"floor": 0.99, "lexical_rank": 0},
        "knowledge": {"k": 0},
        "facts": {"max": 0},
        "tail_turns": 1,
    }
    answer = (await post(resources, body(memory, "remember Marta's shifts?", limits=strict))).json()
    assert answer["EPISODE"]["hits"] == [] and answer["debug"]["thresholds"]["episodes"] == 0.99
    assert answer["KNOWLEDGE"]["hits"] == [] and answer["FACTS"]["relevant_facts"] == []
    assert len(answer["EPISODE"]["previous_session_tail"]) == 1


async def test_the_route_is_documented_in_openapi(
    resources: Clients, settings: Settings, app_client
) -> None:
    async with app_client(create_app(SPEC, settings, resources)) as client:
        schema = (await client.get("/schema/openapi.json")).json()
    operation = schema["paths"]["/v1/retrieve"]["post"]
    assert "relative cutoff" in operation["description"]
