"""A small model's shape-read spelling through ``/v1/commit``: ``job`` with a value whose text
says "works at X" is the employer (WORKS_AT, one key with the next job), "works as" the title."""

from __future__ import annotations

import json
from datetime import datetime

import httpx

from services.core.deps import Clients
from tests.memory_upserter.conftest import commit, fact, later, rows, turn


async def test_a_sloppy_job_fact_that_says_works_at_is_the_employer(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    first = await commit(
        client,
        turn(
            user_id,
            "i work at spotify as a nurse lol, health team",
            plan={"facts": [fact("job", "User works at Spotify", value="Spotify"),
                            fact("job", "User works as a nurse", value="nurse")]},
        ),
    )  # fmt: skip
    assert [f["predicate"] for f in first["facts"]] == ["WORKS_AT", "JOB_TITLE"]
    await commit(
        client,
        turn(
            user_id,
            "new job!! i work at globex now",
            plan={"facts": [fact("job", "User works at Globex", value="Globex")]},
            at=later(60),
        ),
    )
    live = await rows(
        resources,
        "SELECT predicate, text FROM relations WHERE user_id = $1 AND valid_to IS NULL "
        "AND active ORDER BY predicate",
        user_id,
    )
    assert [(r["predicate"], r["text"]) for r in live] == [
        ("JOB_TITLE", "User works as a nurse"),
        ("WORKS_AT", "User works at Globex"),
    ]


async def test_a_job_the_plan_ends_ends_the_title_held_there_then(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    """A sloppy model ends the old job ("job": "User leaves Sao Joao", a valid_to) and names
    the new employer, but not the title: the title stated at the old job ends with it, on the
    job's last day, not before."""
    await commit(
        client,
        turn(
            user_id,
            "im a nurse at hospital sao joao",
            plan={"facts": [fact("job", "User is a nurse at Hospital Sao Joao", value="nurse")]},
        ),
    )
    said = "signed!! last shift at sao joao on the 20th, i start at medly on the 22nd"
    plan = {
        "facts": [
            fact("employer", "User works at Medly", value="Medly", valid_from="2026-01-22"),
            fact("job", "User leaves Sao Joao", value="Sao Joao", valid_to="2026-01-20"),
        ]
    }
    answer = await commit(client, turn(user_id, said, plan=plan, at=later(60)))
    assert any(w["code"] == "fact_ended_by_words" for w in answer["warnings"]), answer

    async def current(at: str) -> list[str]:
        found = await rows(
            resources,
            "SELECT text FROM relations WHERE user_id = $1 AND active AND status = 'ACTIVE' "
            "AND (valid_from IS NULL OR valid_from <= $2::timestamptz) "
            "AND (valid_to IS NULL OR valid_to > $2::timestamptz) ORDER BY text",
            user_id,
            datetime.fromisoformat(at),
        )
        return [r["text"] for r in found]

    assert "User is a nurse at Hospital Sao Joao" in await current("2026-01-15T12:00:00+00:00")
    assert await current("2026-01-25T12:00:00+00:00") == ["User works at Medly"]


async def test_a_forget_the_person_did_not_ask_is_dropped_with_its_path(
    client: httpx.AsyncClient, user_id: str
) -> None:
    answer = json.dumps({"reply": "ok", "plan": {"forget": "everything"}})
    body = turn(user_id, "i live in porto", reply=None, answer=answer)
    warnings = (await commit(client, body))["warnings"]
    dropped = [w["detail"] for w in warnings if w["code"] == "plan_forget_dropped"]
    assert [d.split(":")[0] for d in dropped] == ["$.answer.plan.forget"]
