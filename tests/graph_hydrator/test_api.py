"""``POST /v1/hydrate`` through the app, against the real Postgres of the run."""

from __future__ import annotations

from datetime import timedelta

import msgspec
import pytest
from litestar.testing import AsyncTestClient

from services.core.app import create_app
from services.core.settings import Settings
from services.graph_hydrator.app import SPEC
from tests.graph_hydrator.conftest import T0, Seeder


@pytest.fixture
async def client(settings: Settings):
    """The app opens its own pool in its lifespan: the test client runs it on another event
    loop, where the session's pool cannot be used."""
    async with AsyncTestClient(create_app(SPEC, settings)) as client:
        yield client


def _body(user_id: str, message: str, **extra) -> dict:
    return {
        "user_id": user_id,
        "agent_id": "deanna",
        "chat_id": "tg:1",
        "message": message,
        "now": T0.isoformat(),
        **extra,
    }


async def _hydrate(client: AsyncTestClient, user_id: str, message: str, **extra) -> dict:
    response = await client.post("/v1/hydrate", json=_body(user_id, message, **extra))
    assert response.status_code == 200, response.text
    return response.json()


def _names(answer: dict) -> dict[str, str]:
    return {e["name"]: e["seed"] for e in answer["GRAPH"]["entities"]}


def _facts(answer: dict) -> set[str]:
    return {e["text"] for e in answer["GRAPH"]["edges"]}


@pytest.mark.parametrize(
    "message", ["how is marta?", "MÁRTA's birthday", "Marta’s cat", "I saw Márta."]
)
async def test_case_accents_and_possessives_find_the_same_entity(
    client: AsyncTestClient, seed: Seeder, message: str
) -> None:
    marta = await seed.entity("Marta")
    await seed.fact(marta, "BIRTHDAY", value="05-12", text="Marta's birthday is 12 May")
    answer = await _hydrate(client, seed.user_id, message)
    assert _names(answer) == {"Marta": "mention"}
    assert _facts(answer) == {"Marta's birthday is 12 May"}
    assert answer["active_entity_ids"] == [marta]
    (mention,) = answer["mentions"]
    assert mention["normalized"] == "marta" and mention["resolution"] == "unique"


async def test_multi_word_names_and_aliases_are_mentions(
    client: AsyncTestClient, seed: Seeder
) -> None:
    rosa = await seed.entity("Aunt Rosa")
    await seed.entity("Rosa")
    city = await seed.entity("New York", category="Location")
    mom = await seed.entity("Elena", aliases=["Mom"])
    answer = await _hydrate(client, seed.user_id, "Mom and aunt rosa flew to new york")
    assert _names(answer) == {"Elena": "mention", "Aunt Rosa": "mention", "New York": "mention"}
    assert answer["active_entity_ids"] == [mom, rosa, city]
    assert [m["text"] for m in answer["mentions"]] == ["Mom", "aunt rosa", "new york"]


async def test_tomorrow_does_not_mention_tom(client: AsyncTestClient, seed: Seeder) -> None:
    await seed.entity("Tom")
    answer = await _hydrate(client, seed.user_id, "Tomorrow I'll rest")
    assert answer["mentions"] == [] and answer["GRAPH"]["entities"] == []
    assert answer["active_fallback"] == "no_mention"


async def test_a_pronoun_falls_back_to_the_sessions_active_entities(
    client: AsyncTestClient, seed: Seeder
) -> None:
    marta = await seed.entity("Marta")
    bob = await seed.entity("Bob")
    await seed.fact(marta, "FRIEND_OF", bob, text="Marta is Bob's friend")
    answer = await _hydrate(
        client, seed.user_id, "is she still upset?", active_entity_ids=[marta, "not-a-uuid"]
    )
    assert answer["active_fallback"] == "pronoun"
    assert _names(answer) == {"Marta": "active", "Bob": "neighbor"}
    assert _facts(answer) == {"Marta is Bob's friend"}
    assert answer["active_entity_ids"] == [marta]


