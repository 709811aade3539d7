"""``POST /v1/turn`` (rag-gate): the fast brain in one call answers what the four routes answer.

Memory is written as a conversation writes it (``/v1/commit`` with no plan: the shadow judge);
the same question then runs once through pulse → hydrate → retrieve → envelope with the bodies
of ``n8n-workflows/fast-brain.json`` and once through ``/v1/turn``, in two fresh chats at the
same time, and the model must be handed the same messages. The one call keeps the chain's
stops (a redelivered message, a "which Marta?" question), its isolation (another person,
another persona) and its refusals (a bad field is a 422 naming it).
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.chain.conversation import DEANNAS_OWN, LATER, T0, ask, ok


def _fresh_chat() -> str:
    return f"chat-{uuid.uuid4().hex[:8]}"


async def _turn(nodes, user_id: str, agent: str, chat: str, text: str, **extra: Any) -> dict:
    body = {
        "user_id": user_id,
        "agent_id": agent,
        "chat_id": chat,
        "message": text,
        "persona_prompt": f"You are {agent}.",
        "now": LATER.isoformat(),
        **extra,
    }
    return await ok(nodes["retrieve"], "/v1/turn", body)


def _without_timings(retrieve: dict) -> dict:
    return {key: value for key, value in retrieve.items() if key != "timings"}


QUESTIONS = [
    ("deanna", "Where do I live?"),
    ("anaketa", "Where does my sister live?"),
    ("deanna", "What do you know about me?"),
    ("anaketa", "Good morning!"),
]


@pytest.mark.parametrize(("agent", "text"), QUESTIONS)
async def test_one_call_hands_the_model_what_the_four_calls_hand_it(
    nodes, alice: str, agent: str, text: str
) -> None:
    four = await ask(nodes, alice, agent, _fresh_chat(), text, LATER)
    one = await _turn(nodes, alice, agent, _fresh_chat(), text)
    assert one["next"] == "model"
    assert one["envelope"]["messages"] == four["envelope"]["messages"]
    assert one["envelope"]["response_format"] == four["envelope"]["response_format"]
    assert one["hydrate"] == four["hydrate"]
    assert _without_timings(one["retrieve"]) == _without_timings(four["retrieve"])
    assert one["pulse"]["session"]["msg_count"] == 1


async def test_one_call_keeps_a_personas_own_memory_and_another_persons_out(
    nodes, alice: str
) -> None:
    own = await _turn(nodes, alice, "deanna", _fresh_chat(), "What do you know about me?")
    other = await _turn(nodes, alice, "anaketa", _fresh_chat(), "What do you know about me?")
    stranger = await _turn(nodes, f"bob-{uuid.uuid4().hex[:8]}", "deanna", "c", "Where do I live?")
    assert DEANNAS_OWN in own["envelope"]["messages"][0]["content"]
    assert "couch-to-5k" not in str([other["envelope"]["messages"], other["retrieve"]])
    assert "lives in Lisbon" in other["envelope"]["messages"][0]["content"]
    # (the answer's response_format is the plan's JSON Schema, whose examples name a Marta)
    seen = str([stranger["envelope"]["messages"], stranger["hydrate"], stranger["retrieve"]])
    assert not [name for name in ("Lisbon", "Marta", "Acme", "nurse") if name in seen]


async def _converse(nodes, user_id: str, chat: str, text: str, at: datetime) -> dict:
    """One turn as n8n runs it with the one call: /v1/turn, the reply, /v1/commit (no plan:
    the shadow judge decides what to remember)."""
    turn = await _turn(nodes, user_id, "deanna", chat, text, now=at.isoformat())
    await ok(
        nodes["memory"],
        "/v1/commit",
        {
            "user_id": user_id,
            "agent_id": "deanna",
            "chat_id": chat,
            "turn_id": uuid.uuid4().hex,
            "now": at.isoformat(),
            "messages": [{"role": "user", "text": text}, {"role": "assistant", "text": "I see."}],
            "active_entity_ids": turn["hydrate"]["active_entity_ids"],
        },
    )
    return turn


async def test_a_name_memory_cannot_tell_apart_stops_at_the_question(nodes) -> None:
    user_id, chat = f"dora-{uuid.uuid4().hex[:8]}", _fresh_chat()
    await _converse(nodes, user_id, chat, "my sister Marta lives in Lisbon", T0)
    await _converse(
        nodes,
        user_id,
        chat,
        "my colleague Marta works with me, a different Marta from my sister Marta",
        T0 + timedelta(minutes=1),
    )
    answer = await _turn(nodes, user_id, "deanna", _fresh_chat(), "remind me to call Marta")
    assert answer["next"] == "question"
    question = answer["hydrate"]["GRAPH"]["pending_question"]["question"]
    assert "work Marta" in question and "family Marta" in question
    assert answer["retrieve"] is None and answer["envelope"] is None


async def test_in_company_the_envelope_holds_none_of_the_persons_private_memory(
    nodes, alice: str
) -> None:
    """``private_memory: false`` (a group chat): no GRAPH, episodes or facts reach the model,
    no same-name question is asked, nothing is retrieved; the hydrate still answers for the
    commit's entities."""
    private = await _turn(nodes, alice, "anaketa", _fresh_chat(), "Where does my sister live?")
    assert "lives in Lisbon" in private["envelope"]["messages"][0]["content"]
    shared = await _turn(
        nodes, alice, "anaketa", _fresh_chat(), "Where does my sister live?", private_memory=False
    )
    assert shared["next"] == "model" and shared["retrieve"] is None
    seen = str(shared["envelope"]["messages"])
    assert not [word for word in ("Lisbon", "Marta", "nurse", "Acme") if word in seen], seen
    assert shared["hydrate"]["active_entity_ids"] == private["hydrate"]["active_entity_ids"]


async def test_a_redelivered_message_is_answered_with_the_reply_it_already_got(nodes) -> None:
    user_id, chat = f"eve-{uuid.uuid4().hex[:8]}", _fresh_chat()
    first = await _turn(nodes, user_id, "deanna", chat, "I adopted a cat.", message_id="m-41")
    assert first["next"] == "model"
    await ok(
        nodes["memory"],
        "/v1/commit",
        {
            "user_id": user_id,
            "agent_id": "deanna",
            "chat_id": chat,
            "turn_id": "m-41",
            "now": LATER.isoformat(),
            "messages": [
                {"role": "user", "text": "I adopted a cat.", "external_id": "m-41"},
                {"role": "assistant", "text": "A cat! What is its name?"},
            ],
            "active_entity_ids": first["hydrate"]["active_entity_ids"],
        },
    )
    again = await _turn(nodes, user_id, "deanna", chat, "I adopted a cat.", message_id="m-41")
    assert again["next"] == "replayed"
    assert again["pulse"]["replay_reply"] == "A cat! What is its name?"
    assert again["hydrate"] is None and again["envelope"] is None
    assert again["pulse"]["session"]["msg_count"] == 1  # not counted twice


@pytest.mark.parametrize(
    ("field", "value"),
    [("edge_cap", "40"), ("edge_cap", 5), ("persona_prompt", 7), ("force", "maybe")],
)
async def test_a_bad_option_is_a_422_naming_its_field(nodes, field: str, value: Any) -> None:
    body = {"user_id": "u", "agent_id": "deanna", "chat_id": "c", "message": "hi", field: value}
    answer: httpx.Response = await nodes["retrieve"].post("/v1/turn", json=body)
    assert answer.status_code == 422, answer.text
    assert [e["path"] for e in answer.json()["errors"]] == [f"$.{field}"]
