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
    # the shared clients' settings are the ones the handlers get
    shared = resources.replace(settings=after_reply)
    async with app_client(create_app(SPEC, after_reply, shared)) as client:
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


async def test_past_the_bound_a_commit_answers_and_its_turn_waits_its_turn(
    settings: Settings, resources: Clients, app_client, user_id: str
) -> None:
    """Backpressure: with 4 turns being indexed, the next commit answers at once and its turn
    is queued; it is indexed as soon as a running one finishes (the writer is not slowed, and
    the readers' query embeddings still wait behind at most 4 turns' work)."""
    after_reply = msgspec.structs.replace(settings, index_after_reply=True)
    gate = asyncio.Event()
    for i in range(4):  # fill the background with work that waits
        resources.background.spawn(gate.wait(), name=f"busy-{i}")
    try:
        assert not resources.background.has_room()
        shared = resources.replace(settings=after_reply)
        async with app_client(create_app(SPEC, after_reply, shared)) as client:
            answer = await commit(
                client,
                turn(
                    user_id,
                    "I like rye bread",
                    plan={"facts": [fact("LIKES", "I like rye bread", value="rye")]},
                ),
            )
        assert answer["warnings"] == []
        assert resources.background.pending == 5  # four running, this turn queued
        facts = await rows(
            resources, "SELECT indexed_at FROM relations WHERE user_id = $1", user_id
        )
        assert facts and all(r["indexed_at"] is None for r in facts)  # not yet
    finally:
        gate.set()
        await resources.background.drain()
    facts = await rows(resources, "SELECT indexed_at FROM relations WHERE user_id = $1", user_id)
    assert all(r["indexed_at"] is not None for r in facts)
    hits = await resources.vectors.search("facts", user_id=user_id, text="rye bread", limit=5)
    assert [h.id for h in hits] == [f["fact_id"] for f in answer["facts"]]


async def test_past_the_queue_a_turn_is_left_to_the_sweep(
    settings: Settings, resources: Clients, app_client, user_id: str
) -> None:
    after_reply = msgspec.structs.replace(settings, index_after_reply=True)
    full = resources.replace(
        settings=after_reply, background=Background(max_pending=1, max_queued=0)
    )
    gate = asyncio.Event()
    full.background.spawn(gate.wait(), name="busy")
    try:
        with capture_logs() as logs:
            async with app_client(create_app(SPEC, after_reply, full)) as client:
                answer = await commit(client, turn(user_id, "My brother Tom plays chess."))
                assert answer["warnings"] == []  # Postgres holds the turn
                swept = (await client.post("/v1/reindex", json={"user_id": user_id})).json()
    finally:
        gate.set()
        await full.background.drain()
    assert [e["event"] for e in logs if e["log_level"] == "warning"] == ["turn_index_deferred"]
    assert swept["messages_indexed"] == 2 and swept["remaining"] is False
    hits = await resources.vectors.search(
        "messages", user_id=user_id, agent_id=answer["agent_id"], text="brother chess"
    )
    assert set(answer["message_ids"]) <= {h.id for h in hits}


async def test_queued_work_starts_in_order_as_running_work_ends_in_batches() -> None:
    background, runs = Background(max_pending=1, max_queued=4), []
    gate = asyncio.Event()

    async def job(items: list[str]) -> None:
        runs.append(items)
        await gate.wait()

    submitted = [background.submit("jobs", item, job, batch=2) for item in "abcdef"]
    assert submitted == [True, True, True, True, True, False]  # one running, four queued
    await asyncio.sleep(0)
    assert runs == [["a"]] and background.pending == 5
    gate.set()
    await background.drain()
    assert runs == [["a"], ["b", "c"], ["d", "e"]] and background.pending == 0


async def test_a_burst_of_commits_is_indexed_in_batches_and_every_turn_lands(
    settings: Settings, resources: Clients, app_client, user_id: str, monkeypatch
) -> None:
    calls: list[int] = []
    real_embed = resources.embedder.embed

    async def counting_embed(texts):
        calls.append(len(texts))
        return await real_embed(texts)

    monkeypatch.setattr(resources.embedder, "embed", counting_embed)
    after_reply = msgspec.structs.replace(settings, index_after_reply=True)
    shared = resources.replace(settings=after_reply, background=Background(max_pending=1))
    gate = asyncio.Event()
    shared.background.spawn(gate.wait(), name="busy")
    async with app_client(create_app(SPEC, after_reply, shared)) as client:
        answers = [
            await commit(
                client, turn(user_id, f"Note {i}: the garden needs water", turn_id=f"b{i}")
            )
            for i in range(5)
        ]
        assert shared.background.pending == 6  # the busy task and five queued turns
        gate.set()
        await shared.background.drain()
    assert calls == [10]  # the five queued turns' ten messages, in one embedder call
    (row,) = await rows(
        resources,
        "SELECT count(*) AS n FROM messages WHERE user_id = $1 AND indexed_at IS NULL",
        user_id,
    )
    assert row["n"] == 0
    assert await resources.vectors.count("messages", user_id=user_id) == sum(
        len(a["message_ids"]) for a in answers
    )