async def test_two_users_each_with_a_marta_never_see_each_others_facts(
    client: AsyncTestClient, seed: Seeder, seeder_for, user_id: str
) -> None:
    mine = await seed.entity("Marta")
    await seed.fact(mine, "JOB", value="nurse", text="Marta is a nurse")
    other = await seeder_for(user_id + "-b")
    theirs = await other.entity("Marta")
    await other.fact(
        theirs, "JOB", value="pilot", text="Marta is a pilot", pinned=True, importance=3
    )
    await other.todo("COMMITMENT", "call Marta")
    answer = await _hydrate(client, seed.user_id, "Marta", active_entity_ids=[theirs])
    assert _facts(answer) == {"Marta is a nurse"}
    assert [e["entity_id"] for e in answer["GRAPH"]["entities"]] == [mine]
    assert answer["GRAPH"]["foundation"] == [] and answer["GRAPH"]["commitments"] == []
    pronoun = await _hydrate(client, seed.user_id, "how is she", active_entity_ids=[theirs])
    assert pronoun["GRAPH"]["entities"] == [] and pronoun["active_entity_ids"] == []


async def _two_martas(seed: Seeder, *, work_seen=None, family_seen=None) -> tuple[str, str]:
    me = await seed.entity("Alex")
    work = await seed.entity(
        "Marta",
        aliases=["work Marta"],
        last_seen=work_seen,
        attributes={"relationship": "colleague"},
    )
    family = await seed.entity("Marta", aliases=["family Marta"], last_seen=family_seen)
    await seed.fact(family, "SISTER_OF", me, text="Marta is Alex's sister")
    await seed.fact(work, "WORKS_AT", value="Acme", text="Marta works at Acme")
    return work, family


async def test_an_ambiguous_name_asks_one_question_and_guesses_nothing(
    client: AsyncTestClient, seed: Seeder
) -> None:
    work, family = await _two_martas(seed)
    answer = await _hydrate(client, seed.user_id, "Marta called me")
    question = answer["GRAPH"]["pending_question"]
    assert question["mention"] == "Marta"
    assert question["question"].startswith("Which Marta do you mean — ")
    assert "work Marta (colleague)" in question["question"]
    assert "family Marta (sister)" in question["question"]
    assert {c["entity_id"] for c in question["candidates"]} == {work, family}
    assert answer["GRAPH"]["edges"] == [] and answer["GRAPH"]["entities"] == []
    assert answer["mentions"][0]["resolution"] == "ambiguous"
    assert answer["active_entity_ids"] == []


async def test_the_active_marta_resolves_the_name(client: AsyncTestClient, seed: Seeder) -> None:
    work, family = await _two_martas(seed, work_seen=T0 - timedelta(hours=1))
    answer = await _hydrate(client, seed.user_id, "Marta called", active_entity_ids=[family])
    assert answer["GRAPH"]["pending_question"] is None
    assert answer["mentions"][0]["resolution"] == "active"
    assert answer["active_entity_ids"] == [family]
    assert _facts(answer) == {"Marta is Alex's sister"}


async def test_the_most_recently_seen_marta_resolves_the_name(
    client: AsyncTestClient, seed: Seeder
) -> None:
    work, _ = await _two_martas(
        seed, work_seen=T0 - timedelta(hours=1), family_seen=T0 - timedelta(days=3)
    )
    answer = await _hydrate(client, seed.user_id, "Marta called")
    assert answer["mentions"][0]["resolution"] == "recent"
    assert answer["active_entity_ids"] == [work]
    assert _facts(answer) == {"Marta works at Acme"}


async def test_expired_and_forgotten_facts_never_appear_nor_their_only_neighbours(
    client: AsyncTestClient, seed: Seeder
) -> None:
    marta = await seed.entity("Marta")
    ana, bob, carl = [await seed.entity(n) for n in ("Ana", "Bob", "Carl")]
    await seed.fact(
        marta, "SISTER_OF", ana, valid_to=T0 - timedelta(seconds=1), text="Marta is Ana's sister"
    )
    await seed.fact(marta, "FRIEND_OF", bob, status="FORGOTTEN", text="Marta is Bob's friend")
    await seed.fact(marta, "FRIEND_OF", carl, text="Marta is Carl's friend")
    await seed.fact(
        marta,
        "ALLERGY",
        value="nuts",
        pinned=True,
        importance=3,
        valid_to=T0,
        text="Marta is allergic to nuts",
    )
    answer = await _hydrate(client, seed.user_id, "Marta")
    assert _names(answer) == {"Marta": "mention", "Carl": "neighbor"}
    assert _facts(answer) == {"Marta is Carl's friend"}
    assert answer["GRAPH"]["foundation"] == []


