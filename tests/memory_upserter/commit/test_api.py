"""``POST /v1/commit`` through the app: the turn in Postgres, the vector index and Redis."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import httpx
import msgspec
import pytest

from contracts.slots import SessionState
from services.core.app import create_app
from services.core.deps import Clients
from services.core.settings import Settings
from services.core.stores import open_redis
from services.core.vectors import EdgeVectorIndex
from services.memory_upserter.app import SPEC
from tests.memory_upserter.conftest import AGENT, T0, commit, fact, later, rows, turn

SISTER_PLAN = {
    "entities": [
        {"name": "Marta", "category": "Person"},
        {"name": "Lisbon", "category": "Location"},
    ],
    "facts": [
        fact(
            "HAS_SISTER",
            "Marta is the user's sister",
            obj="Marta",
            memory_type="PEOPLE",
            fact_type="relationship",
            importance=2,
        ),
        fact(
            "LIVES_IN", "Marta lives in Lisbon", subject="Marta", obj="Lisbon", memory_type="PEOPLE"
        ),
    ],
    "todos": [{"kind": "COMMITMENT", "text": "Call Marta", "due": "tomorrow"}],
}


async def test_a_turn_is_logged_in_its_session_and_in_working_memory(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    answer = await commit(client, turn(user_id, "hello there", reply="Hi! How are you?"))
    assert answer["reply"] == "Hi! How are you?" and answer["new_session"] is True
    assert answer["plan_source"] == "offline_extractor" and answer["warnings"] == []
    logged = await rows(
        resources,
        "SELECT message_id::text, position, role, text, ts, session_id"
        "::text FROM messages WHERE user_id = $1 ORDER BY position",
        user_id,
    )
    assert [(m["position"], m["role"]) for m in logged] == [(0, "user"), (1, "assistant")]
    assert [m["message_id"] for m in logged] == answer["message_ids"]
    assert {m["session_id"] for m in logged} == {answer["session_id"]}
    (session,) = await rows(
        resources,
        "SELECT turn_count, last_message_seq, ended_at, "
        "last_activity_at FROM sessions WHERE user_id = $1",
        user_id,
    )
    assert session["turn_count"] == 1 and session["ended_at"] is None
    assert session["last_activity_at"] == T0 and session["last_message_seq"] is not None
    state, _ = await resources.memory.load(user_id, AGENT, "tg:1")
    assert [(t.role, t.text, t.message_id) for t in state.turns] == [
        ("user", "hello there", answer["message_ids"][0]),
        ("assistant", "Hi! How are you?", answer["message_ids"][1]),
    ]


async def test_a_plan_writes_entities_facts_and_todos_and_indexes_the_facts(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    text = "My sister Marta lives in Lisbon. I'll call her tomorrow."
    answer = await commit(client, turn(user_id, text, plan=SISTER_PLAN))
    assert [(e["name"], e["entity_ref"], e["outcome"]) for e in answer["entities"]] == [
        ("Marta", "person:marta", "created"),
        ("Lisbon", "place:lisbon", "created"),
    ]
    assert [(f["predicate"], f["memory_key"], f["outcome"]) for f in answer["facts"]] == [
        ("HAS_SISTER", "people|person|self|relationship|has_sister|marta", "created"),
        ("LIVES_IN", "people|person|marta|fact|lives_in", "created"),
    ]
    (todo,) = answer["todos"]
    assert (todo["kind"], todo["text"], todo["due_at"], todo["outcome"]) == (
        "COMMITMENT",
        "Call Marta",
        "2026-01-08T09:00:00Z",
        "created",
    )
    assert todo["source_snippet"] == "I'll call her tomorrow."
    stored = await rows(
        resources,
        "SELECT source, importance, provenance_message_ids, "
        "indexed_at, valid_from FROM relations WHERE user_id = $1",
        user_id,
    )
    assert {r["source"] for r in stored} == {"llm_plan"}
    assert all(r["provenance_message_ids"] == [answer["message_ids"][0]] for r in stored)
    assert all(r["indexed_at"] is not None and r["valid_from"] == T0 for r in stored)
    hits = await resources.vectors.search("facts", user_id=user_id, text="Marta Lisbon", limit=5)
    by_id = {h.id: h.payload for h in hits}
    lives = by_id[answer["facts"][1]["fact_id"]]
    marta = answer["entities"][0]["entity_id"]
    assert lives["entity_ids"] == [marta, answer["entities"][1]["entity_id"]]
    assert (lives["agent_id"], lives["scope"], lives["active"], lives["memory_type"]) == (
        None,
        "global",
        True,
        "PEOPLE",
    )
    assert lives["ts"] == int(T0.timestamp()) and lives["message_ids"] == [answer["message_ids"][0]]
    state, _ = await resources.memory.load(user_id, AGENT, "tg:1")
    assert set(state.active_entity_ids) == {e["entity_id"] for e in answer["entities"]}


async def test_a_retried_turn_writes_nothing_new_and_answers_the_same(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    body = turn(user_id, "My sister Marta lives in Lisbon.", plan=SISTER_PLAN)
    first = await client.post("/v1/commit", json=body)
    again = await client.post("/v1/commit", json=body)
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert "idempotent-replayed" not in first.headers
    counts = await rows(
        resources,
        """SELECT (SELECT count(*) FROM messages WHERE user_id = $1)
        AS messages, (SELECT count(*) FROM relations WHERE user_id = $1) AS facts,
        (SELECT count(*) FROM todos WHERE user_id = $1) AS todos,
        (SELECT turn_count FROM sessions WHERE user_id = $1) AS turns""",
        user_id,
    )
    assert counts == [{"messages": 2, "facts": 2, "todos": 1, "turns": 1}]


async def test_five_concurrent_copies_of_one_turn_write_once(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    body = turn(
        user_id,
        "My sister Marta lives in Lisbon. Remind me to water the plants tomorrow",
        plan=SISTER_PLAN,
    )
    answers = await asyncio.gather(*(client.post("/v1/commit", json=body) for _ in range(5)))
    assert {a.status_code for a in answers} == {200}
    assert len({json.dumps(a.json(), sort_keys=True) for a in answers}) == 1
    assert sum("idempotent-replayed" not in a.headers for a in answers) == 1
    counts = await rows(
        resources,
        """SELECT (SELECT count(*) FROM messages WHERE user_id = $1)
        AS messages, (SELECT count(*) FROM relations WHERE user_id = $1) AS facts,
        (SELECT count(*) FROM entities WHERE user_id = $1) AS entities""",
        user_id,
    )
    assert counts == [{"messages": 2, "facts": 2, "entities": 3}]  # Marta, Lisbon, me
    state, _ = await resources.memory.load(user_id, AGENT, "tg:1")
    assert len(state.turns) == 2


async def test_the_same_turn_id_with_another_body_is_a_409(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await commit(client, turn(user_id, "first words", turn_id="t-1"))
    response = await client.post("/v1/commit", json=turn(user_id, "other words", turn_id="t-1"))
    assert response.status_code == 409
    assert response.headers["content-type"].startswith("application/problem+json")
    assert "t-1" in response.json()["detail"]
    assert len(await rows(resources, "SELECT 1 FROM messages WHERE user_id = $1", user_id)) == 2


async def test_a_plan_with_bad_parts_stores_the_turn_the_good_facts_and_warns_each_path(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    said = "I live in Lisbon, I work at Acme, I play guitar, my dog Pixel is with me since 2019"
    plan = {
        "facts": [
            fact("LIVES_IN", "User lives in Lisbon", obj="Lisbon", memory_type="PERSONAL"),
            fact("WORKS_AT", "User works at Acme", obj="Acme", importance=7),
            fact("THING", "an open loop", value="x", memory_type="OPEN_LOOP"),
            fact("plays instrument", "User plays guitar", value="guitar"),
            fact("HAS_DOG", "User has a dog, Pixel", value="Pixel", valid_from="2019"),
            fact("HAS_PET", "User has a dog", value="dog", valid_to="whenever"),
            "not a fact",
        ],
        "todos": [{"kind": "CHORE", "text": "x"}],
        "mood": "chatty",
    }
    body = turn(user_id, said, plan=plan)
    answer = await commit(client, body)
    assert {(f["predicate"], f["outcome"]) for f in answer["facts"]} == {
        ("LIVES_IN", "created"),
        ("WORKS_AT", "created"),
        ("PLAYS_INSTRUMENT", "created"),
        ("HAS_DOG", "created"),
        ("HAS_PET", "created"),
    }
    dog = next(f for f in answer["facts"] if f["predicate"] == "HAS_DOG")
    assert dog["valid_from"].startswith("2019-01-01")
    warned = {w["detail"].split(": ", 1)[0]: w["code"] for w in answer["warnings"]}
    assert {k: v for k, v in warned.items() if k.startswith("$.plan")} == {
        "$.plan.facts[0].memory_type": "plan_repaired",
        "$.plan.facts[1].importance": "plan_repaired",
        "$.plan.facts[2].memory_type": "plan_part_dropped",
        "$.plan.facts[3].predicate": "plan_repaired",
        "$.plan.facts[4].value": "plan_repaired",  # the dog's name: HAS_DOG → Pixel (a Pet)
        "$.plan.facts[5].valid_to": "plan_field_dropped",
        "$.plan.facts[6]": "plan_part_dropped",
        "$.plan.todos[0].kind": "plan_repaired",  # an unknown kind: the default, kept
        "$.plan.mood": "plan_field_dropped",
    }
    logged = await rows(resources, "SELECT role FROM messages WHERE user_id = $1", user_id)
    assert sorted(r["role"] for r in logged) == ["assistant", "user"]
    stored = await rows(resources, "SELECT 1 FROM relations WHERE user_id = $1", user_id)
    assert len(stored) == 5
    again = await client.post("/v1/commit", json=body)  # the same body: the first answer
    assert again.status_code == 200 and again.json() == answer
    assert again.headers.get("idempotent-replayed") == "true"


async def test_what_the_flow_sends_wrong_is_still_a_4xx_naming_the_field(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    both = turn(user_id, "hi", plan={"facts": []}, answer=json.dumps({"reply": "x"}))
    response = await client.post("/v1/commit", json=both)
    assert response.status_code == 422
    assert [e["path"] for e in response.json()["errors"]] == ["$.answer"]
    bad_ids = turn("@nobody", "hi", plan={"facts": [fact("LIVES_IN", "x", obj="Lisbon")]})
    response = await client.post("/v1/commit", json={**bad_ids, "now": "0001-01-01T00:00:00Z"})
    assert response.status_code == 422
    assert {e["path"] for e in response.json()["errors"]} >= {"$.user_id"}
    not_an_object = turn(user_id, "hi", plan=None)
    response = await client.post("/v1/commit", json={**not_an_object, "plan": ["a", "list"]})
    assert response.status_code == 422
    assert [e["path"] for e in response.json()["errors"]] == ["$.plan"]
    assert await rows(resources, "SELECT 1 FROM users WHERE user_id = $1", user_id) == []
    assert await resources.memory.load(user_id, AGENT, "tg:1") == (None, None)


async def test_a_contradiction_closes_the_old_fact_with_a_link_and_deactivates_its_vector(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    lisbon = {"facts": [fact("LIVES_IN", "User lives in Lisbon", obj="Lisbon")]}
    porto = {"facts": [fact("LIVES_IN", "User lives in Porto", obj="Porto")]}
    first = await commit(client, turn(user_id, "I live in Lisbon", plan=lisbon))
    moved = await commit(client, turn(user_id, "I moved to Porto", plan=porto, at=later(5)))
    (old_fact,), (new_fact,) = first["facts"], moved["facts"]
    assert new_fact["outcome"] == "superseded_previous"
    assert new_fact["replaced_id"] == old_fact["fact_id"]
    (old,) = await rows(
        resources,
        "SELECT status, valid_to, superseded_by::text FROM relations WHERE rel_id = $1::uuid",
        old_fact["fact_id"],
    )
    assert old == {
        "status": "SUPERSEDED",
        "valid_to": later(5),
        "superseded_by": new_fact["fact_id"],
    }
    live = await resources.vectors.search("facts", user_id=user_id, text="lives", limit=5)
    assert [h.id for h in live] == [new_fact["fact_id"]]
    every = await resources.vectors.search(
        "facts", user_id=user_id, text="lives", limit=5, include_inactive=True
    )
    assert {h.id: h.payload["active"] for h in every} == {
        old_fact["fact_id"]: False,
        new_fact["fact_id"]: True,
    }


async def test_a_name_known_as_an_alias_joins_its_entity(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    first = await commit(
        client,
        turn(
            user_id,
            "Makesh is my cofounder",
            plan={
                "entities": [{"name": "Makesh", "aliases": ["Mukesh"]}],
                "facts": [
                    fact(
                        "HAS_COFOUNDER",
                        "Makesh is the user's cofounder",
                        obj="Makesh",
                        memory_type="PEOPLE",
                        fact_type="relationship",
                    )
                ],
            },
        ),
    )
    second = await commit(
        client,
        turn(
            user_id,
            "Mukesh moved to Pune",
            plan={
                "facts": [
                    fact(
                        "LIVES_IN",
                        "Mukesh lives in Pune",
                        subject="Mukesh",
                        obj="Pune",
                        memory_type="PEOPLE",
                    )
                ]
            },
        ),
    )
    makesh = first["entities"][0]["entity_id"]
    assert second["entities"][0] == {
        "entity_id": makesh,
        "name": "Makesh",
        "category": "Person",
        "entity_ref": "person:makesh",
        "outcome": "unchanged",
    }
    people = await rows(
        resources,
        "SELECT name FROM entities WHERE user_id = $1 AND category = 'Person' ORDER BY name",
        user_id,
    )
    assert [p["name"] for p in people] == ["Makesh", "me"]


async def test_a_goal_is_captured_at_once_with_its_sentence_and_returned(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    """002 hot path: no plan, no LLM — the offline judge catches it in the same request."""
    answer = await commit(
        client,
        turn(user_id, "Great. Remind me to call Mom tomorrow.", reply="Sure, I'll remind you."),
    )
    (todo,) = answer["todos"]
    assert (todo["kind"], todo["text"], todo["due_at"]) == (
        "REMINDER",
        "Call Mom",
        "2026-01-08T09:00:00Z",
    )
    (row,) = await rows(
        resources,
        "SELECT agent_id, source_snippet, source_message_id::text, "
        "session_id::text, status FROM todos WHERE user_id = $1",
        user_id,
    )
    assert row == {
        "agent_id": AGENT,
        "source_snippet": "Remind me to call Mom tomorrow.",
        "source_message_id": answer["message_ids"][0],
        "session_id": answer["session_id"],
        "status": "PENDING",
    }


async def test_a_commitment_is_completed_only_when_it_is_the_only_one_pending(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    one = {"todos": [{"kind": "COMMITMENT", "text": "Send the report"}]}
    await commit(client, turn(user_id, "I'll send the report today", plan=one))
    done = await commit(client, turn(user_id, "I'm done with it!", plan={}, at=later(1)))
    assert [c["text"] for c in done["completions"]] == ["Send the report"]
    two = {
        "todos": [
            {"kind": "COMMITMENT", "text": "Call the bank"},
            {"kind": "COMMITMENT", "text": "Book the dentist"},
        ]
    }
    await commit(
        client, turn(user_id, "I'll call the bank and book the dentist", plan=two, at=later(2))
    )
    ambiguous = await commit(
        client, turn(user_id, "Finished!", plan={"complete_commitment": True}, at=later(3))
    )
    assert ambiguous["completions"] == []
    assert [w["code"] for w in ambiguous["warnings"]] == ["commitment_not_completed"]
    statuses = await rows(
        resources,
        "SELECT text, status FROM todos WHERE user_id = $1 ORDER BY created_at, text",
        user_id,
    )
    assert [(s["text"], s["status"]) for s in statuses] == [
        ("Send the report", "DONE"),
        ("Book the dentist", "PENDING"),
        ("Call the bank", "PENDING"),
    ]


async def test_affect_becomes_a_fact_only_when_stated_and_promoted(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    mood = {"facts": [fact("FEELS", "User feels sad", value="sad")]}
    dropped = await commit(client, turn(user_id, "meh", plan=mood))
    assert dropped["facts"] == [] and dropped["warnings"][0]["code"] == "affect_fact_dropped"
    unstated = {"promote_affect": {"label": "anxious", "user_statement": "I feel anxious"}}
    ignored = await commit(client, turn(user_id, "the weather is nice", plan=unstated))
    assert ignored["facts"] == [] and ignored["warnings"][0]["code"] == "affect_not_promoted"
    stated = await commit(
        client, turn(user_id, "Honestly, I feel anxious about the move.", plan=unstated)
    )
    (promoted,) = stated["facts"]
    assert (promoted["predicate"], promoted["memory_type"]) == ("FEELS", "PROFILE")
    (row,) = await rows(
        resources,
        "SELECT importance, fact_type, object_value, valid_to FROM relations WHERE user_id = $1",
        user_id,
    )
    # a feeling is this week's, not who the person is: current for seven days, then history
    assert row == {
        "importance": 0,
        "fact_type": "fact",
        "object_value": "anxious",
        "valid_to": T0 + timedelta(days=7),
    }


async def test_the_llms_raw_answer_gives_the_plan_and_the_reply(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    answer = {"reply": "Noted, Marta is in Lisbon.", "plan": SISTER_PLAN}
    body = turn(
        user_id,
        "My sister Marta lives in Lisbon",
        reply=None,
        answer="```json\n" + json.dumps(answer) + "\n```",
    )
    out = await commit(client, body)
    assert out["reply"] == "Noted, Marta is in Lisbon." and out["plan_source"] == "answer"
    assert len(out["facts"]) == 2 and len(out["message_ids"]) == 2
    logged = await rows(
        resources, "SELECT role, text FROM messages WHERE user_id = $1 ORDER BY position", user_id
    )
    assert logged[1] == {"role": "assistant", "text": "Noted, Marta is in Lisbon."}
    sloppy = turn(
        user_id,
        "x",
        reply=None,
        answer=json.dumps({"reply": "", "plan": {"facts": [{"memory_type": "X"}]}}),
    )
    out = await commit(client, sloppy)  # no reply to log, no fact to keep: the turn still is
    assert out["reply"] is None and out["plan_source"] == "answer" and out["facts"] == []
    assert [w["code"] for w in out["warnings"]] == ["answer_without_reply", "plan_part_dropped"]
    assert len(out["message_ids"]) == 1
    words = turn(user_id, "I live in Porto now", reply=None, answer="Porto is lovely!")
    out = await commit(client, words)  # not JSON: the text is the reply, the judge the plan
    assert out["reply"] == "Porto is lovely!" and out["plan_source"] == "offline_extractor"
    assert out["warnings"][0]["code"] == "answer_not_json"
    assert len(out["message_ids"]) == 2


async def test_a_session_idle_past_the_gap_is_closed_and_a_new_one_opens(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    first = await commit(client, turn(user_id, "one"))
    same = await commit(client, turn(user_id, "two", at=later(29)))
    fresh = await commit(client, turn(user_id, "three", at=later(29 + 31)))
    assert same["session_id"] == first["session_id"] and not same["new_session"]
    assert fresh["session_id"] != first["session_id"] and fresh["new_session"]
    sessions = await rows(
        resources,
        "SELECT session_id::text, ended_at, turn_count FROM "
        "sessions WHERE user_id = $1 ORDER BY started_at",
        user_id,
    )
    assert sessions == [
        {"session_id": first["session_id"], "ended_at": later(59), "turn_count": 2},
        {"session_id": fresh["session_id"], "ended_at": None, "turn_count": 1},
    ]


async def test_the_working_memory_update_keeps_what_pulse_decay_counted(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await resources.memory.save(
        SessionState(
            user_id=user_id, agent_id=AGENT, chat_id="tg:1", msg_count=5, summary="earlier"
        )
    )
    scratch = {"topic_focus": "family", "pending_questions": ["Which Marta?"]}
    await commit(client, turn(user_id, "hi", scratch=scratch))
    state, _ = await resources.memory.load(user_id, AGENT, "tg:1")
    assert (state.msg_count, state.summary, state.scratch.topic_focus) == (5, "earlier", "family")
    assert len(state.turns) == 2


async def test_with_the_vector_index_down_the_turn_stands_and_reindex_repairs_it(
    settings: Settings,
    resources: Clients,
    app_client,
    client: httpx.AsyncClient,
    user_id: str,
    tmp_path,
) -> None:
    down = EdgeVectorIndex(tmp_path, dim=settings.embedding_dim)
    await down.close()
    broken = resources.replace(vectors=down)
    async with app_client(create_app(SPEC, settings, broken)) as degraded:
        answer = await commit(
            degraded,
            turn(
                user_id,
                "I live in Lisbon",
                plan={"facts": [fact("LIVES_IN", "User lives in Lisbon", obj="Lisbon")]},
            ),
        )
    assert [w["code"] for w in answer["warnings"]] == ["vectors_unindexed"]
    (row,) = await rows(resources, "SELECT indexed_at FROM relations WHERE user_id = $1", user_id)
    assert row["indexed_at"] is None
    swept = (await client.post("/v1/reindex", json={"user_id": user_id})).json()
    assert (swept["facts_indexed"], swept["remaining"]) == (1, False)
    assert swept["messages_indexed"] == 2  # both messages: raw-turn recall repaired too
    hits = await resources.vectors.search("facts", user_id=user_id, text="Lisbon")
    assert [h.id for h in hits] == [answer["facts"][0]["fact_id"]]
    hits = await resources.vectors.search(
        "messages", user_id=user_id, agent_id=AGENT, text="Lisbon"
    )
    # the user's message, then the reply (whose lexical half carries the message it answers)
    assert [h.id for h in hits] == answer["message_ids"]
    # swept later, the points still carry the entities the turn named (kept on the rows)
    lisbon = next(e["entity_id"] for e in answer["entities"] if e["name"] == "Lisbon")
    named = await rows(resources, "SELECT entity_ids FROM messages WHERE user_id = $1", user_id)
    assert [[str(i) for i in r["entity_ids"]] for r in named] == [[lisbon], [lisbon]]
    assert all(h.payload["entity_ids"] == [lisbon] for h in hits)


async def test_with_redis_down_the_turn_is_committed_with_a_warning(
    settings: Settings, resources: Clients, app_client, user_id: str
) -> None:
    no_redis = resources.replace(
        redis=open_redis(
            msgspec.structs.replace(
                settings, redis_url="redis://127.0.0.1:1/0", redis_timeout_s=0.3
            )
        ),
    )
    async with app_client(create_app(SPEC, settings, no_redis)) as degraded:
        answer = await commit(degraded, turn(user_id, "hello"))
    assert [w["code"] for w in answer["warnings"]] == ["working_memory_not_updated"]
    assert len(await rows(resources, "SELECT 1 FROM messages WHERE user_id = $1", user_id)) == 2


async def test_a_stopped_postgres_gives_503_with_retry_after(
    settings: Settings, app_client, user_id: str, tmp_path
) -> None:
    down = msgspec.structs.replace(
        settings,
        database_url="postgresql://postgres@127.0.0.1:1/x",
        pg_timeout_s=1.0,
        qdrant_path=str(tmp_path),
        embedder="hashing",
    )
    async with app_client(create_app(SPEC, down)) as client:
        response = await client.post("/v1/commit", json=turn(user_id, "hi", plan={}))
    assert response.status_code == 503
    assert response.headers["retry-after"] == str(down.retry_after_s)
    assert response.json()["dependency"] == "postgres"


async def test_every_write_of_one_user_stays_out_of_anothers_memory(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    other = user_id + "-b"
    said = "My sister Marta lives in Lisbon."
    mine = await commit(client, turn(user_id, said, plan=SISTER_PLAN, turn_id="same"))
    theirs = await commit(client, turn(other, said, plan=SISTER_PLAN, turn_id="same"))
    assert mine["session_id"] != theirs["session_id"]
    assert mine["entities"][0]["entity_id"] != theirs["entities"][0]["entity_id"]
    assert {f["outcome"] for f in theirs["facts"]} == {"created"}
    for uid, answer in ((user_id, mine), (other, theirs)):
        facts = await rows(resources, "SELECT rel_id::text FROM relations WHERE user_id = $1", uid)
        assert {f["rel_id"] for f in facts} == {f["fact_id"] for f in answer["facts"]}
        hits = await resources.vectors.search("facts", user_id=uid, text="Marta", limit=10)
        assert {h.id for h in hits} == {f["fact_id"] for f in answer["facts"]}
        state, _ = await resources.memory.load(uid, AGENT, "tg:1")
        assert {t.message_id for t in state.turns} == set(answer["message_ids"])


async def test_an_import_attaches_each_speakers_facts_to_that_speaker(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    """LoCoMo: both speakers are user messages, named, with their turn ids and times."""
    body = turn(user_id, None, reply=None, now=None)
    body["messages"] = [
        {
            "role": "user",
            "speaker": "Caroline",
            "text": "I went to a support group yesterday.",
            "external_id": "D1:1",
            "ts": "2023-05-08T13:56:00+00:00",
        },
        {
            "role": "user",
            "speaker": "Melanie",
            "text": "I live in Boston with my dog Luna.",
            "external_id": "D1:2",
            "ts": "2023-05-08T13:57:00+00:00",
        },
    ]
    answer = await commit(client, body)
    facts = {(f["text"], f["memory_type"]) for f in answer["facts"]}
    assert facts == {
        ("Caroline went to a support group (on 2023-05-07)", "PEOPLE"),
        ("Melanie lives in Boston", "PEOPLE"),
        ("Luna is Melanie's dog", "PEOPLE"),
    }
    logged = await rows(
        resources,
        "SELECT speaker, external_id, ts FROM messages WHERE user_id = $1 ORDER BY position",
        user_id,
    )
    assert [(m["speaker"], m["external_id"]) for m in logged] == [
        ("Caroline", "D1:1"),
        ("Melanie", "D1:2"),
    ]
    (session,) = await rows(
        resources, "SELECT last_activity_at FROM sessions WHERE user_id = $1", user_id
    )
    assert session["last_activity_at"].isoformat() == "2023-05-08T13:57:00+00:00"
    assert (
        await rows(
            resources,
            "SELECT 1 FROM relations r JOIN entities e ON "
            "e.entity_id = r.subject_id WHERE r.user_id = $1 AND "
            "e.entity_ref = 'self:user'",
            user_id,
        )
        == []
    )


@pytest.mark.parametrize("forget", [["Marta"], ["Lisbon"]])
async def test_a_plan_may_forget_what_the_user_asked_to_forget(
    client: httpx.AsyncClient, resources: Clients, user_id: str, forget: list
) -> None:
    await commit(client, turn(user_id, "My sister Marta lives in Lisbon", plan=SISTER_PLAN))
    answer = await commit(
        client,
        turn(user_id, f"Please forget about {forget[0]}", plan={"forget": forget}, at=later(1)),
    )
    assert answer["forgotten"]["facts"] >= 1
    live = await rows(
        resources, "SELECT text FROM relations WHERE user_id = $1 AND active", user_id
    )
    assert all(forget[0] not in r["text"] for r in live)
    hits = await resources.vectors.search("facts", user_id=user_id, text=forget[0], limit=5)
    assert hits == []


async def test_a_fact_restated_unchanged_is_not_embedded_again(
    client: httpx.AsyncClient, resources: Clients, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedded: list[str] = []
    real_embed = resources.embedder.embed

    async def counting_embed(texts):
        embedded.extend(texts)
        return await real_embed(texts)

    monkeypatch.setattr(resources.embedder, "embed", counting_embed)
    plan = {"facts": [fact("LIKES", "I like green tea", value="green tea")]}
    await commit(client, turn(user_id, "remember I love green tea", plan=plan))
    assert embedded.count("I like green tea") == 1
    again = await commit(
        client, turn(user_id, "as I said, green tea", plan=plan, at=T0 + timedelta(minutes=1))
    )
    assert [f["outcome"] for f in again["facts"]] == ["unchanged"]
    assert embedded.count("I like green tea") == 1  # the index already holds it


async def test_a_turns_messages_are_indexed_once_in_one_embedding_with_its_facts(
    client: httpx.AsyncClient, resources: Clients, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[list[str]] = []
    real_embed = resources.embedder.embed

    async def counting_embed(texts):
        calls.append(list(texts))
        return await real_embed(texts)

    monkeypatch.setattr(resources.embedder, "embed", counting_embed)
    body = turn(user_id, "My sister Marta lives in Lisbon.", plan=SISTER_PLAN, reply="Nice!")
    answer = await commit(client, body)
    assert len(calls) == 1  # the two messages and the two facts, one batch
    assert "My sister Marta lives in Lisbon." in calls[0][0]
    assert {"Marta is the user's sister", "Marta lives in Lisbon"} <= set(calls[0])
    await client.post("/v1/commit", json=body)  # a retry: replayed, nothing embedded
    assert len(calls) == 1
    assert await resources.vectors.count("messages", user_id=user_id) == 2
    hits = await resources.vectors.search(
        "messages", user_id=user_id, agent_id=AGENT, text="sister Marta Lisbon", limit=5
    )
    first = next(h for h in hits if h.id == answer["message_ids"][0])
    assert first.payload["session_id"] == answer["session_id"]
    assert (first.payload["role"], first.payload["scope"], first.payload["agent_id"]) == (
        "user",
        "agent",
        AGENT,
    )
    marta = next(e["entity_id"] for e in answer["entities"] if e["name"] == "Marta")
    assert marta in first.payload["entity_ids"]
    # another agent never sees this agent's conversation
    assert (
        await resources.vectors.search(
            "messages", user_id=user_id, agent_id="other", text="sister Marta Lisbon"
        )
        == []
    )
    (row,) = await rows(
        resources,
        "SELECT count(*) AS n FROM messages WHERE user_id = $1 AND indexed_at IS NULL",
        user_id,
    )
    assert row["n"] == 0


async def test_the_lexical_half_of_a_message_carries_the_message_before_it(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await commit(client, turn(user_id, "What did you name the new puppy?", reply=None))
    second = await commit(
        client,
        turn(
            user_id, "We called him Bolt.", reply=None, at=T0 + timedelta(minutes=1), turn_id="t2"
        ),
    )
    hits = await resources.vectors.search(
        "messages", user_id=user_id, agent_id=AGENT, text="puppy name", limit=5
    )
    assert second["message_ids"][0] in [h.id for h in hits]
