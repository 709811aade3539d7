"""Retries and races: n8n's "Retry on fail" and two schedulers doing the same work at once."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack

import pytest

from services.core.deps import Clients
from tests.reliability.helpers import AGENT, CHAT, PLAN, commit_body, later, rows, value

COPIES = 5


@pytest.mark.parametrize("plan", [PLAN, None], ids=["plan", "shadow-judge"])
async def test_the_same_commit_sent_five_times_at_once_writes_once(
    node, throwaway: Clients, user_id: str, plan: dict | None
) -> None:
    body = commit_body(
        user_id, "My sister Marta visits. Remind me to call Marta tomorrow.", plan=plan
    )
    async with node("memory-upserter", throwaway) as client:
        answers = await asyncio.gather(
            *(client.post("/v1/commit", json=body) for _ in range(COPIES))
        )
    assert [a.status_code for a in answers] == [200] * COPIES, [a.text for a in answers]
    fresh = [a for a in answers if a.headers.get("idempotent-replayed") != "true"]
    assert len(fresh) == 1
    assert all(a.json() == fresh[0].json() for a in answers)

    messages = await rows(
        throwaway, "SELECT role, text FROM messages WHERE user_id = $1 ORDER BY seq", user_id
    )
    assert [m["role"] for m in messages] == ["user", "assistant"]
    facts = await rows(throwaway, "SELECT text FROM relations WHERE user_id = $1", user_id)
    todos = await rows(throwaway, "SELECT text FROM todos WHERE user_id = $1", user_id)
    assert len(facts) == len(fresh[0].json()["facts"]) and len(todos) == 1
    assert (
        await value(
            throwaway,
            "SELECT count(*) FROM entities WHERE user_id = $1 AND name = 'Marta'",
            user_id,
        )
        == 1
    )
    assert (
        await value(throwaway, "SELECT turn_count FROM sessions WHERE user_id = $1", user_id) == 1
    )  # turns are counted by user message
    session = await throwaway.memory.load_session(user_id, AGENT, CHAT)
    assert session is not None and [t.role for t in session.turns] == ["user", "assistant"]
    await throwaway.background.drain()  # vectors are written after the reply
    assert await throwaway.vectors.count("facts", user_id=user_id) == len(facts)


async def _quiet_session(node, res: Clients, user_id: str) -> str:
    async with node("memory-upserter", res) as client:
        for i, text in enumerate(
            [
                "Work ran late again and I skipped the gym.",
                "Marta is visiting on Saturday.",
                "I'll clean the kitchen tomorrow.",
            ]
        ):
            answer = await client.post(
                "/v1/commit", json=commit_body(user_id, text, plan={}, at=later(i))
            )
            assert answer.status_code == 200, answer.text
    return await value(res, "SELECT session_id::text FROM sessions WHERE user_id = $1", user_id)


@pytest.mark.parametrize("how", ["session", "sweep"])
async def test_two_schedulers_consolidating_one_session_at_once_write_one_episode(
    node, throwaway: Clients, user_id: str, how: str
) -> None:
    session_id = await _quiet_session(node, throwaway, user_id)
    body = (
        {"session_id": session_id}
        if how == "session"
        else {"user_id": user_id, "now": later(120).isoformat()}
    )
    async with AsyncExitStack() as stack:  # two nodes, as two schedulers' targets
        clients = [
            await stack.enter_async_context(node("reflection-writer", throwaway)) for _ in range(2)
        ]
        answers = await asyncio.gather(
            *(c.post("/v1/consolidate", json=body) for c in clients for _ in range(2))
        )
    assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
    created = [s for a in answers for s in a.json()["sessions"] if s["status"] == "created"]
    assert len(created) == 1
    skipped = [s["reason"] for a in answers for s in a.json()["skipped"]]
    assert set(skipped) <= {"locked", "nothing_new"}

    episodes = await rows(
        throwaway, "SELECT episode_id::text, indexed_at FROM episodes WHERE user_id = $1", user_id
    )
    assert [e["episode_id"] for e in episodes] == [created[0]["episode_id"]]
    assert episodes[0]["indexed_at"] is not None
    assert await throwaway.vectors.count("episodes", user_id=user_id) == 1
    [session] = await rows(
        throwaway,
        "SELECT checkpoint_message_seq, last_message_seq,"
        " locked_by FROM sessions WHERE session_id = $1::uuid",
        session_id,
    )
    assert session["checkpoint_message_seq"] == session["last_message_seq"]
    assert session["locked_by"] is None
