"""The vector index port: real Qdrant Edge shards in a temporary folder; the server adapter's
requests checked against a respx-mocked HTTP transport (no Qdrant server runs here).

Dense vectors are hashed random unit vectors: uninformative on purpose, so what a test finds it
finds through the filters or the BM25 half, never through a language model.
"""

from __future__ import annotations

import json
import uuid
import zlib
from collections.abc import AsyncIterator, Sequence
from typing import Any

import httpx
import numpy as np
import pytest
import qdrant_edge
import respx

from services.core.vectors import (
    EdgeVectorIndex,
    VectorIndexUnavailable,
    VectorPoint,
    open_vector_index,
)
from services.core.vectors.layout import SparseEncoder
from services.core.vectors.port import SHARED_OWNER

DIM = 16


def dense_for(seed: str, dim: int = DIM) -> list[float]:
    rng = np.random.default_rng(zlib.crc32(seed.encode()))
    v = rng.standard_normal(dim)
    return (v / np.linalg.norm(v)).tolist()


def point(
    user_id: str,
    text: str,
    *,
    scope: str = "global",
    agent_id: str | None = None,
    entity_ids: tuple[str, ...] = (),
    active: bool = True,
    id: str | None = None,
    dense: Sequence[float] | None = None,
    **extra: Any,
) -> VectorPoint:
    pid = id or str(uuid.uuid4())
    return VectorPoint(
        id=pid,
        dense=dense if dense is not None else dense_for(pid),
        text=text,
        payload={
            "user_id": user_id,
            "agent_id": agent_id,
            "scope": scope,
            "entity_ids": list(entity_ids),
            "active": active,
            **extra,
        },
    )