async def test_scope_merge_identity_global_wins_agent_domain_agent_wins(
    client: AsyncTestClient, seed: Seeder
) -> None:
    me = await seed.entity("Alex")
    await seed.fact(me, "LIVES_IN", value="Berlin", text="lives in Berlin")
    await seed.fact(me, "LIVES_IN", value="Paris", text="lives in Paris", agent_id="deanna")
    await seed.fact(me, "DIET_PLAN", value="keto", text="diet: keto")
    await seed.fact(
        me, "DIET_PLAN", value="mediterranean", text="diet: mediterranean", agent_id="deanna"
    )
    answer = await _hydrate(client, seed.user_id, "Alex here")
    assert _facts(answer) == {"lives in Berlin", "diet: mediterranean"}
    assert answer["GRAPH"]["dropped"] == {"scope_conflicts": 2}


async def test_another_agents_scoped_facts_and_entities_are_invisible(
    client: AsyncTestClient, seed: Seeder
) -> None:
    me = await seed.entity("Alex")
    coach = await seed.entity("Coach Kim", agent_id="anaketa")
    await seed.fact(me, "TRAINING_PLAN", value="5k", text="training for a 5k", agent_id="anaketa")
    await seed.fact(me, "TRAINED_BY", coach, text="trained by Kim")
    await seed.fact(me, "JOB", value="nurse", text="is a nurse")
    deanna = await _hydrate(client, seed.user_id, "Alex and Coach Kim")
    assert _facts(deanna) == {"is a nurse"} and _names(deanna) == {"Alex": "mention"}
    anaketa = await _hydrate(client, seed.user_id, "Alex", agent_id="anaketa")
    assert _facts(anaketa) == {"is a nurse", "training for a 5k", "trained by Kim"}


async def test_critical_predicates_outrank_others_under_the_cap_and_drops_are_counted(
    client: AsyncTestClient, seed: Seeder
) -> None:
    me = await seed.entity("Alex")
    for n in range(44):
        friend = await seed.entity(f"Friend {n}")
        await seed.fact(me, "FRIEND_OF", friend, confidence=0.9, text=f"friend {n}")
    await seed.fact(me, "ALLERGY", value="penicillin", confidence=0.5, text="allergic: penicillin")
    await seed.fact(me, "INTOLERANCE", value="lactose", confidence=0.4, text="lactose intolerant")
    answer = await _hydrate(client, seed.user_id, "Alex", edge_cap=30)
    edges = answer["GRAPH"]["edges"]
    assert len(edges) == 30
    assert [e["text"] for e in edges[:2]] == ["allergic: penicillin", "lactose intolerant"]
    assert all(e["critical"] for e in edges[:2]) and not edges[2]["critical"]
    assert answer["GRAPH"]["dropped"] == {"edges": 16, "neighbors": 16}
    assert len(answer["GRAPH"]["entities"]) == 1 + 28


async def test_the_default_edge_cap_is_40(client: AsyncTestClient, seed: Seeder) -> None:
    me = await seed.entity("Alex")
    for n in range(45):
        await seed.fact(me, f"FACT_{n}", value=n, text=f"fact {n}")
    answer = await _hydrate(client, seed.user_id, "Alex")
    assert len(answer["GRAPH"]["edges"]) == 40 and answer["GRAPH"]["dropped"] == {"edges": 5}


