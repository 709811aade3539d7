"""Same-name people and the todo lifecycle through the HTTP chain, as the flow drives it:
pulse → hydrate (→ the question, or retrieve → envelope → the model) → commit."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from typing import Any

from services.core.handles import handle_of
from tests.chain.conversation import T0, ok

USER_IDS = {"agent_id": "deanna", "chat_id": "chat-p"}


def _user() -> dict[str, str]:
    return {"user_id": f"people-{uuid.uuid4().hex[:8]}", **USER_IDS}


async def _turn(
    nodes, ids: dict[str, str], text: str, minute: int, plan: dict | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """One turn as fast-brain.json runs it: pulse, hydrate, then the question as the reply
    (no plan: the shadow judge) or the model's answer with ``plan``; hydrate's and the
    commit's answers."""
    now = (T0 + timedelta(minutes=minute)).isoformat()
    pulse = await ok(nodes["pulse"], "/v1/pulse", {**ids, "message": text, "now": now})
    session = pulse["session"]
    hydrate = await ok(
        nodes["hydrate"],
        "/v1/hydrate",
        {**ids, "message": text, "active_entity_ids": session["active_entity_ids"], "now": now},
    )
    question = hydrate["GRAPH"]["pending_question"]
    answer: dict[str, Any] = {"reply": question["question"] if question else "Okay."}
    if question is None and plan is not None:
        answer["plan"] = plan
    commit = await ok(
        nodes["memory"],
        "/v1/commit",
        {
            **ids,
            "turn_id": uuid.uuid4().hex,
            "now": now,
            "messages": [{"role": "user", "text": text}],
            "answer": json.dumps(answer),
            "active_entity_ids": hydrate["active_entity_ids"],
        },
    )
    return hydrate, commit


async def _scratch(nodes, ids: dict[str, str], minute: int) -> dict[str, Any]:
    now = (T0 + timedelta(minutes=minute)).isoformat()
    pulse = await ok(nodes["pulse"], "/v1/pulse", {**ids, "message": "hm", "now": now})
    return pulse["session"]["scratch"]


def _fact(predicate: str, obj: str, text: str, subject: str = "user") -> dict[str, Any]:
    return {"memory_type": "PEOPLE", "subject": subject, "predicate": predicate,
            "object": obj, "text": text}  # fmt: skip


TWO_MARTAS = {
    "entities": [{"name": "Marta"}, {"name": "Marta Silva"}],
    "facts": [
        _fact("HAS_SISTER", "Marta", "Marta is the user's sister"),
        _fact("HAS_COLLEAGUE", "Marta Silva", "Marta Silva is the user's colleague"),
    ],
}


async def test_which_marta_is_asked_once_and_closed_by_the_answer(nodes) -> None:
    ids = _user()
    said = "My sister Marta and my colleague Marta Silva both called today."
    await _turn(nodes, ids, said, 0, TWO_MARTAS)
    asked, _ = await _turn(nodes, ids, "remind me to call marta", 1)
    question = asked["GRAPH"]["pending_question"]
    assert question is not None and question["question"].startswith("Which")
    assert {c["name"] for c in question["candidates"]} == {"Marta", "Marta Silva"}
    silva = next(c["entity_id"] for c in question["candidates"] if c["name"] == "Marta Silva")

    answered, commit = await _turn(nodes, ids, "the work one", 2, {})
    assert answered["GRAPH"]["pending_question"] is None
    (closed,) = [w for w in commit["warnings"] if w["code"] == "question_answered"]
    assert silva in closed["detail"] and "'work Marta'" in closed["detail"]
    assert (await _scratch(nodes, ids, 3))["pending_questions"] == []

    again, _ = await _turn(nodes, ids, "did i tell you to call marta?", 4)
    assert again["GRAPH"]["pending_question"] is None
    assert [m["entity_id"] for m in again["mentions"]] == [silva]
    work, _ = await _turn(nodes, ids, "how is work marta?", 5)
    assert [m["entity_id"] for m in work["mentions"]] == [silva]


