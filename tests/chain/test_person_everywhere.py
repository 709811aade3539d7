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

import pytest

from tests.chain.conversation import DEANNAS_OWN, LATER, ask

WHERE = [("deanna", "chat-2"), ("anaketa", "chat-9")]


@pytest.mark.parametrize(("agent", "chat"), WHERE)
async def test_where_do_i_live_finds_lisbon_in_a_new_chat_and_with_another_persona(
    nodes, alice: str, agent: str, chat: str
) -> None:
    turn = await ask(nodes, alice, agent, chat, "Where do I live?", LATER)
    assert "lives in Lisbon" in turn["system"]
    foundation = [f["text"] for f in turn["envelope"]["envelope"]["GRAPH"]["foundation"]]
    assert any("Lisbon" in f for f in foundation) and any("Acme" in f for f in foundation)
    gate = turn["retrieve"]["gate"]
    assert gate["open"] and "about_user" in gate["reasons"]


@pytest.mark.parametrize(("agent", "chat"), WHERE)
async def test_where_does_my_sister_live_resolves_marta_and_carries_madrid(
    nodes, alice: str, agent: str, chat: str
) -> None:
    turn = await ask(nodes, alice, agent, chat, "Where does my sister live?", LATER)
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
    turn = await ask(nodes, alice, agent, chat, "What's my job?", LATER)
    assert "nurse" in turn["system"] and "Acme" in turn["system"]


async def test_what_one_persona_keeps_for_itself_never_reaches_another(nodes, alice: str) -> None:
    own = await ask(nodes, alice, "deanna", "chat-3", "What do you know about me?", LATER)
    other = await ask(nodes, alice, "anaketa", "chat-9", "What do you know about me?", LATER)
    assert DEANNAS_OWN in own["system"]
    assert "couch-to-5k" not in str(other)
    assert "lives in Lisbon" in other["system"]


async def test_small_talk_keeps_the_gate_closed_and_still_carries_the_person(
    nodes, alice: str
) -> None:
    turn = await ask(nodes, alice, "anaketa", "chat-9", "Good morning!", LATER)
    assert not turn["retrieve"]["gate"]["open"]
    assert "lives in Lisbon" in turn["system"]
