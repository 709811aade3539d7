"""``POST /v1/forget``: scoped, soft or hard, and gone from Postgres, the vectors and Redis."""

from __future__ import annotations

import uuid

import httpx
import pytest

from services.core.deps import Clients
from services.core.memory_store.episode_index import EpisodeRow, embedding_text, vector_payload
from services.core.vectors import VectorPoint
from services.reflection_writer.store import insert_episode
from tests.memory_upserter.conftest import AGENT, T0, commit, fact, later, rows, turn

MARTA_PLAN = {
    "entities": [
        {"name": "Marta", "category": "Person", "aliases": ["Martinha"]},
        {"name": "Lisbon", "category": "Location"},
    ],
    "facts": [
        fact(
            "HAS_SISTER",
            "Marta is the user's sister",
            obj="Marta",
            memory_type="PEOPLE",
            fact_type="relationship",
        ),
        fact(
            "LIVES_IN", "Marta lives in Lisbon", subject="Marta", obj="Lisbon", memory_type="PEOPLE"
        ),
        fact("LIKES", "User likes surfing", value="surfing"),
    ],
    "todos": [{"kind": "COMMITMENT", "text": "Call Marta", "due": "tomorrow"}],
}


async def remember_marta(client: httpx.AsyncClient, resources: Clients, user_id: str) -> dict:
    """A turn about Marta, and an episode that names her (written by reflection-writer's
    writer, its vector built as it builds one)."""
    answer = await commit(
        client,
        turn(
            user_id,
            "My sister Marta lives in Lisbon. I'll call her tomorrow. I like surfing.",
            plan=MARTA_PLAN,
        ),
    )
    marta = answer["entities"][0]["entity_id"]
    row = EpisodeRow(
        episode_id=str(uuid.uuid4()),
        user_id=user_id,
        agent_id=AGENT,
        chat_id=None,  # type: ignore[arg-type]  # an episode of no session: only Marta ties it
        session_id=None,  # type: ignore[arg-type]
        ts=T0,
        day=T0.date(),
        importance=0.5,
        reflection="Talked about Marta and her move.",
        reflection_json={},
        summary={},
        entity_ids=[marta],
        tags=[],
        first_message_seq=1,
        last_message_seq=2,
        provenance={"message_ids": []},
        previous_episode_id=None,
        text=embedding_text("", "Talked about Marta and her move."),
    )
    async with resources.db.acquire() as conn:  # reflection-writer's writer of an episode
        assert await insert_episode(conn, row, T0)
    (dense,) = await resources.embedder.embed([row.text])
    point = VectorPoint(id=row.episode_id, dense=dense, text=row.text, payload=vector_payload(row))
    await resources.vectors.upsert("episodes", [point])
    episode = row.episode_id
    return {**answer, "marta": marta, "episode": episode}


async def forget(client: httpx.AsyncClient, status: int = 200, **body) -> dict:
    response = await client.post("/v1/forget", json=body)
    assert response.status_code == status, response.text
    return response.json()