async def test_foundation_is_seeded_then_pinned_then_importance_and_newest_capped_at_12(
    client: AsyncTestClient, seed: Seeder
) -> None:
    me = await seed.entity("Alex", entity_ref="self:user")
    caroline = await seed.entity("Caroline")
    await seed.fact(
        caroline,
        "CURATED_SUMMARY",
        value="x",
        importance=3,
        text="Caroline went to a support group",
    )
    for n in range(14):
        at = T0 - timedelta(days=30 - n)
        await seed.fact(
            me, f"CORE_{n}", value=n, importance=3, text=f"core {n}", created_at=at, updated_at=at
        )
    await seed.fact(
        me,
        "HOMETOWN",
        value="Porto",
        source="seeded_profile",
        text="from Porto",
        memory_type="PROFILE",
    )
    await seed.fact(
        me,
        "GOAL",
        value="marathon",
        pinned=True,
        importance=3,
        text="wants a marathon",
        created_at=T0 - timedelta(days=1),
    )
    await seed.fact(
        me,
        "NICKNAME",
        value="Al",
        importance=3,
        text="Core 13!",
        created_at=T0 - timedelta(days=99),
        updated_at=T0 - timedelta(days=99),
    )
    await seed.fact(me, "LIKES", value="tea", importance=2, text="likes tea")
    answer = await _hydrate(client, seed.user_id, "hello")
    foundation = answer["GRAPH"]["foundation"]
    assert [f["text"] for f in foundation] == [
        "from Porto",
        "wants a marathon",
        *(f"core {n}" for n in range(13, 3, -1)),
    ]
    assert foundation[0]["provenance"]["source"] == "seeded_profile"


async def test_todo_lists_are_this_agents_capped_deduped_with_48_hour_wins(
    client: AsyncTestClient, seed: Seeder
) -> None:
    for n in range(10):
        await seed.todo("COMMITMENT", f"walk {n}", created_at=T0 - timedelta(hours=n + 1))
    await seed.todo("COMMITMENT", "Call Márta!", due_at=T0 + timedelta(hours=3))
    async with seed.pool.acquire() as conn:  # a twin older rows hold; capture folds it now
        await conn.execute(
            "INSERT INTO todos (user_id, agent_id, kind, text, created_at, updated_at)"
            " VALUES ($1, 'deanna', 'COMMITMENT', 'call marta', $2, $2)",
            seed.user_id,
            T0 - timedelta(minutes=5),
        )
    for n in range(4):
        await seed.todo("THREAD", f"thread {n}", created_at=T0 - timedelta(hours=n))
        await seed.todo("FRICTION", f"friction {n}", created_at=T0 - timedelta(hours=n))
    for hours in (1, 2, 3, 4, 49):
        await seed.todo(
            "COMMITMENT", f"won {hours}", status="DONE", completed_at=T0 - timedelta(hours=hours)
        )
    await seed.todo("COMMITMENT", "anaketa's promise", agent_id="anaketa")
    graph = (await _hydrate(client, seed.user_id, "hi"))["GRAPH"]
    assert [t["text"] for t in graph["commitments"]] == ["Call Márta!"] + [
        f"walk {n}" for n in range(7)
    ]
    assert [t["text"] for t in graph["threads"]] == ["thread 0", "thread 1", "thread 2"]
    assert [t["text"] for t in graph["frictions"]] == ["friction 0", "friction 1", "friction 2"]
    assert [t["text"] for t in graph["wins"]] == ["won 1", "won 2", "won 3"]


async def test_hydrating_writes_nothing(client: AsyncTestClient, seed: Seeder) -> None:
    marta = await seed.entity("Marta", last_seen=T0 - timedelta(days=5))
    await _hydrate(client, seed.user_id, "Marta")
    async with seed.pool.acquire() as conn:
        seen = await conn.fetchval("SELECT last_seen FROM entities WHERE entity_id = $1", marta)
    assert seen == T0 - timedelta(days=5)


@pytest.mark.parametrize("edge_cap", [100, 29, 61])
async def test_an_edge_cap_outside_30_to_60_is_refused(
    client: AsyncTestClient, user_id: str, edge_cap: int
) -> None:
    response = await client.post("/v1/hydrate", json=_body(user_id, "hi", edge_cap=edge_cap))
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    assert [e["path"] for e in response.json()["errors"]] == ["$.edge_cap"]


