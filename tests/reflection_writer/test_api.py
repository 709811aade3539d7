"""``POST /v1/consolidate`` and ``GET /v1/day-log`` through the app."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx
import pytest

from services.core.app import create_app
from services.core.deps import Clients
from services.core.settings import Settings
from services.reflection_writer.app import SPEC

from .conftest import GYM_SESSION, Log, chat


@pytest.fixture
async def client(settings: Settings, resources: Clients, app_client):
    async with app_client(create_app(SPEC, settings, resources)) as client:
        yield client


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


async def test_consolidate_answers_per_session_counts_and_totals(
    client: httpx.AsyncClient, log: Log, user_id: str
) -> None:
    s = await log.session(user_id, GYM_SESSION)
    response = await client.post(
        "/v1/consolidate", json={"user_id": user_id, "now": "2026-01-03T12:00:00Z"}
    )
    assert response.status_code == 200, response.text
    body = response.json()
    [done] = body["sessions"]
    assert done["session_id"] == s.session_id and done["status"] == "created"
    assert (done["turns"], done["evidence_kept"], done["evidence_dropped"]) == (8, 1, 0)
    assert body["totals"]["episodes_created"] == 1 and body["skipped"] == []
    assert body["maintenance"][0]["user_id"] == user_id
    again = await client.post("/v1/consolidate", json={"session_id": s.session_id})
    assert again.json()["skipped"] == [
        {"session_id": s.session_id, "reason": "nothing_new", "detail": ""}
    ]


async def test_consolidate_refuses_bad_requests_with_every_problem(
    client: httpx.AsyncClient, user_id: str
) -> None:
    response = await client.post(
        "/v1/consolidate", json={"batch_size": 0, "session_id": "not-a-uuid", "colour": "red"}
    )
    assert response.status_code == 422
    paths = {e["path"] for e in response.json()["errors"]}
    assert paths == {"$.batch_size", "$.session_id", "$.colour"}
    missing = await client.post(
        "/v1/consolidate",
        json={"session_id": "00000000-0000-4000-8000-000000000000", "user_id": user_id},
    )
    assert missing.status_code == 404
    assert missing.headers["content-type"].startswith("application/problem+json")


async def test_the_day_log_lists_a_days_episodes_in_order_in_the_users_time_zone(
    client: httpx.AsyncClient, log: Log, user_id: str
) -> None:
    await log.user(user_id, tz="America/New_York")
    starts = ["2026-01-03T03:00", "2026-01-03T15:00", "2026-01-03T20:00", "2026-01-04T04:00"]
    sessions = [
        await log.session(
            user_id,
            chat(f"Note number {i} for the log.", "Noted."),
            start=at(start),
            chat_id=f"tg:{i}",
        )
        for i, start in enumerate(starts)
    ]
    other_agent = await log.session(
        user_id,
        chat("Coach chat.", "Go!"),
        agent_id="anaketa",
        start=at("2026-01-03T16:00"),
        chat_id="tg:c",
    )
    stranger = user_id + "-x"
    await log.session(stranger, chat("Not yours.", "Ok."), start=at("2026-01-03T16:00"))
    for who in (user_id, stranger):
        done = await client.post(
            "/v1/consolidate", json={"user_id": who, "now": "2026-01-05T00:00:00Z"}
        )
        assert done.status_code == 200

    local = (
        await client.get("/v1/day-log", params={"user_id": user_id, "day": "2026-01-03"})
    ).json()
    assert local["tz"] == "America/New_York" and local["next_cursor"] is None
    assert [i["session_id"] for i in local["items"]] == [
        sessions[1].session_id,
        other_agent.session_id,
        sessions[2].session_id,
        sessions[3].session_id,
    ]
    first = local["items"][0]
    assert first["summary"]["one_liner"] == 'The user said: "Note number 1 for the log."'
    assert first["reflection"] == "Action: Noted."  # "Note number 1…" is not first-person
    assert first["reflection_json"]["action"] == ["Noted."]
    assert first["day"] == "2026-01-03"

    utc = (
        await client.get(
            "/v1/day-log",
            params={"user_id": user_id, "day": "2026-01-03", "tz": "UTC", "agent_id": "deanna"},
        )
    ).json()
    assert [i["session_id"] for i in utc["items"]] == [s.session_id for s in sessions[:3]]

    page = (
        await client.get(
            "/v1/day-log", params={"user_id": user_id, "day": "2026-01-03", "limit": 3}
        )
    ).json()
    assert len(page["items"]) == 3 and page["next_cursor"]
    rest = (
        await client.get(
            "/v1/day-log",
            params={
                "user_id": user_id,
                "day": "2026-01-03",
                "limit": 3,
                "cursor": page["next_cursor"],
            },
        )
    ).json()
    assert [i["session_id"] for i in rest["items"]] == [sessions[3].session_id]
    assert rest["next_cursor"] is None

    theirs = (
        await client.get("/v1/day-log", params={"user_id": stranger, "day": "2026-01-03"})
    ).json()
    assert len(theirs["items"]) == 1
    assert {i["session_id"] for i in theirs["items"]}.isdisjoint(
        {s.session_id for s in [*sessions, other_agent]}
    )


@pytest.mark.parametrize(
    ("params", "path"),
    [
        ({"day": "2026-13-01"}, "$.day"),
        ({"day": "2026-01-03", "tz": "Mars/Olympus"}, "$.tz"),
        ({"day": "2026-01-03", "cursor": "garbage!"}, "$.cursor"),
    ],
    ids=["bad-day", "bad-tz", "bad-cursor"],
)
async def test_the_day_log_refuses_bad_parameters(
    client: httpx.AsyncClient, user_id: str, params: dict, path: str
) -> None:
    response = await client.get("/v1/day-log", params={"user_id": user_id, **params})
    assert response.status_code == 422, response.text
    assert [e["path"] for e in response.json()["errors"]] == [path]


async def test_both_routes_are_documented(client: httpx.AsyncClient) -> None:
    paths = (await client.get("/schema/openapi.json")).json()["paths"]
    assert {"/v1/consolidate", "/v1/day-log"} <= set(paths)