async def test_a_given_name_alone_finds_the_full_name(nodes) -> None:
    ids = _user()
    colleague = _fact("HAS_COLLEAGUE", "Marta Silva", "Marta Silva is a colleague")
    plan = {"entities": [{"name": "Marta Silva"}], "facts": [colleague]}
    await _turn(nodes, ids, "My colleague Marta Silva is great.", 0, plan)
    hydrate, commit = await _turn(
        nodes, ids, "marta moved to porto", 1,
        {"facts": [{"memory_type": "PEOPLE", "subject": "marta", "predicate": "LIVES_IN",
                    "value": "porto", "text": "Marta lives in Porto"}]},
    )  # fmt: skip
    (mention,) = hydrate["mentions"]
    assert mention["resolution"] == "unique" and mention["entity_id"] is not None
    assert [e["name"] for e in commit["entities"]] == ["Marta Silva"]
    assert [f["outcome"] for f in commit["facts"]] == ["created"]


async def test_a_dog_named_twice_is_one_pet_and_nobody_asks_which(nodes) -> None:
    ids = _user()
    plan = {"facts": [_fact("has_dog", "Pixel", "The user has a dog named Pixel")]}
    for minute in (0, 1):
        _, commit = await _turn(nodes, ids, "my dog Pixel is a beagle mix", minute, plan)
        assert [(e["name"], e["category"]) for e in commit["entities"]] == [("Pixel", "Pet")]
    hydrate, _ = await _turn(nodes, ids, "pixel ate my sock", 2)
    assert hydrate["GRAPH"]["pending_question"] is None
    assert [m["resolution"] for m in hydrate["mentions"]] == ["unique"]


async def test_my_other_sister_adds_a_sister_and_a_relation_with_a_name_picks_her(nodes) -> None:
    ids = _user()
    await _turn(nodes, ids, "My sister Marta lives in Madrid.", 0)
    _, other = await _turn(nodes, ids, "My other sister Beatriz lives in Rome.", 1)
    assert ("HAS_SISTER", "created") in {(f["predicate"], f["outcome"]) for f in other["facts"]}
    sisters, _ = await _turn(nodes, ids, "how are my sisters?", 2)
    assert len(sisters["mentions"]) == 2
    call, _ = await _turn(nodes, ids, "call my sister Beatriz", 3)
    assert call["GRAPH"]["pending_question"] is None
    (mention,) = call["mentions"]
    beatriz = next(e for e in call["GRAPH"]["entities"] if e["name"] == "Beatriz")
    assert mention["entity_id"] == beatriz["entity_id"]


async def test_todos_close_by_handle_by_words_and_a_bare_done_asks(nodes) -> None:
    ids = _user()
    _, bank = await _turn(nodes, ids, "Remind me to call the bank", 0)
    _, dentist = await _turn(nodes, ids, "Remind me to book the dentist", 1)
    _, gym = await _turn(nodes, ids, "Remind me to renew the gym pass", 2)
    bank_id = bank["todos"][0]["todo_id"]
    dentist_id = dentist["todos"][0]["todo_id"]

    _, by_handle = await _turn(nodes, ids, "called them", 3, {"done": [handle_of("todo", bank_id)]})
    assert [(c["todo_id"], c["outcome"]) for c in by_handle["completions"]] == [
        (bank_id, "completed")
    ]
    _, by_words = await _turn(nodes, ids, "forget the dentist thing, cancelled", 4)
    assert [(c["todo_id"], c["outcome"]) for c in by_words["completions"]] == [
        (dentist_id, "dropped")
    ]

    await _turn(nodes, ids, "Remind me to water the plants", 5)
    _, bare = await _turn(nodes, ids, "done!", 6)
    assert bare["completions"] == []
    assert "commitment_not_completed" in [w["code"] for w in bare["warnings"]]
    assert any(q.startswith("Which one is done:") for q in bare["questions"])
    pending = (await _scratch(nodes, ids, 7))["pending_questions"]
    assert any(q.startswith("Which one is done:") for q in pending)
    lists, _ = await _turn(nodes, ids, "what's on my list?", 8)
    wins = [t["text"] for t in lists["GRAPH"]["wins"]]
    assert wins == ["Call the bank"]  # a dropped todo is no win
    assert gym["todos"][0]["text"] in [t["text"] for t in lists["GRAPH"]["commitments"]]
