"""Explicit supersession through ``/v1/commit``: one vocabulary keys ``location`` and
``lives_in`` alike, a plan ``replaces`` or ``ends`` a GRAPH fact by its handle (within what this
persona may see), two facts of one key in a plan follow each other, and a fact that starts
later leaves the current one current until then."""

from __future__ import annotations

from datetime import timedelta

import httpx

from services.core.deps import Clients
from services.core.handles import handle_of
from tests.memory_upserter.conftest import T0, commit, fact, later, rows, turn

ACME = {"name": "Acme", "category": "Org"}
SPOTIFY = {"name": "Spotify", "category": "Org"}


async def _facts(resources: Clients, user_id: str, predicate: str) -> list[dict]:
    return await rows(
        resources,
        "SELECT rel_id::text AS id, text, status, memory_key, valid_from, valid_to, "
        "superseded_by::text AS by FROM relations WHERE user_id = $1 AND predicate = $2 "
        "ORDER BY created_at, text",
        user_id,
        predicate,
    )


def _current(facts: list[dict], at=T0) -> list[str]:
    return [
        f["text"]
        for f in facts
        if f["status"] == "ACTIVE"
        and (f["valid_to"] is None or f["valid_to"] > at)
        and (f["valid_from"] is None or f["valid_from"] <= at)
    ]


async def _works_at_acme(client: httpx.AsyncClient, user_id: str) -> dict:
    plan = {"entities": [ACME], "facts": [fact("WORKS_AT", "User works at Acme", obj="Acme")]}
    answer = await commit(client, turn(user_id, "i work at acme", plan=plan, at=later(-30)))
    return answer["facts"][0]


