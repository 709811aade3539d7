"""The default commit: answered once Postgres holds the turn, its vectors written right after.

The test fixture's settings index before answering (so other tests can read the index at
once); here the product default is on, with the run's real Postgres, Redis and Qdrant Edge.
"""

from __future__ import annotations

import asyncio

import msgspec
from structlog.testing import capture_logs

from services.core.app import create_app
from services.core.background import Background
from services.core.deps import Clients
from services.core.settings import Settings
from services.memory_upserter.app import SPEC
from tests.memory_upserter.conftest import commit, fact, rows, turn


async def test_the_reply_does_not_wait_for_the_index_and_the_vectors_follow(
    settings: Settings, resources: Clients, app_client, user_id: str
) -> None:
    after_reply = msgspec.structs.replace(settings, index_after_reply=True)
    async with app_client(create_app(SPEC, after_reply, resources)) as client:
        answer = await commit(
            client,
            turn(
                user_id,
                "I adore sourdough",
                plan={"facts": [fact("LIKES", "I adore sourdough bread", value="sourdough")]},
            ),
        )
    assert answer["warnings"] == []
    await resources.background.drain()
    facts = await rows(resources, "SELECT indexed_at FROM relations WHERE user_id = $1", user_id)
    messages = await rows(resources, "SELECT indexed_at FROM messages WHERE user_id = $1", user_id)
    assert facts and all(r["indexed_at"] is not None for r in facts + messages)
    hits = await resources.vectors.search("facts", user_id=user_id, text="sourdough", limit=5)
    assert [h.id for h in hits] == [f["fact_id"] for f in answer["facts"]]
    assert "text" not in hits[0].payload  # the index holds no plaintext


async def test_background_work_is_awaited_on_drain_and_its_failures_are_logged() -> None:
    background, done = Background(), []

    async def slow() -> None:
        await asyncio.sleep(0.05)
        done.append("slow")

    async def broken() -> None:
        raise RuntimeError("index went away")

    with capture_logs() as logs:
        background.spawn(slow(), name="slow")
        background.spawn(broken(), name="broken")
        assert background.pending == 2
        await background.drain()
    assert done == ["slow"] and background.pending == 0
    assert [(e["event"], e["task"]) for e in logs if e["log_level"] == "warning"] == [
        ("background_task_failed", "broken")
    ]


async def test_closing_the_resources_finishes_work_started_after_a_reply(
    settings: Settings,
) -> None:
    res = Clients(settings)  # no clients: only the background work matters here
    done = []

    async def late() -> None:
        await asyncio.sleep(0.05)
        done.append(True)

    res.background.spawn(late(), name="late")
    await res.close()
    assert done == [True]


async def test_past_the_bound_a_commit_indexes_before_it_answers(
    settings: Settings, resources: Clients, app_client, user_id: str
) -> None:
    """Backpressure: with the background full, the turn's vectors are written in the request."""
    after_reply = msgspec.structs.replace(settings, index_after_reply=True)
    gate = asyncio.Event()
    for i in range(4):  # fill the background with work that waits
        resources.background.spawn(gate.wait(), name=f"busy-{i}")
    try:
        assert not resources.background.has_room()
        async with app_client(create_app(SPEC, after_reply, resources)) as client:
            await commit(
                client,
                turn(
                    user_id,
                    "I like rye bread",
                    plan={"facts": [fact("LIKES", "I like rye bread", value="rye")]},
                ),
            )
        facts = await rows(
            resources, "SELECT indexed_at FROM relations WHERE user_id = $1", user_id
        )
        assert facts and all(r["indexed_at"] is not None for r in facts)  # before the answer
    finally:
        gate.set()
        await resources.background.drain()
