"""Issue 27 §3, claim-level grounding, as a sloppy small model meets it on Telegram: through
``/v1/turn`` + ``/v1/commit`` (``conversation.answer``), the model's own suggestion, a relation
made from a mere mention, a habit from a membership and a state still to come are kept out of
memory, while what the person said beside them is kept; memory is read back through
``GET /v1/export``."""

from __future__ import annotations

import uuid

from bench.model_loop.checks import export
from tests.chain.conversation import answer


def _fact(predicate: str, text: str, value: str, memory_type: str = "PROFILE") -> dict:
    return {"memory_type": memory_type, "predicate": predicate, "text": text, "value": value}


def _codes(answered: dict) -> list[str]:
    return [w["code"] for w in answered["warnings"]]


async def test_a_sloppy_models_inferences_stay_out_and_the_persons_words_stay_in(nodes) -> None:
    ids = {"user_id": f"claims-{uuid.uuid4().hex[:8]}", "agent_id": "coach", "chat_id": "tg-c"}
    first = await answer(
        nodes, ids, "hey coach! i can ride 3x a week, tue thu sun", 0,
        "Love it! Let's make Sunday your long ride day 🚴",
        {"facts": [
            _fact("ride_days", "User rides 3 times a week on tue thu sun", "tue thu sun"),
            _fact("long_ride", "User does long rides on sunday", "sunday"),
        ]},
    )  # fmt: skip
    second = await answer(
        nodes, ids, "omg lena from work just got engaged!! also need to renew my pool pass", 2,
        "Congrats to Lena!! 💍",
        {"facts": [
            _fact("friend_of", "Lena is the user's close friend", "lena", "PEOPLE"),
            _fact("hobby", "User goes to the pool regularly", "pool"),
        ]},
    )  # fmt: skip
    third = await answer(
        nodes, ids, "it'll be tough as a single dad but im up for it", 4, "You've got this 💪",
        {"facts": [_fact("status", "User is a single dad", "single dad")]},
    )  # fmt: skip
    assert [f["text"] for f in first["facts"]] == ["User rides 3 times a week on tue thu sun"]
    assert "fact_not_grounded" in _codes(first)
    assert second["facts"] == [] and _codes(second).count("fact_not_grounded") == 2
    assert third["facts"] == [] and "fact_hedged" in _codes(third)
    memory = await export(nodes["memory"], ids["user_id"])
    texts = {r["text"] for r in memory["relations"]}
    assert "User rides 3 times a week on tue thu sun" in texts
    assert not texts & {
        "User does long rides on sunday",
        "Lena is the user's close friend",
        "User goes to the pool regularly",
        "User is a single dad",
    }
