"""A person forgets and corrects from the conversation, through the HTTP chain: "forget
that…", "don't remember…" and "that's wrong, …" committed with no plan (the offline judge) or
with the model's plan, confirmed in the commit's ``confirmations`` (what the reply tells the
person), and ``/v1/turn`` in another chat, for another persona, no longer hands the model what
was forgotten or ended."""

from __future__ import annotations

import json
import re
import uuid
from datetime import timedelta
from typing import Any

from tests.chain.conversation import T0, ok
from tests.chain.test_forget import AGENT, OTHER, _model_sees, say, turn, user

LATER = T0 + timedelta(days=1)


async def _answered(nodes, user_id: str, text: str, plan: dict[str, Any]) -> dict[str, Any]:
    """A turn whose model answered with this plan (the commit reads ``answer``)."""
    return await ok(
        nodes["memory"],
        "/v1/commit",
        {
            "user_id": user_id,
            "agent_id": AGENT,
            "chat_id": "talk",
            "turn_id": uuid.uuid4().hex,
            "now": (T0 + timedelta(minutes=5)).isoformat(),
            "messages": [{"role": "user", "text": text}],
            "answer": json.dumps({"reply": "Done.", "plan": plan}),
        },
    )


async def test_forget_that_from_the_conversation_forgets_and_confirms(nodes) -> None:
    user_id = user()
    await say(nodes, user_id, "talk", "My colleague Marta Silva lives in Porto.", T0)
    assert "marta silva" in await _model_sees(nodes, user_id, OTHER, "Who is Marta?", LATER)
    asked = "Please forget that I told you about Marta Silva"
    answer = await say(nodes, user_id, "talk", asked, T0 + timedelta(minutes=1))
    assert answer["confirmations"] == ['✓ Forgotten, as you asked: "Marta Silva".']
    sees = await _model_sees(nodes, user_id, OTHER, "Who is Marta?", LATER)
    assert "marta silva" not in sees and "porto" not in sees


async def test_dont_remember_a_statement_forgets_what_it_said(nodes) -> None:
    user_id = user()
    await say(nodes, user_id, "talk", "I work at Quirinal Labs.", T0)
    assert "quirinal" in await _model_sees(nodes, user_id, OTHER, "Where do I work?", LATER)
    answer = await say(
        nodes, user_id, "talk", "Don't remember that I work at Quirinal Labs", T0 + timedelta(1)
    )
    assert answer["confirmations"] and answer["confirmations"][0].startswith("✓ Forgotten")
    assert "quirinal" not in await _model_sees(nodes, user_id, OTHER, "Where do I work?", LATER)


async def test_a_forget_that_matches_nothing_says_so_in_the_reply(nodes) -> None:
    user_id = user()
    await say(nodes, user_id, "talk", "I live in Lisbon.", T0)
    answer = await say(nodes, user_id, "talk", "Please forget about Zanzibar", T0 + timedelta(1))
    assert answer["confirmations"] == [
        'Nothing I remember matched "Zanzibar": nothing was forgotten.'
    ]


async def test_thats_wrong_ends_the_fact_and_confirms(nodes) -> None:
    user_id = user()
    await say(nodes, user_id, "talk", "I'm allergic to peanuts and shellfish.", T0)
    assert "shellfish" in await _model_sees(nodes, user_id, OTHER, "What am I allergic to?", LATER)
    answer = await say(
        nodes, user_id, "talk", "That's wrong, I'm only allergic to peanuts", T0 + timedelta(1)
    )
    (line,) = answer["confirmations"]
    assert line.startswith("✓ No longer noted") and "shellfish" in line
    sees = await _model_sees(nodes, user_id, OTHER, "What am I allergic to?", LATER)
    assert "peanuts" in sees and "shellfish" not in sees


async def test_a_models_plan_forgets_and_ends_what_the_person_asked(nodes) -> None:
    user_id = user()
    await say(nodes, user_id, "talk", "My colleague Marta Silva lives in Porto.", T0)
    await say(nodes, user_id, "talk", "I'm allergic to peanuts and shellfish.", T0)
    seen = await turn(nodes, user_id, AGENT, "Am I allergic to shellfish?", LATER)
    (handle,) = re.findall(r'"id": ?"(F[0-9a-f]{6})", ?"fact": ?"[^"]*shellfish', repr(seen))
    answer = await _answered(
        nodes,
        user_id,
        "Please forget Marta Silva. And that's wrong, I'm only allergic to peanuts.",
        {"forget": ["Marta Silva"], "ends": [handle]},
    )
    assert answer["confirmations"][0] == '✓ Forgotten, as you asked: "Marta Silva".'
    assert [c for c in answer["confirmations"][1:] if "shellfish" in c]
    sees = await _model_sees(nodes, user_id, OTHER, "Who is Marta? Allergies?", LATER)
    assert "marta silva" not in sees and "shellfish" not in sees
    refused = await _answered(nodes, user_id, "I love Porto.", {"forget": ["Porto"]})
    assert refused["confirmations"] == []  # nothing the person asked: the model may not forget
