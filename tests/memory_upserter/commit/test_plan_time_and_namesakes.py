"""The plan contract's time bounds and namesakes through ``/v1/commit``: what a model's plan
may declare, and the 422s that write nothing."""

from __future__ import annotations

from datetime import timedelta

import httpx

from services.core.deps import Clients
from tests.memory_upserter.conftest import T0, commit, fact, rows, turn


async def _count(resources: Clients, user_id: str) -> dict:
    (counts,) = await rows(
        resources,
        """SELECT
        (SELECT count(*) FROM relations WHERE user_id = $1) AS facts,
        (SELECT count(*) FROM entities WHERE user_id = $1) AS entities,
        (SELECT count(*) FROM messages WHERE user_id = $1) AS messages""",
        user_id,
    )
    return counts


async def test_a_plan_dates_a_fact_with_iso_or_words(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    said = "I'm in Paris until Friday, I moved to Porto last week"
    answer = await commit(
        client,
        turn(
            user_id,
            said,
            plan={
                "entities": [
                    {"name": "Paris", "category": "Location"},
                    {"name": "Porto", "category": "Location"},
                ],
                "facts": [
                    fact(
                        "STAYING_IN", "User is staying in Paris", obj="Paris", valid_to="2026-01-10"
                    ),
                    fact("LIVES_IN", "User lives in Porto", obj="Porto", valid_from="last week"),
                ],
            },
        ),
    )
    stay, home = answer["facts"]
    assert stay["valid_to"].startswith("2026-01-10")
    assert stay["valid_from"] == "2026-01-07T15:00:00Z"
    assert home["valid_from"].startswith((T0 - timedelta(days=7)).date().isoformat())
    stored = await rows(
        resources,
        "SELECT predicate, valid_from, valid_to FROM relations "
        "WHERE user_id = $1 ORDER BY predicate",
        user_id,
    )
    assert [(r["predicate"], r["valid_to"] is not None) for r in stored] == [
        ("LIVES_IN", False),
        ("STAYING_IN", True),
    ]


async def test_valid_to_before_valid_from_is_a_422_naming_the_field_and_writes_nothing(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    response = await client.post(
        "/v1/commit",
        json=turn(
            user_id,
            "I live in Porto",
            plan={
                "facts": [
                    fact(
                        "LIVES_IN",
                        "User lives in Porto",
                        value="Porto",
                        valid_from="2026-01-05",
                        valid_to="2026-01-01",
                    )
                ]
            },
        ),
    )
    assert response.status_code == 422
    assert [e["path"] for e in response.json()["errors"]] == ["$.plan.facts[0].valid_to"]
    response = await client.post(
        "/v1/commit",
        json=turn(
            user_id,
            "I live in Porto",
            plan={
                "facts": [
                    fact(
                        "LIVES_IN",
                        "User lives in Porto",
                        value="Porto",
                        valid_from="the day after the party",
                    )
                ]
            },
        ),
    )
    assert [e["path"] for e in response.json()["errors"]] == ["$.plan.facts[0].valid_from"]
    assert await _count(resources, user_id) == {"facts": 0, "entities": 0, "messages": 0}


async def test_a_plan_declares_a_new_person_distinct_from_a_known_one(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    first = await commit(
        client,
        turn(
            user_id,
            "My sister Marta lives in Lisbon",
            plan={
                "entities": [{"name": "Marta"}],
                "facts": [
                    fact(
                        "HAS_SISTER",
                        "Marta is the user's sister",
                        obj="Marta",
                        memory_type="PEOPLE",
                        fact_type="relationship",
                    )
                ],
            },
        ),
    )
    sister = first["entities"][0]
    second = await commit(
        client,
        turn(
            user_id,
            "My colleague Marta is in Berlin",
            plan={
                "entities": [
                    {
                        "name": "Marta",
                        "hint": "colleague, not the sister",
                        "aliases": ["work Marta"],
                        "distinct_from": sister["entity_ref"],
                    }
                ],
                "facts": [
                    fact(
                        "HAS_COLLEAGUE",
                        "Marta is the user's colleague",
                        obj="Marta",
                        memory_type="PEOPLE",
                        fact_type="relationship",
                    )
                ],
            },
        ),
    )
    (work,) = [e for e in second["entities"] if e["name"] == "Marta"]
    assert work["outcome"] == "created" and work["entity_id"] != sister["entity_id"]
    assert work["entity_ref"] == "person:marta_2"
    again = await commit(
        client,
        turn(
            user_id,
            "work Marta says hi",
            plan={
                "entities": [
                    {
                        "name": "Marta",
                        "aliases": ["work Marta"],
                        "distinct_from": sister["entity_id"],
                    }
                ]
            },
        ),
    )
    assert [e["entity_id"] for e in again["entities"]] == [work["entity_id"]]
    aliases = await rows(
        resources,
        "SELECT alias FROM entity_aliases WHERE user_id = $1 AND entity_id = $2::uuid",
        user_id,
        sister["entity_id"],
    )
    assert [a["alias"] for a in aliases] == ["family Marta"]


async def test_distinct_from_another_users_entity_is_a_422_and_writes_nothing(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    other = user_id + "-other"
    theirs = await commit(
        client, turn(other, "My sister Marta", plan={"entities": [{"name": "Marta"}]})
    )
    before = await _count(resources, user_id)
    response = await client.post(
        "/v1/commit",
        json=turn(
            user_id,
            "My colleague Marta",
            plan={
                "entities": [
                    {"name": "Marta", "distinct_from": theirs["entities"][0]["entity_id"]}
                ],
                "facts": [
                    fact(
                        "HAS_COLLEAGUE",
                        "Marta is the user's colleague",
                        obj="Marta",
                        memory_type="PEOPLE",
                    )
                ],
            },
        ),
    )
    assert response.status_code == 422, response.text
    assert [e["path"] for e in response.json()["errors"]] == ["$.plan.entities[0].distinct_from"]
    assert await _count(resources, user_id) == before
