"""``POST /v1/profile``: the seed text and pinned foundation facts, idempotently."""

from __future__ import annotations

import httpx

from services.core.deps import Clients
from tests.memory_upserter.conftest import commit, fact, rows, turn


def profile(user_id: str, **extra) -> dict:
    return {
        "user_id": user_id,
        "display_name": "Ana",
        "timezone": "Europe/Lisbon",
        "seed_text": "Ana, 34, designer in Lisbon. Morning person.",
        "facts": [
            {
                "text": "Lives in Lisbon",
                "predicate": "LIVES_IN",
                "object": "Lisbon",
                "object_category": "Location",
            },
            {"text": "Is a morning person"},
            {
                "text": "John is her cofounder",
                "subject": "John",
                "predicate": "COFOUNDER_OF",
                "object": "user",
                "memory_type": "PEOPLE",
                "fact_type": "relationship",
            },
        ],
        **extra,
    }


async def seed(client: httpx.AsyncClient, body: dict, status: int = 200) -> dict:
    response = await client.post("/v1/profile", json=body)
    assert response.status_code == status, response.text
    return response.json()


async def test_a_profile_is_stored_pinned_and_seeding_it_again_changes_nothing(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    first = await seed(client, profile(user_id))
    assert first["seed"] == "created"
    assert [f["outcome"] for f in first["facts"]] == ["created"] * 3
    stored = await rows(
        resources,
        "SELECT text, importance, pinned, source, reference_count, "
        "indexed_at FROM relations WHERE user_id = $1 ORDER BY text",
        user_id,
    )
    assert all(
        (r["importance"], r["pinned"], r["source"]) == (3, True, "seeded_profile")
        and r["indexed_at"]
        for r in stored
    )
    (user,) = await rows(
        resources, "SELECT display_name, timezone FROM users WHERE user_id = $1", user_id
    )
    assert user == {"display_name": "Ana", "timezone": "Europe/Lisbon"}
    again = await seed(client, profile(user_id))
    assert again["seed"] == "unchanged"
    assert [f["outcome"] for f in again["facts"]] == ["unchanged"] * 3
    assert {e["outcome"] for e in again["entities"]} == {"unchanged"}
    assert [
        r["reference_count"]
        for r in await rows(
            resources, "SELECT reference_count FROM relations WHERE user_id = $1", user_id
        )
    ] == [1] * 3
    changed = await seed(client, profile(user_id, seed_text="Ana, 35."))
    assert changed["seed"] == "updated"


async def test_the_display_name_becomes_a_name_of_the_user_for_imports(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await seed(client, profile(user_id, facts=[]))
    body = turn(user_id, None, reply=None)
    body["messages"] = [{"role": "user", "speaker": "Ana", "text": "I live in Porto now."}]
    answer = await commit(client, body)
    assert [f["memory_key"] for f in answer["facts"]] == ["profile|person|self|fact|lives_in"]


async def test_a_conversation_may_contradict_a_seeded_fact(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    seeded = await seed(client, profile(user_id))
    moved = await commit(
        client,
        turn(
            user_id,
            "I moved to Porto",
            plan={"facts": [fact("LIVES_IN", "User lives in Porto", obj="Porto")]},
        ),
    )
    assert moved["facts"][0]["replaced_id"] == seeded["facts"][0]["fact_id"]


async def test_a_bad_profile_is_refused_with_every_problem(
    client: httpx.AsyncClient, user_id: str
) -> None:
    body = profile(user_id, timezone="Mars/Olympus", seed_text="x" * 801)
    answer = await seed(client, body, 422)
    assert {e["path"] for e in answer["errors"]} == {"$.seed_text"}
    body = profile(user_id, timezone="Mars/Olympus", facts=[{"text": "x", "scope": "agent"}])
    answer = await seed(client, body, 422)
    assert {e["path"] for e in answer["errors"]} == {"$.timezone", "$.facts[0].scope"}
