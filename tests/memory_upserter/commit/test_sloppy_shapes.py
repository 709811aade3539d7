"""A small model's shape-read spelling through ``/v1/commit``: ``job`` with a value whose text
says "works at X" is the employer (WORKS_AT, one key with the next job), "works as" the title."""

from __future__ import annotations

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
