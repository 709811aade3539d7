"""The plan contract's time bounds and namesakes through ``/v1/commit``: what a model's plan
may declare, and the 422s that write nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

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


def _utc(iso: str) -> str:
    return datetime.fromisoformat(iso).astimezone(UTC).strftime("%Y-%m-%d %H:%M")


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
    assert stay["valid_to"].startswith("2026-01-11T00:00")  # a date-only end: all of the 10th
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


async def test_a_time_not_understood_or_an_end_before_the_start_is_dropped_not_the_fact(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    facts = [
        fact(
            "LIVES_IN",
            "User lives in Porto",
            value="Porto",
            valid_from="2026-01-05",
            valid_to="2026-01-01",
        ),
        fact("WORKS_AT", "User works at Acme", value="Acme", valid_from="the day after the party"),
    ]
    answer = await commit(
        client, turn(user_id, "I live in Porto and work at Acme", plan={"facts": facts})
    )
    assert [(f["predicate"], f["valid_to"]) for f in answer["facts"]] == [
        ("LIVES_IN", None),
        ("WORKS_AT", None),
    ]
    assert answer["facts"][0]["valid_from"].startswith("2026-01-05")
    assert answer["facts"][1]["valid_from"] == "2026-01-07T15:00:00Z"  # the turn
    assert [w["detail"].split(":")[0] for w in answer["warnings"]] == [
        "$.plan.facts[0].valid_to",
        "$.plan.facts[1].valid_from",
    ]
    assert await _count(resources, user_id) == {"facts": 2, "entities": 1, "messages": 2}


async def test_sloppy_time_words_in_the_persons_zone(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    """valid_to "friday" ends with Friday in the person's zone (the request's offset here: no
    users.timezone), "19th at 3pm" is the 19th at 15:00 there, "2019" the first of 2019."""
    at = T0.astimezone(timezone(timedelta(hours=-5)))  # Wednesday 10:00 in UTC-5
    plan = {
        "facts": [
            fact("STAYING_IN", "User is in Paris", value="Paris", valid_to="friday"),
            fact("PLAYS", "User plays guitar", value="guitar", valid_from="2019"),
        ],
        "todos": [{"kind": "REMINDER", "text": "call Marta", "due": "19th at 3pm"}],
    }
    said = "in paris until friday, playing guitar since 2019, remind me to call marta"
    answer = await commit(client, turn(user_id, said, plan=plan, at=at))
    stay, guitar = answer["facts"]
    assert _utc(stay["valid_to"]) == "2026-01-10 05:00"  # Saturday 00:00 at UTC-5
    assert _utc(guitar["valid_from"]) == "2019-01-01 05:00"
    assert _utc(answer["todos"][0]["due_at"]) == "2026-01-19 20:00"
    assert answer["warnings"] == []
    await client.post("/v1/profile", json={"user_id": user_id, "timezone": "Asia/Tokyo"})
    later = turn(
        user_id,
        "in rome until friday",
        plan={"facts": [fact("STAYING_IN", "User is in Rome", value="Rome", valid_to="friday")]},
    )
    (rome,) = (await commit(client, later))["facts"]
    assert _utc(rome["valid_to"]) == "2026-01-09 15:00"  # Saturday 00:00 in Tokyo (UTC+9)


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


async def test_distinct_from_another_users_entity_is_dropped_with_a_warning(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    other = user_id + "-other"
    theirs = await commit(
        client, turn(other, "My sister Marta", plan={"entities": [{"name": "Marta"}]})
    )
    answer = await commit(
        client,
        turn(
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
    assert [w["detail"].split(":")[0] for w in answer["warnings"]] == [
        "$.plan.entities[0].distinct_from"
    ]
    assert answer["entities"][0]["entity_id"] != theirs["entities"][0]["entity_id"]
    assert await _count(resources, user_id) == {"facts": 1, "entities": 2, "messages": 2}
