"""The person in every conversation (issue 12), through the HTTP chain as n8n calls it.

Alice tells agent deanna, in chat 1, where she lives, where she works and where her sister
lives; each turn is committed through ``/v1/commit`` with no plan, so memory-upserter's shadow
judge writes what she stated (no SQL, no hand-made plan). Then, in a new chat with deanna and
in a chat with another persona, every question runs pulse → hydrate → retrieve → envelope with
the bodies of ``n8n-workflows/fast-brain.json``, and the rendered system message must carry
the answer although the question names nothing. What deanna keeps for herself (agent scope)
never reaches the other persona.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from services.core.app import create_app
from services.core.deps import Clients
from services.core.settings import Settings
from services.nodes import NODE_NAMES, node_spec

T0 = datetime(2026, 4, 6, 9, 0, tzinfo=UTC)
ROUTES = {
    "pulse-decay": "pulse",
    "graph-hydrator": "hydrate",
    "rag-gate": "retrieve",
    "envelope-validator": "envelope",
    "reflection-writer": "reflect",
    "memory-upserter": "memory",
}
TOLD = ["I live in Lisbon.", "I work at Acme as a nurse.", "My sister Marta lives in Madrid."]
DEANNAS_OWN = "User follows deanna's couch-to-5k plan"


@pytest.fixture(scope="module")
async def nodes(
    settings: Settings, resources: Clients, app_client
) -> AsyncIterator[dict[str, httpx.AsyncClient]]:
    async with AsyncExitStack() as stack:
        yield {
            ROUTES[node]: await stack.enter_async_context(
                app_client(create_app(node_spec(node), settings, resources))
            )
            for node in NODE_NAMES
        }


async def _ok(client: httpx.AsyncClient, path: str, body: dict[str, Any]) -> dict:
    answer = await client.post(path, json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


async def _tell(
    nodes, user_id: str, agent: str, chat: str, text: str, at: datetime, plan: dict | None = None
) -> None:
    """One turn as the fast brain commits it: the user's message and the reply."""
    ids = {"user_id": user_id, "agent_id": agent, "chat_id": chat}
    await _ok(nodes["pulse"], "/v1/pulse", {**ids, "message": text, "now": at.isoformat()})
    body: dict[str, Any] = {
        **ids,
        "turn_id": uuid.uuid4().hex,
        "now": at.isoformat(),
        "messages": [{"role": "user", "text": text}, {"role": "assistant", "text": "Got it."}],
    }
    if plan is not None:
        body["plan"] = plan
    await _ok(nodes["memory"], "/v1/commit", body)


async def _ask(
    nodes, user_id: str, agent: str, chat: str, text: str, at: datetime
) -> dict[str, Any]:
    """pulse → hydrate → retrieve → envelope, with fast-brain.json's bodies."""
    ids = {"user_id": user_id, "agent_id": agent, "chat_id": chat}
    now = at.isoformat()
    pulse = await _ok(nodes["pulse"], "/v1/pulse", {**ids, "message": text, "now": now})
    session = pulse["session"]
    hydrate = await _ok(
        nodes["hydrate"],
        "/v1/hydrate",
        {
            **ids,
            "message": text,
            "active_entity_ids": session["active_entity_ids"],
            "topic_focus": session["scratch"].get("topic_focus"),
            "now": now,
        },
    )
    retrieve = await _ok(
        nodes["retrieve"],
        "/v1/retrieve",
        {
            **ids,
            "message": text,
            "entity_ids": hydrate["active_entity_ids"],
            "scratch": session["scratch"],
            "now": now,
        },
    )
    envelope = await _ok(
        nodes["envelope"],
        "/v1/envelope",
        {
            **ids,
            "AFFECT": pulse["AFFECT"],
            "GRAPH": hydrate["GRAPH"],
            "EPISODE": retrieve["EPISODE"],
            "KNOWLEDGE": retrieve["KNOWLEDGE"],
            "FACTS": retrieve["FACTS"],
            "ranking": retrieve.get("ranking") or [],
            "persona_prompt": f"You are {agent}.",
            "conversation_summary": session["summary"] or "",
            "recent_turns": session["turns"],
            "user_message": text,
            "now": now,
        },
    )
    return {
        "hydrate": hydrate,
        "retrieve": retrieve,
        "envelope": envelope,
        "system": envelope["messages"][0]["content"],
    }