async def test_a_soft_forget_of_an_entity_hides_it_from_every_retrieval_path(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    memory = await remember_marta(client, resources, user_id)
    answer = await forget(
        client,
        user_id=user_id,
        scope="global",
        targets=[{"entity": "martinha"}],
        reason="user asked",
    )
    counts = answer["counts"]
    assert (
        counts["facts"],
        counts["entities"],
        counts["aliases"],
        counts["todos"],
        counts["episodes"],
        counts["facts_vectors"],
        counts["episodes_vectors"],
        counts["working_memory"],
    ) == (2, 1, 1, 1, 1, 2, 1, 1)
    # the turn is not forgotten: its sentences about Marta are
    assert counts["messages_redacted"] == 1 and "messages" not in counts
    assert answer["entity_ids"] == [memory["marta"]]
    (said,) = await rows(
        resources, "SELECT text, active FROM messages WHERE user_id = $1 AND position = 0", user_id
    )
    assert said == {"text": "I like surfing.", "active": True}
    facts = await rows(
        resources,
        "SELECT text, status, forgotten_at, forget_reason, indexed_at "
        "FROM relations WHERE user_id = $1 ORDER BY text",
        user_id,
    )
    assert [(f["text"], f["status"]) for f in facts] == [
        ("Marta is the user's sister", "FORGOTTEN"),
        ("Marta lives in Lisbon", "FORGOTTEN"),
        ("User likes surfing", "ACTIVE"),
    ]
    assert all(f["forget_reason"] == "user asked" and f["indexed_at"] for f in facts[:2])
    (marta,) = await rows(
        resources,
        "SELECT active, forgotten_at FROM entities WHERE entity_id = $1::uuid",
        memory["marta"],
    )
    assert marta["active"] is False and marta["forgotten_at"] is not None
    assert await rows(resources, "SELECT 1 FROM todos WHERE user_id = $1 AND active", user_id) == []
    for collection, query in (("facts", "Marta sister Lisbon"), ("episodes", "Marta")):
        live = await resources.vectors.search(
            collection, user_id=user_id, agent_id=AGENT, text=query, limit=10
        )
        assert not {h.id for h in live} & {
            f["fact_id"] for f in memory["facts"] if "Marta" in f["text"]
        }
        assert memory["episode"] not in {h.id for h in live}
    state, _ = await resources.memory.load(user_id, AGENT, "tg:1")
    assert memory["marta"] not in state.active_entity_ids
    assert [t.text for t in state.turns][:1] == ["I like surfing."]  # Marta cut out of it


async def test_a_hard_forget_deletes_rows_vectors_and_keys_and_audits_only_ids(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    memory = await remember_marta(client, resources, user_id)
    answer = await forget(
        client,
        user_id=user_id,
        scope="global",
        hard=True,
        targets=[{"entity": "Marta"}],
        reason="gdpr",
    )
    assert answer["hard"] and answer["counts"]["facts"] == 2
    assert await rows(resources, "SELECT text FROM relations WHERE user_id = $1", user_id) == [
        {"text": "User likes surfing"}
    ]
    assert (
        await rows(resources, "SELECT 1 FROM entities WHERE entity_id = $1::uuid", memory["marta"])
        == []
    )
    assert (
        await rows(
            resources, "SELECT 1 FROM entity_aliases WHERE entity_id = $1::uuid", memory["marta"]
        )
        == []
    )
    assert await rows(resources, "SELECT 1 FROM episodes WHERE user_id = $1", user_id) == []
    every = await resources.vectors.search(
        "facts", user_id=user_id, text="Marta sister Lisbon", include_inactive=True, limit=10
    )
    assert {f["fact_id"] for f in memory["facts"][:2]}.isdisjoint(h.id for h in every)
    assert (
        await resources.vectors.search(
            "episodes", user_id=user_id, agent_id=AGENT, text="Marta", include_inactive=True
        )
        == []
    )
    state, _ = await resources.memory.load(user_id, AGENT, "tg:1")
    assert state is not None and "marta" not in repr(state.turns).lower()
    assert state.turns[0].text == "I like surfing."
    audit = await rows(
        resources,
        "SELECT target_kind, target_ids, reason, hard, counts::text "
        "FROM forget_log WHERE user_id = $1 ORDER BY target_kind",
        user_id,
    )
    assert {a["target_kind"] for a in audit} == {"fact", "todo", "episode", "entity"}
    assert all(a["hard"] and a["reason"] == "gdpr" for a in audit)
    assert "marta" not in repr(audit).lower() and "lisbon" not in repr(audit).lower()
    assert sorted(str(i) for i in answer["forget_ids"]) == sorted(
        r["forget_id"]
        for r in await rows(
            resources, "SELECT forget_id::text FROM forget_log WHERE user_id = $1", user_id
        )
    )


async def test_the_agent_scope_reaches_only_that_agents_own_memory(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    memory = await remember_marta(client, resources, user_id)
    agent_fact = {
        "facts": [
            fact(
                "DIET_PLAN",
                "Marta follows the low-carb plan",
                subject="Marta",
                value="low-carb",
                scope="agent",
                memory_type="PEOPLE",
            )
        ],
        "todos": [{"kind": "THREAD", "text": "Ask Marta about the plan"}],
    }
    await commit(client, turn(user_id, "Marta is on low-carb", plan=agent_fact, at=later(1)))
    await commit(
        client,
        turn(
            user_id,
            "Marta visits",
            agent_id="anaketa",
            at=later(2),
            plan={"todos": [{"kind": "THREAD", "text": "Plan Marta's visit"}]},
        ),
    )
    answer = await forget(
        client, user_id=user_id, scope="agent", agent_id=AGENT, targets=[{"entity": "Marta"}]
    )
    assert (answer["counts"]["facts"], answer["counts"]["entities"]) == (1, 0)
    live = await rows(
        resources, "SELECT text FROM relations WHERE user_id = $1 AND active ORDER BY text", user_id
    )
    assert [r["text"] for r in live] == [
        "Marta is the user's sister",
        "Marta lives in Lisbon",
        "User likes surfing",
    ]
    todos = await rows(
        resources, "SELECT agent_id, text FROM todos WHERE user_id = $1 AND active", user_id
    )
    assert todos == [{"agent_id": "anaketa", "text": "Plan Marta's visit"}]
    (marta,) = await rows(
        resources, "SELECT active FROM entities WHERE entity_id = $1::uuid", memory["marta"]
    )
    assert marta["active"] is True


async def test_the_session_scope_clears_the_chat_and_optionally_its_history(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await commit(client, turn(user_id, "hello", chat_id="tg:7"))
    await commit(client, turn(user_id, "other chat", chat_id="tg:8"))
    first = await forget(client, user_id=user_id, scope="session", agent_id=AGENT, chat_id="tg:7")
    assert first["counts"]["working_memory"] == 1
    assert await resources.memory.load(user_id, AGENT, "tg:7") == (None, None)
    assert (await resources.memory.load(user_id, AGENT, "tg:8"))[0] is not None
    assert (
        len(await rows(resources, "SELECT 1 FROM messages WHERE user_id = $1 AND active", user_id))
        == 4
    )
    await forget(
        client,
        user_id=user_id,
        scope="session",
        agent_id=AGENT,
        chat_id="tg:7",
        include_history=True,
    )
    live = await rows(
        resources, "SELECT chat_id FROM messages WHERE user_id = $1 AND active", user_id
    )
    assert {m["chat_id"] for m in live} == {"tg:8"}


async def test_forgetting_one_users_marta_leaves_anothers_intact(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    other = user_id + "-b"
    await remember_marta(client, resources, user_id)
    theirs = await remember_marta(client, resources, other)
    await forget(
        client,
        user_id=user_id,
        scope="global",
        hard=True,
        targets=[{"entity": "Marta"}, {"text": "surfing"}],
    )
    facts = await rows(resources, "SELECT status FROM relations WHERE user_id = $1", other)
    assert [f["status"] for f in facts] == ["ACTIVE"] * 3
    (marta,) = await rows(
        resources, "SELECT active FROM entities WHERE entity_id = $1::uuid", theirs["marta"]
    )
    assert marta["active"]
    hits = await resources.vectors.search(
        "facts", user_id=other, text="Marta sister Lisbon", limit=10
    )
    assert len(hits) >= 2 and all(h.payload["active"] for h in hits)
    episodes = await resources.vectors.search(
        "episodes", user_id=other, agent_id=AGENT, text="Marta"
    )
    assert [h.id for h in episodes] == [theirs["episode"]]
    state, _ = await resources.memory.load(other, AGENT, "tg:1")
    assert theirs["marta"] in state.active_entity_ids and len(state.turns) == 2


async def test_forgetting_by_fact_id_and_by_text(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    memory = await remember_marta(client, resources, user_id)
    surfing = memory["facts"][2]["fact_id"]
    by_id = await forget(client, user_id=user_id, scope="global", targets=[{"fact_id": surfing}])
    assert by_id["counts"]["facts"] == 1
    by_text = await forget(client, user_id=user_id, scope="global", targets=[{"text": "LISBON"}])
    assert by_text["counts"]["facts"] == 1
    live = await rows(
        resources, "SELECT text FROM relations WHERE user_id = $1 AND active", user_id
    )
    assert live == [{"text": "Marta is the user's sister"}]


@pytest.mark.parametrize(
    "body, paths",
    [
        ({"scope": "global"}, {"$.targets"}),
        ({"scope": "agent", "targets": [{"text": "x y"}]}, {"$.agent_id"}),
        ({"scope": "session", "agent_id": AGENT}, {"$.chat_id"}),
        (
            {
                "scope": "global",
                "targets": [{"entity": "Marta", "text": "Marta"}, {"fact_id": "42"}],
            },
            {"$.targets[0]", "$.targets[1].fact_id"},
        ),
        ({"scope": "everywhere", "everything": True}, {"$.scope"}),
    ],
)
async def test_a_forget_that_names_nothing_clearly_is_refused(
    client: httpx.AsyncClient, user_id: str, body: dict, paths: set
) -> None:
    answer = await forget(client, 422, user_id=user_id, **body)
    assert {e["path"] for e in answer["errors"]} == paths


async def test_forgetting_everything_hard_removes_the_user_and_keeps_the_audit(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await remember_marta(client, resources, user_id)
    answer = await forget(client, user_id=user_id, scope="global", everything=True, hard=True)
    assert answer["counts"]["facts"] == 3 and answer["counts"]["facts_vectors"] == 3
    assert await rows(resources, "SELECT 1 FROM users WHERE user_id = $1", user_id) == []
    assert await resources.vectors.count("facts", user_id=user_id) == 0
    assert await resources.vectors.count("episodes", user_id=user_id) == 0
    assert await resources.memory.keys_of(user_id) == []
    (audit,) = await rows(
        resources, "SELECT target_kind FROM forget_log WHERE user_id = $1", user_id
    )
    assert audit == {"target_kind": "all"}


async def test_forgetting_everything_of_one_agent_keeps_the_other_agents_and_global_memory(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await remember_marta(client, resources, user_id)
    await commit(
        client,
        turn(
            user_id,
            "keto for coaching",
            at=later(1),
            plan={
                "facts": [
                    fact("DIET_PLAN", "User follows keto with Deanna", value="keto", scope="agent")
                ]
            },
        ),
    )
    await commit(
        client,
        turn(
            user_id,
            "hi",
            agent_id="anaketa",
            at=later(2),
            plan={"todos": [{"kind": "THREAD", "text": "Plan the trip"}]},
        ),
    )
    answer = await forget(client, user_id=user_id, scope="agent", agent_id=AGENT, everything=True)
    assert answer["counts"]["facts"] == 1 and answer["counts"]["todos"] == 1
    live = await rows(
        resources, "SELECT count(*) AS n FROM relations WHERE user_id = $1 AND active", user_id
    )
    assert live == [{"n": 3}]
    todos = await rows(
        resources, "SELECT agent_id FROM todos WHERE user_id = $1 AND active", user_id
    )
    assert todos == [{"agent_id": "anaketa"}]
    assert await resources.memory.keys_of(user_id, AGENT) == []
    assert await resources.memory.keys_of(user_id, "anaketa") != []