@pytest.fixture(scope="module")
async def index(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[EdgeVectorIndex]:
    """One Edge index for the module, as in production; each test has its own ``user_id``."""
    ix = EdgeVectorIndex(tmp_path_factory.mktemp("qdrant"), dim=DIM)
    await ix.ensure_collections()
    yield ix
    await ix.close()


def ids(hits) -> set[str]:
    return {h.id for h in hits}


# --- Edge: finding ---------------------------------------------------------------------------


async def test_upserted_point_is_found_by_its_dense_vector(index, user_id):
    target = point(user_id, "we planned the trip to Lisbon", kind="episode", day="2025-03-01")
    others = [point(user_id, f"note number {i}") for i in range(20)]
    await index.upsert("episodes", [target, *others])

    hits = await index.search("episodes", user_id=user_id, dense=target.dense, limit=3)

    assert hits[0].id == target.id
    assert hits[0].similarity == pytest.approx(1.0, abs=1e-3)  # float16 storage
    assert hits[0].payload["day"] == "2025-03-01"
    assert hits[0].payload["row_id"] == target.id
    assert "_active" not in hits[0].payload


async def test_rare_keyword_wins_the_hybrid_search_when_dense_is_uninformative(index, user_id):
    # 25 points fit the dense prefetch window (32), so the needle scores in both halves of the
    # fusion and must come first; past the window, a dense-only stranger could tie it.
    filler = [point(user_id, f"we talked about work and the weather, day {i}") for i in range(25)]
    needle = point(user_id, "Marta bought a xylophone for the kids")
    await index.upsert("episodes", [*filler[:12], needle, *filler[12:]])

    hybrid = await index.search(
        "episodes", user_id=user_id, dense=dense_for("noise"), text="the xylophone", limit=5
    )
    lexical = await index.search("episodes", user_id=user_id, text="xylophones?", limit=5)

    assert hybrid[0].id == needle.id
    cosine = float(np.dot(dense_for("noise"), needle.dense))
    assert hybrid[0].similarity == pytest.approx(cosine, abs=1e-3)  # float16 storage
    assert lexical[0].id == needle.id and lexical[0].similarity is None


async def test_a_search_returns_only_the_payload_keys_asked_for(index, user_id):
    points = [
        point(user_id, f"we ran by the river, lap {i}", entity_ids=(f"e{i}",), day="d")
        for i in range(6)
    ]
    await index.upsert("episodes", points)
    # every point comes back: near-equal fused scores may swap at a cut-off between two calls
    query = {"user_id": user_id, "dense": points[2].dense, "text": "river lap", "limit": 10}

    full = await index.search("episodes", **query)
    bare = await index.search("episodes", **query, payload=())
    some = await index.search("episodes", **query, payload=("entity_ids",))

    # (by id: the engine may order equal fused scores either way)
    assert {h.id: (h.score, h.similarity) for h in bare} == {
        h.id: (h.score, h.similarity) for h in full
    }
    assert all(h.payload == {} for h in bare)
    assert {h.id: h.payload for h in some} == {
        h.id: {"entity_ids": h.payload["entity_ids"]} for h in full
    }
    assert full[0].payload["day"] == "d"


async def test_accents_and_case_do_not_hide_a_name(index, user_id):
    p = point(user_id, "Coffee with Márta at noon")
    await index.upsert("episodes", [p])

    assert ids(await index.search("episodes", user_id=user_id, text="marta")) == {p.id}


async def test_text_of_stopwords_alone_finds_nothing(index, user_id):
    await index.upsert("episodes", [point(user_id, "the cat sat on the mat")])

    assert await index.search("episodes", user_id=user_id, text="the and of") == []


# --- Edge: who sees what -----------------------------------------------------------------------


async def test_users_never_see_count_or_delete_each_others_points(index, user_id):
    a = point(f"{user_id}-a", "Marta's birthday is in May", dense=dense_for("same"))
    b = point(f"{user_id}-b", "Marta's birthday is in May", dense=dense_for("same"))
    await index.upsert("facts", [a, b])

    for user, own in ((f"{user_id}-a", a), (f"{user_id}-b", b)):
        hits = await index.search("facts", user_id=user, dense=own.dense, text="Marta birthday")
        assert ids(hits) == {own.id}
        assert await index.count("facts", user_id=user) == 1

    assert await index.delete("facts", user_id=f"{user_id}-a", ids=[b.id]) == 0
    assert await index.set_active("facts", user_id=f"{user_id}-a", ids=[b.id], active=False) == 0
    assert await index.delete("facts", user_id=f"{user_id}-a") == 1
    assert await index.count("facts", user_id=f"{user_id}-a") == 0
    assert ids(await index.search("facts", user_id=f"{user_id}-b", text="Marta")) == {b.id}


async def test_an_agent_sees_global_points_and_its_own_never_another_agents(index, user_id):
    shared = point(user_id, "Marta is the user's sister", scope="global", agent_id="coach")
    mine = point(user_id, "Marta prefers morning workouts", scope="agent", agent_id="coach")
    theirs = point(user_id, "Marta's tax return is due", scope="agent", agent_id="accountant")
    await index.upsert("facts", [shared, mine, theirs])

    as_coach = await index.search("facts", user_id=user_id, text="Marta", agent_id="coach")
    no_agent = await index.search("facts", user_id=user_id, text="Marta")
    only_own = await index.search(
        "facts", user_id=user_id, text="Marta", agent_id="coach", agent_only=True
    )

    assert ids(as_coach) == {shared.id, mine.id}
    assert ids(no_agent) == {shared.id}
    assert ids(only_own) == {mine.id}
    with pytest.raises(ValueError, match="agent_id"):
        await index.search("knowledge", user_id=user_id, text="Marta", agent_only=True)


async def test_with_shared_adds_the_agents_shared_points_and_never_another_users(index, user_id):
    agent = f"coach-{uuid.uuid4().hex[:8]}"
    shared, mine, theirs = (
        point(owner, "night shift sleep window", scope="agent", agent_id=agent)
        for owner in (SHARED_OWNER, user_id, user_id + "-b")
    )
    await index.upsert("knowledge", [shared, mine, theirs])
    for query in ({"text": "night shift"}, {"text": "night shift", "dense": mine.dense}):
        both = await index.search(
            "knowledge", user_id=user_id, agent_id=agent, agent_only=True, with_shared=True, **query
        )
        alone = await index.search(
            "knowledge", user_id=user_id, agent_id=agent, agent_only=True, **query
        )
        assert ids(both) == {shared.id, mine.id}
        assert ids(alone) == {mine.id}


async def test_entity_ids_narrow_to_points_sharing_an_entity(index, user_id):
    marta = point(user_id, "dinner plans", entity_ids=("person:marta",))
    both = point(user_id, "dinner plans", entity_ids=("person:marta", "person:jon"))
    jon = point(user_id, "dinner plans", entity_ids=("person:jon",))
    await index.upsert("episodes", [marta, both, jon])

    hits = await index.search(
        "episodes", user_id=user_id, text="dinner", entity_ids=["person:marta", "place:oslo"]
    )
    unnarrowed = await index.search("episodes", user_id=user_id, text="dinner", entity_ids=[])

    assert ids(hits) == {marta.id, both.id}
    assert ids(unnarrowed) == {marta.id, both.id, jon.id}


async def test_extra_must_matches_payload_values(index, user_id):
    todo = point(user_id, "call the dentist", kind="todo")
    note = point(user_id, "call the dentist", kind="note")
    await index.upsert("episodes", [todo, note])

    one = await index.search(
        "episodes", user_id=user_id, text="dentist", extra_must={"kind": "todo"}
    )
    any_of = await index.search(
        "episodes", user_id=user_id, text="dentist", extra_must={"kind": ["todo", "note"]}
    )

    assert ids(one) == {todo.id}
    assert ids(any_of) == {todo.id, note.id}


async def test_soft_forget_hides_a_point_until_it_is_restored(index, user_id):
    p = point(user_id, "Marta moved to Porto")
    await index.upsert("facts", [p])

    assert await index.set_active("facts", user_id=user_id, ids=[p.id], active=False) == 1
    assert await index.search("facts", user_id=user_id, text="Porto") == []
    hidden = await index.search("facts", user_id=user_id, text="Porto", include_inactive=True)
    assert ids(hidden) == {p.id} and hidden[0].payload["active"] is False
    assert await index.count("facts", user_id=user_id) == 1

    assert await index.set_active("facts", user_id=user_id, ids=[p.id], active=True) == 1
    assert ids(await index.search("facts", user_id=user_id, text="Porto")) == {p.id}


async def test_inactive_points_are_hidden_from_the_start(index, user_id):
    await index.upsert("facts", [point(user_id, "an outdated fact about Porto", active=False)])

    assert await index.search("facts", user_id=user_id, text="Porto") == []


# --- Edge: writes ------------------------------------------------------------------------------


async def test_upsert_is_idempotent_by_id_and_the_last_write_wins(index, user_id):
    pid = str(uuid.uuid4())
    await index.upsert("episodes", [point(user_id, "first draft", id=pid)])
    await index.upsert("episodes", [point(user_id, "final version", id=pid.upper())])

    assert await index.count("episodes", user_id=user_id) == 1
    assert ids(await index.search("episodes", user_id=user_id, text="final")) == {pid}
    assert await index.search("episodes", user_id=user_id, text="draft") == []


async def test_hard_delete_by_ids_takes_only_those(index, user_id):
    keep, drop = point(user_id, "keep me"), point(user_id, "drop me")
    await index.upsert("knowledge", [keep, drop])

    assert await index.delete("knowledge", user_id=user_id, ids=[drop.id]) == 1
    assert await index.delete("knowledge", user_id=user_id, ids=[]) == 0
    assert await index.count("knowledge", user_id=user_id) == 1


async def test_deleting_an_agent_takes_its_own_points_and_leaves_global_ones(index, user_id):
    shared = point(user_id, "global fact", scope="global", agent_id="coach")
    mine = point(user_id, "coach note", scope="agent", agent_id="coach")
    theirs = point(user_id, "other note", scope="agent", agent_id="accountant")
    await index.upsert("facts", [shared, mine, theirs])

    assert await index.delete("facts", user_id=user_id, agent_id="coach") == 1
    assert await index.delete("facts", user_id=f"{user_id}-other", agent_id="accountant") == 0
    assert await index.count("facts", user_id=user_id) == 2


async def test_points_and_payload_indexes_survive_close_and_reopen(tmp_path):
    path = tmp_path / "qdrant"
    first = EdgeVectorIndex(path, dim=DIM)
    p = point("u1", "persisted across restarts")
    await first.upsert("episodes", [p])
    await first.close()

    second = EdgeVectorIndex(path, dim=DIM)
    try:
        assert ids(await second.search("episodes", user_id="u1", text="restarts")) == {p.id}
        await second.optimize()
        assert await second.count("episodes", user_id="u1") == 1
    finally:
        await second.close()

    shard = qdrant_edge.EdgeShard.load(str(path / "episodes"))
    try:
        indexed = set(shard.info().payload_schema)
    finally:
        shard.close()
    assert {"user_id", "agent_id", "scope", "entity_ids", "active"} <= indexed


async def test_new_shards_store_float16_and_old_float32_shards_convert_in_place(
    tmp_path, monkeypatch
):
    from services.core.vectors import edge, edge_f16

    monkeypatch.setattr(edge, "NEW_SHARD_DATATYPE", "float32")  # a shard from before
    old = EdgeVectorIndex(tmp_path, dim=DIM)
    user = "u-f16"
    points = [
        point(
            user,
            f"the trip to Porto, day {i}" + (" xylophone" if i == 6 else ""),
            scope="agent",
            agent_id="coach",
            entity_ids=(f"e{i % 3}",),
            day=f"2025-03-{i + 1:02d}",
        )
        for i in range(30)
    ]
    await old.upsert("episodes", points)
    # dense only: the texts tie on BM25, and tied fused scores may come in either order
    query = {
        "user_id": user,
        "agent_id": "coach",
        "dense": points[4].dense,
        "limit": 5,
        "entity_ids": ["e1"],
    }
    before = await old.search("episodes", **query)
    await old.close()
    assert edge.stored_datatype(tmp_path / "episodes" / "edge_config.json") == "float32"

    assert edge_f16.convert(tmp_path) == {"episodes": 30}

    assert edge.stored_datatype(tmp_path / "episodes" / "edge_config.json") == "float16"
    assert edge_f16.convert(tmp_path) == {}  # done once
    monkeypatch.setattr(edge, "NEW_SHARD_DATATYPE", "float16")
    new = EdgeVectorIndex(tmp_path, dim=DIM)
    try:
        after = await new.search("episodes", **query)
        assert await new.count("episodes", user_id=user) == 30
        assert [h.id for h in after] == [h.id for h in before]
        assert (
            await new.search("episodes", user_id=user, agent_id="coach", text="xylophone", limit=1)
        )[0].id == points[6].id  # BM25 vectors came along
        by_id = {h.id: h for h in before}
        for hit in after:
            assert hit.similarity == pytest.approx(by_id[hit.id].similarity, abs=5e-3)
            assert hit.payload == by_id[hit.id].payload
        await new.upsert("facts", [point(user, "a fact")])  # a collection made now: float16
        assert edge.stored_datatype(tmp_path / "facts" / "edge_config.json") == "float16"
    finally:
        await new.close()


async def test_a_shard_belongs_to_one_index_at_a_time(tmp_path):
    owner = EdgeVectorIndex(tmp_path / "qdrant", dim=DIM)
    await owner.ensure_collections()
    intruder = EdgeVectorIndex(tmp_path / "qdrant", dim=DIM)
    try:
        with pytest.raises(VectorIndexUnavailable, match="episodes"):
            await intruder.ensure_collections()
    finally:
        await intruder.close()
        await owner.close()


async def test_a_closed_index_is_unavailable(tmp_path):
    ix = EdgeVectorIndex(tmp_path / "qdrant", dim=DIM)
    await ix.ping()
    await ix.close()

    with pytest.raises(VectorIndexUnavailable):
        await ix.ping()
    with pytest.raises(VectorIndexUnavailable):
        await ix.count("episodes", user_id="u1")


async def test_reopening_with_another_dimension_is_refused(tmp_path):
    ix = EdgeVectorIndex(tmp_path / "qdrant", dim=DIM)
    await ix.ensure_collections()
    await ix.close()

    wider = EdgeVectorIndex(tmp_path / "qdrant", dim=DIM * 2)
    with pytest.raises(VectorIndexUnavailable, match="vector size"):
        await wider.ensure_collections()
    await wider.close()


async def test_callers_mistakes_are_value_errors(index, user_id):
    with pytest.raises(ValueError, match="UUID"):
        point(user_id, "x", id="row-42")
    with pytest.raises(ValueError, match="agent_id"):
        point(user_id, "x", scope="agent")
    with pytest.raises(ValueError, match="lacks"):
        VectorPoint(str(uuid.uuid4()), dense_for("x"), "x", {"user_id": user_id})
    with pytest.raises(ValueError, match="plaintext"):  # the index files never hold a text
        VectorPoint(
            str(uuid.uuid4()),
            dense_for("x"),
            "x",
            {
                "user_id": user_id,
                "agent_id": None,
                "scope": "global",
                "entity_ids": [],
                "active": True,
                "text": "Locker code word is plover",
            },
        )
    with pytest.raises(ValueError, match="expects 16"):
        await index.upsert("episodes", [point(user_id, "x", dense=[1.0, 0.0])])
    with pytest.raises(ValueError, match="collection"):
        await index.count("memories", user_id=user_id)
    with pytest.raises(ValueError, match="user_id"):
        await index.search("episodes", user_id="", text="x")
    with pytest.raises(ValueError, match="dense vector, a text"):
        await index.search("episodes", user_id=user_id)


def test_bm25_vectors_are_the_same_from_any_encoder():
    text = "Marta's new job starts on Monday"
    first, second = SparseEncoder().document(text), SparseEncoder().document(text)

    assert first.indices == second.indices and first.values == second.values


def test_open_vector_index_picks_the_server_when_a_url_is_set(tmp_path):
    assert isinstance(
        open_vector_index(path=tmp_path, url=None, api_key=None, dim=DIM), EdgeVectorIndex
    )
    server = open_vector_index(path=tmp_path, url="http://qdrant.test:6333", api_key=None, dim=DIM)
    assert type(server).__name__ == "ServerVectorIndex"


# --- Server adapter: the requests it sends -----------------------------------------------------

QDRANT = "http://qdrant.test:6333"


def _ok(result: Any) -> httpx.Response:
    return httpx.Response(200, json={"result": result, "status": "ok", "time": 0.0001})


@pytest.fixture
async def server():
    ix = open_vector_index(path=None, url=QDRANT, api_key=None, dim=DIM)
    yield ix
    await ix.close()


def _must_keys(flt: dict) -> list:
    return [c.get("key") for c in flt["must"]]


@respx.mock(base_url=QDRANT, assert_all_called=True)
async def test_server_search_sends_the_user_filter_everywhere(respx_mock, server):
    near_id, lexical_id = str(uuid.uuid4()), str(uuid.uuid4())
    batch = respx_mock.post("/collections/episodes/points/query/batch").mock(
        return_value=_ok(
            [
                {"points": [{"id": near_id, "version": 1, "score": 0.8}]},
                {"points": [{"id": lexical_id, "version": 1, "score": 7.5}]},
                {"points": [{"id": lexical_id, "version": 1, "score": 0.3}]},
            ]
        )
    )
    details = respx_mock.post("/collections/episodes/points/query").mock(
        return_value=_ok(
            {
                "points": [
                    {
                        "id": i,
                        "version": 1,
                        "score": s,
                        "payload": {"user_id": "u1", "_active": "true"},
                    }
                    for i, s in ((near_id, 0.8), (lexical_id, 0.3))
                ]
            }
        )
    )

    hits = await server.search(
        "episodes", user_id="u1", dense=dense_for("q"), text="Marta", agent_id="coach"
    )

    searches = json.loads(batch.calls.last.request.content)["searches"]
    user = {"key": "user_id", "match": {"value": "u1"}}
    assert [s["using"] for s in searches] == ["dense", "bm25", "dense"]
    lexical = searches[2]["prefetch"][0]  # the lexical points again, scored by cosine
    assert lexical["using"] == "bm25" and lexical["filter"] == searches[1]["filter"]
    assert all(s["filter"]["must"][0] == user for s in [*searches[:2], lexical])
    assert searches[1]["params"]["idf"]["corpus"]["must"][0] == user
    assert lexical["params"] == searches[1]["params"]
    follow_up = json.loads(details.calls.last.request.content)["filter"]["must"]
    assert set(follow_up[0]["has_id"]) == {near_id, lexical_id}
    assert follow_up[1] == searches[0]["filter"]  # the user's filter rides along
    # equal fused scores (both rank 0): the higher cosine first, each cosine from the engine
    assert [(h.id, h.similarity) for h in hits] == [(near_id, 0.8), (lexical_id, 0.3)]
    assert hits[0].payload == {"user_id": "u1"}


@respx.mock(base_url=QDRANT, assert_all_called=True)
async def test_server_hybrid_search_of_ids_only_is_one_request(respx_mock, server):
    ids_ = [str(uuid.uuid4()) for _ in range(2)]
    respx_mock.post("/collections/facts/points/query/batch").mock(
        return_value=_ok(
            [
                {
                    "points": [
                        {"id": i, "version": 1, "score": 0.9 - n / 10} for n, i in enumerate(ids_)
                    ]
                },
                {"points": [{"id": ids_[1], "version": 1, "score": 2.0}]},
                {"points": [{"id": ids_[1], "version": 1, "score": 0.8}]},
            ]
        )
    )

    hits = await server.search(
        "facts", user_id="u1", dense=dense_for("q"), text="Marta", limit=2, payload=()
    )

    assert [h.id for h in hits] == [ids_[1], ids_[0]]  # in both rankings beats dense rank 0
    assert [h.similarity for h in hits] == pytest.approx([0.8, 0.9])
    assert all(h.payload == {} for h in hits)


@respx.mock(base_url=QDRANT, assert_all_called=True)
async def test_server_search_with_shared_asks_for_the_user_or_the_shared_owner(respx_mock, server):
    batch = respx_mock.post("/collections/knowledge/points/query/batch").mock(
        return_value=_ok([{"points": []}, {"points": []}, {"points": []}])
    )

    await server.search(
        "knowledge",
        user_id="u1",
        dense=dense_for("q"),
        text="sleep",
        agent_id="coach",
        agent_only=True,
        with_shared=True,
    )

    searches = json.loads(batch.calls.last.request.content)["searches"]
    owners = {"key": "user_id", "match": {"any": ["u1", SHARED_OWNER]}}
    lexical = searches[2]["prefetch"][0]
    assert all(s["filter"]["must"][0] == owners for s in [*searches[:2], lexical])
    assert searches[1]["params"]["idf"]["corpus"]["must"][0] == owners
    assert lexical["params"]["idf"]["corpus"]["must"][0] == owners


@respx.mock(base_url=QDRANT, assert_all_called=True)
async def test_server_delete_is_guarded_by_the_user(respx_mock, server):
    count = respx_mock.post("/collections/facts/points/count").mock(return_value=_ok({"count": 1}))
    delete = respx_mock.post("/collections/facts/points/delete").mock(
        return_value=_ok({"operation_id": 1, "status": "completed"})
    )
    pid = str(uuid.uuid4())

    assert await server.delete("facts", user_id="u1", ids=[pid]) == 1

    sent = json.loads(delete.calls.last.request.content)["filter"]
    assert sent == json.loads(count.calls.last.request.content)["filter"]
    assert _must_keys(sent)[0] == "user_id" and sent["must"][1] == {"has_id": [pid]}


@respx.mock(base_url=QDRANT)
async def test_server_connection_errors_become_unavailability(respx_mock, server):
    respx_mock.route().mock(side_effect=httpx.ConnectError("connection refused"))

    with pytest.raises(VectorIndexUnavailable) as caught:
        await server.search("episodes", user_id="u1", text="Marta")
    with pytest.raises(VectorIndexUnavailable):
        await server.ping()
    assert caught.value.dependency == "vectors"