@pytest.fixture(scope="module")
async def alice(nodes) -> str:
    """Alice's three facts, told to deanna in chat 1, and one deanna keeps for herself (its
    value is in her words: a plan fact that is not is dropped as ungrounded)."""
    user_id = f"alice-{uuid.uuid4().hex[:8]}"
    for n, text in enumerate(TOLD):
        await _tell(nodes, user_id, "deanna", "chat-1", text, T0 + timedelta(minutes=n))
    await _tell(
        nodes,
        user_id,
        "deanna",
        "chat-1",
        "I'm on your couch-to-5k plan.",
        T0 + timedelta(minutes=5),
        plan={
            "facts": [
                {
                    "memory_type": "PROFILE",
                    "subject": "user",
                    "predicate": "TRAINING_PLAN",
                    "value": "couch-to-5k plan",
                    "scope": "agent",
                    "importance": 3,
                    "text": DEANNAS_OWN,
                }
            ]
        },
    )
    return user_id


WHERE = [("deanna", "chat-2"), ("anaketa", "chat-9")]
LATER = T0 + timedelta(days=2)


@pytest.mark.parametrize(("agent", "chat"), WHERE)
async def test_where_do_i_live_finds_lisbon_in_a_new_chat_and_with_another_persona(
    nodes, alice: str, agent: str, chat: str
) -> None:
    turn = await _ask(nodes, alice, agent, chat, "Where do I live?", LATER)
    assert "lives in Lisbon" in turn["system"]
    foundation = [f["text"] for f in turn["envelope"]["envelope"]["GRAPH"]["foundation"]]
    assert any("Lisbon" in f for f in foundation) and any("Acme" in f for f in foundation)
    gate = turn["retrieve"]["gate"]
    assert gate["open"] and "about_user" in gate["reasons"]


@pytest.mark.parametrize(("agent", "chat"), WHERE)
async def test_where_does_my_sister_live_resolves_marta_and_carries_madrid(
    nodes, alice: str, agent: str, chat: str
) -> None:
    turn = await _ask(nodes, alice, agent, chat, "Where does my sister live?", LATER)
    (mention,) = turn["hydrate"]["mentions"]
    assert (mention["text"], mention["relation"]) == ("my sister", "sister")
    marta = mention["entity_id"]
    assert [e["name"] for e in turn["hydrate"]["GRAPH"]["entities"] if e["entity_id"] == marta] == [
        "Marta"
    ]
    assert "Marta lives in Madrid" in turn["system"]
    relevant = turn["system"].split("[RELEVANT MEMORIES]", 1)[1].split("\n\n", 1)[0]
    assert "Marta lives in Madrid" in relevant
    assert turn["retrieve"]["gate"]["open"]


@pytest.mark.parametrize(("agent", "chat"), WHERE)
async def test_what_do_i_do_for_a_living_carries_the_job(
    nodes, alice: str, agent: str, chat: str
) -> None:
    turn = await _ask(nodes, alice, agent, chat, "What's my job?", LATER)
    assert "nurse" in turn["system"] and "Acme" in turn["system"]


async def test_what_one_persona_keeps_for_itself_never_reaches_another(nodes, alice: str) -> None:
    own = await _ask(nodes, alice, "deanna", "chat-3", "What do you know about me?", LATER)
    other = await _ask(nodes, alice, "anaketa", "chat-9", "What do you know about me?", LATER)
    assert DEANNAS_OWN in own["system"]
    assert "couch-to-5k" not in str(other)
    assert "lives in Lisbon" in other["system"]


async def test_small_talk_keeps_the_gate_closed_and_still_carries_the_person(
    nodes, alice: str
) -> None:
    turn = await _ask(nodes, alice, "anaketa", "chat-9", "Good morning!", LATER)
    assert not turn["retrieve"]["gate"]["open"]
    assert "lives in Lisbon" in turn["system"]