async def test_location_then_lives_in_is_one_key_and_the_second_supersedes(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    first = {"facts": [fact("location", "User lives in Porto", value="Porto")]}
    await commit(client, turn(user_id, "i live in porto", plan=first, at=later(-5)))
    second = {"facts": [fact("lives_in", "User lives in Lisbon", value="Lisbon")]}
    answer = await commit(client, turn(user_id, "moved to lisbon", plan=second))
    (written,) = answer["facts"]
    assert (written["predicate"], written["outcome"]) == ("LIVES_IN", "superseded_previous")
    homes = await _facts(resources, user_id, "LIVES_IN")
    assert _current(homes) == ["User lives in Lisbon"]
    assert [h["status"] for h in homes] == ["SUPERSEDED", "ACTIVE"]


async def test_a_fact_replaces_the_graph_fact_its_handle_names(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    acme = await _works_at_acme(client, user_id)
    plan = {
        "entities": [SPOTIFY],
        "facts": [
            fact(
                "EMPLOYED_BY",  # another spelling, and the handle says which fact it succeeds
                "User works at Spotify",
                obj="Spotify",
                replaces=handle_of("fact", acme["fact_id"]),
            )
        ],
    }
    answer = await commit(client, turn(user_id, "started at spotify today", plan=plan))
    (new,) = answer["facts"]
    assert new["outcome"] == "superseded_previous" and new["replaced_id"] == acme["fact_id"]
    jobs = await _facts(resources, user_id, "WORKS_AT")
    assert _current(jobs) == ["User works at Spotify"]
    old = next(j for j in jobs if j["id"] == acme["fact_id"])
    assert (old["status"], old["valid_to"], old["by"]) == ("SUPERSEDED", T0, new["fact_id"])


async def test_a_plan_ends_facts_by_handle_and_a_bad_handle_is_a_warning_with_its_path(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    acme = await _works_at_acme(client, user_id)
    plan = {
        "ends": [handle_of("fact", acme["fact_id"]), "F000000", "T123456"],
        "facts": [fact("HOBBY", "User plays chess", value="chess")],
    }
    answer = await commit(client, turn(user_id, "i quit acme lol. chess now", plan=plan))
    assert [(f["predicate"], f["outcome"]) for f in answer["facts"]] == [
        ("HOBBY", "created"),
        ("WORKS_AT", "ended"),
    ]
    warned = [w["detail"] for w in answer["warnings"] if w["code"] == "handle_not_found"]
    assert [w.split(":")[0] for w in warned] == ["$.plan.ends[1]", "$.plan.ends[2]"]
    assert "'T123456' is not a fact handle" in warned[1]
    (job,) = await _facts(resources, user_id, "WORKS_AT")
    assert (job["status"], job["valid_to"]) == ("ACTIVE", T0)
    assert _current([job]) == []


async def test_a_handle_resolves_only_among_facts_this_persona_may_see(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    private = {"facts": [fact("DIET", "User eats keto", value="keto", scope="agent")]}
    other = await commit(
        client, turn(user_id, "im on keto", plan=private, agent_id="coach", at=later(-5))
    )
    handle = handle_of("fact", other["facts"][0]["fact_id"])
    answer = await commit(client, turn(user_id, "hi", plan={"ends": [handle]}))
    assert answer["facts"] == []
    (warning,) = answer["warnings"]
    assert warning["code"] == "handle_not_found" and "$.plan.ends[0]" in warning["detail"]
    (diet,) = await _facts(resources, user_id, "DIET")
    assert diet["valid_to"] is None


async def test_two_facts_of_one_key_in_a_plan_end_the_first_and_start_the_second(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    acme = await _works_at_acme(client, user_id)
    friday, monday = (T0 - timedelta(days=5)).date(), (T0 - timedelta(days=2)).date()
    plan = {
        "entities": [ACME, SPOTIFY],
        "facts": [
            fact("WORKS_AT", "User worked at Acme", obj="Acme", valid_to=friday.isoformat()),
            fact("WORKS_AT", "User works at Spotify", obj="Spotify", valid_from=monday.isoformat()),
        ],
    }
    answer = await commit(
        client, turn(user_id, "left acme friday, spotify since monday", plan=plan)
    )
    ended, started = answer["facts"]
    assert ended["fact_id"] != started["fact_id"]
    assert (ended["fact_id"], ended["outcome"]) == (acme["fact_id"], "ended")
    assert started["outcome"] == "created"
    jobs = await _facts(resources, user_id, "WORKS_AT")
    assert _current(jobs) == ["User works at Spotify"]
    spotify = next(j for j in jobs if j["id"] == started["fact_id"])
    old = next(j for j in jobs if j["id"] == acme["fact_id"])
    assert spotify["memory_key"] is not None and old["memory_key"] is None
    # a date-only end lasts the whole day: it ends at the midnight after it
    assert (old["valid_to"] - timedelta(microseconds=1)).date() == friday


async def test_two_new_facts_of_one_key_are_two_rows_the_later_current(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    plan = {
        "facts": [
            fact("LIVES_IN", "User lived in Rome", value="Rome", valid_from="2019-01-01"),
            fact("LIVES_IN", "User lives in Milan", value="Milan", valid_from="2024-06-01"),
        ]
    }
    answer = await commit(client, turn(user_id, "rome from 2019, milan since june 2024", plan=plan))
    assert len({f["fact_id"] for f in answer["facts"]}) == 2
    homes = await _facts(resources, user_id, "LIVES_IN")
    assert _current(homes) == ["User lives in Milan"]
    rome = next(h for h in homes if h["text"] == "User lived in Rome")
    assert rome["valid_to"].date().isoformat() == "2024-06-01"


async def test_a_fact_that_starts_later_does_not_supersede_before_its_date(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    acme = await _works_at_acme(client, user_id)
    start = (T0 + timedelta(days=20)).date().isoformat()
    plan = {
        "entities": [SPOTIFY],
        "facts": [fact("WORKS_AT", "User works at Spotify", obj="Spotify", valid_from=start)],
    }
    answer = await commit(client, turn(user_id, "i start at spotify on the 27th", plan=plan))
    (new,) = answer["facts"]
    assert new["outcome"] == "created" and new["replaced_id"] == acme["fact_id"]
    jobs = await _facts(resources, user_id, "WORKS_AT")
    assert _current(jobs) == ["User works at Acme"]
    assert _current(jobs, T0 + timedelta(days=21)) == ["User works at Spotify"]
    old = next(j for j in jobs if j["id"] == acme["fact_id"])
    assert old["status"] == "ACTIVE" and old["valid_to"].date().isoformat() == start