async def test_the_route_is_documented(client: AsyncTestClient) -> None:
    spec = (await client.get("/schema/openapi.json")).json()
    assert "/v1/hydrate" in spec["paths"] and "HydrateResponse" in str(spec["components"])


async def test_postgres_down_is_503_with_retry_after(settings: Settings, user_id: str) -> None:
    down = msgspec.structs.replace(
        settings,
        database_url="postgresql://postgres@127.0.0.1:1/none",
        pg_timeout_s=1.0,
        ready_timeout_s=1.0,
    )
    async with AsyncTestClient(create_app(SPEC, down)) as client:
        response = await client.post("/v1/hydrate", json=_body(user_id, "Marta"))
        ready = await client.get("/readyz")
    assert response.status_code == 503 and ready.status_code == 503
    assert response.headers["retry-after"] == str(down.retry_after_s)
    assert response.json()["dependency"] == "postgres"


async def test_the_latest_summary_spine_rides_in_graph(
    client: AsyncTestClient, seed: Seeder
) -> None:
    assert (await _hydrate(client, seed.user_id, "hi"))["GRAPH"]["summary_spine"] == ""
    async with seed.pool.acquire() as conn:
        for version, text in ((1, "PEOPLE: Marta: sister"), (2, "PEOPLE: Marta: sister, Lisbon")):
            await conn.execute(
                "INSERT INTO summary_spine (user_id, version, content, text)"
                " VALUES ($1, $2, '{}'::jsonb, $3)",
                seed.user_id,
                version,
                text,
            )
    answer = await _hydrate(client, seed.user_id, "hi")
    assert answer["GRAPH"]["summary_spine"] == "PEOPLE: Marta: sister, Lisbon"
    other = await _hydrate(client, f"{seed.user_id}-other", "hi")
    assert other["GRAPH"]["summary_spine"] == ""


async def test_my_sister_resolves_through_the_relation_and_loads_her_subgraph(
    client: AsyncTestClient, seed: Seeder
) -> None:
    me = await seed.entity("Alice", entity_ref="self:user")
    marta = await seed.entity("Marta")
    madrid = await seed.entity("Madrid", category="Location")
    await seed.fact(me, "HAS_SISTER", marta, text="Marta is the user's sister", importance=2)
    await seed.fact(marta, "LIVES_IN", madrid, text="Marta lives in Madrid", importance=2)
    answer = await _hydrate(client, seed.user_id, "Where does my sister live?")
    assert answer["active_entity_ids"] == [marta]
    (mention,) = answer["mentions"]
    assert (mention["text"], mention["relation"], mention["entity_id"]) == (
        "my sister",
        "sister",
        marta,
    )
    assert "Marta lives in Madrid" in _facts(answer)
    assert [f["text"] for f in answer["GRAPH"]["foundation"]] == ["Marta is the user's sister"]


async def test_a_relation_only_this_agent_knows_never_resolves_for_another(
    client: AsyncTestClient, seed: Seeder
) -> None:
    me = await seed.entity("Alice", entity_ref="self:user")
    rui = await seed.entity("Rui")
    await seed.fact(me, "HAS_BOSS", rui, text="Rui is the user's boss", agent_id="anaketa")
    mine = await _hydrate(client, seed.user_id, "is my boss in?", agent_id="anaketa")
    assert mine["active_entity_ids"] == [rui]
    other = await _hydrate(client, seed.user_id, "is my boss in?")
    assert other["active_entity_ids"] == [] and other["mentions"] == []


async def test_two_sisters_make_the_one_question(client: AsyncTestClient, seed: Seeder) -> None:
    me = await seed.entity("Alice", entity_ref="self:user")
    for name in ("Marta", "Ana"):
        await seed.fact(me, "HAS_SISTER", await seed.entity(name), text=f"{name} is a sister")
    answer = await _hydrate(client, seed.user_id, "Where does my sister live?")
    question = answer["GRAPH"]["pending_question"]
    assert question["question"].startswith("Which sister do you mean")
    assert answer["active_entity_ids"] == []
