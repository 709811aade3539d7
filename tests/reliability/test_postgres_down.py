"""Postgres really stopped (a crash: ``pg_ctl -m immediate``) or slowed down by a proxy."""

from __future__ import annotations

import asyncio

import pytest

from services.core.deps import Clients
from tests.e2e.processes import port_in_use
from tests.reliability.helpers import (
    PLAN,
    assert_unavailable,
    commit_body,
    hydrate_body,
    later,
    retrieve_body,
    rows,
)
from tests.reliability.servers import DelayProxy, PostgresServer

PG_NODES = {
    "graph-hydrator": ("/v1/hydrate", hydrate_body),
    "rag-gate": ("/v1/retrieve", retrieve_body),
    "memory-upserter": ("/v1/commit", lambda user: commit_body(user, "Anyone home?", at=later(30))),
    "reflection-writer": ("/v1/consolidate", lambda user: {"user_id": user}),
}


async def _facts_and_messages(res: Clients, user_id: str) -> tuple[list, list]:
    messages = await rows(
        res, "SELECT turn_id, text FROM messages WHERE user_id = $1 ORDER BY seq", user_id
    )
    facts = await rows(res, "SELECT text FROM relations WHERE user_id = $1", user_id)
    return messages, facts


async def test_every_postgres_node_answers_503_during_a_crash_and_keeps_acknowledged_turns(
    node, throwaway: Clients, pg_server: PostgresServer, user_id: str
) -> None:
    async with node("memory-upserter", throwaway) as upserter:
        acked = await upserter.post("/v1/commit", json=commit_body(user_id, plan=PLAN))
        assert acked.status_code == 200, acked.text
    before = await _facts_and_messages(throwaway, user_id)

    await asyncio.to_thread(pg_server.stop, "immediate")
    try:
        for name, (path, body) in PG_NODES.items():
            async with node(name, throwaway) as client:
                assert_unavailable(await client.post(path, json=body(user_id)), "postgres")
                ready = await client.get("/readyz")
                assert ready.status_code == 503 and ready.headers["x-unready"] == "postgres"
    finally:
        await asyncio.to_thread(pg_server.start)

    for name, (path, body) in PG_NODES.items():  # the same pools, no restart of the node
        async with node(name, throwaway) as client:
            answer = await client.post(path, json=body(user_id))
            assert answer.status_code == 200, (name, answer.text)
            assert (await client.get("/readyz")).status_code == 200
    messages, facts = await _facts_and_messages(throwaway, user_id)
    assert messages[:2] == before[0] and facts == before[1]
    assert [m["text"] for m in messages[2:]] == ["Anyone home?", "Noted."]


async def test_a_commit_that_failed_during_the_outage_is_written_once_when_retried(
    node, throwaway: Clients, pg_server: PostgresServer, user_id: str
) -> None:
    body = commit_body(user_id, plan=PLAN)
    async with node("memory-upserter", throwaway) as client:
        await asyncio.to_thread(pg_server.stop, "immediate")
        try:
            assert_unavailable(await client.post("/v1/commit", json=body), "postgres")
        finally:
            await asyncio.to_thread(pg_server.start)
        first = await client.post("/v1/commit", json=body)
        again = await client.post("/v1/commit", json=body)
    assert first.status_code == again.status_code == 200
    assert again.headers.get("idempotent-replayed") == "true"
    messages, facts = await _facts_and_messages(throwaway, user_id)
    assert len(messages) == 2 and len(facts) == 1


@pytest.mark.parametrize("name", ["graph-hydrator", "memory-upserter"])
async def test_a_stalled_postgres_gives_503_within_the_query_timeout_then_recovers(
    node, slow_resources: Clients, slow_pg: DelayProxy, user_id: str, name: str
) -> None:
    path, body = PG_NODES[name]
    async with node(name, slow_resources) as client:
        assert (await client.post(path, json=body(user_id))).status_code == 200
        slow_pg.delay_s = 3 * slow_resources.settings.pg_timeout_s
        try:
            assert_unavailable(await client.post(path, json=body(user_id + "x")), "postgres")
        finally:
            slow_pg.delay_s = 0.0
        answer = await client.post(path, json=body(user_id + "y"))
        assert answer.status_code == 200, answer.text


async def test_a_node_started_while_postgres_is_down_becomes_ready_when_it_returns(
    node, throwaway_settings, pg_server: PostgresServer, user_id: str
) -> None:
    await asyncio.to_thread(pg_server.stop, "immediate")
    try:
        res = await Clients.open(throwaway_settings, {"postgres"})
        async with node("graph-hydrator", res) as client:
            ready = await client.get("/readyz")
            assert ready.status_code == 503 and ready.headers["x-unready"] == "postgres"
            assert_unavailable(
                await client.post("/v1/hydrate", json=hydrate_body(user_id)), "postgres"
            )
            await asyncio.to_thread(pg_server.start)
            assert (await client.get("/readyz")).status_code == 200
            answer = await client.post("/v1/hydrate", json=hydrate_body(user_id))
            assert answer.status_code == 200, answer.text
        await res.close()
    finally:
        if not port_in_use(pg_server.port):
            await asyncio.to_thread(pg_server.start)
