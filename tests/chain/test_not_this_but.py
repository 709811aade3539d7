"""Issue 28 §2 (corrections) as a person types one on Telegram, through the HTTP chain with the
offline judge: "not lisbon, porto" right after "i live in lisbon" puts Porto in Lisbon's place
and ends Lisbon; a "not now, maybe later" corrects nothing."""

from __future__ import annotations

import uuid

from tests.chain.conversation import say


def _user() -> dict[str, str]:
    return {"user_id": f"not-{uuid.uuid4().hex[:8]}", "agent_id": "deanna", "chat_id": "chat-n"}


async def test_not_this_but_that_puts_the_new_value_in_place_of_the_old(nodes) -> None:
    ids = _user()
    await say(nodes, ids, "i live in coimbra now", 0)
    fixed = await say(nodes, ids, "not coimbra, braga. typo", 1)
    outcomes = {f["text"]: f["outcome"] for f in fixed["facts"]}
    assert outcomes.get("User lives in Braga") == "created", outcomes
    assert outcomes.get("User lived in Coimbra") == "ended" or any(
        "Coimbra" in text and outcome == "ended" for text, outcome in outcomes.items()
    ), outcomes


async def test_not_now_corrects_nothing(nodes) -> None:
    ids = _user()
    await say(nodes, ids, "i live in coimbra now", 0)
    said = await say(nodes, ids, "not now, maybe later", 1)
    assert said["facts"] == []


async def test_i_meant_puts_the_value_meant_in_place_of_the_old(nodes) -> None:
    ids = _user()
    await say(nodes, ids, "I work at Hooli", 0)
    fixed = await say(nodes, ids, "oops i meant Initech", 1)
    outcomes = {f["text"]: f["outcome"] for f in fixed["facts"]}
    assert outcomes.get("User works at Initech") == "created", outcomes
    assert any("Hooli" in t and o == "ended" for t, o in outcomes.items()), outcomes
