"""``twin chat`` offline, three short conversations the way people type: a fact and a question
in one line, a correction (of a home, a name, a diet), a todo done in passing. Each says what
memory holds after it, through the five real nodes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx

from tests.playground.test_chat import T0, conversation


async def _talk(nodes: httpx.AsyncClient, user_id: str, lines: list[str]) -> list[Any]:
    talk = conversation(nodes, user_id)
    return [
        await talk.say(text, now=T0 + timedelta(minutes=30 * n)) for n, text in enumerate(lines)
    ]


def _memory(turn: Any) -> dict[str, Any]:
    answer: dict[str, Any] = turn.answers["memory-upserter"]
    return answer


async def test_a_home_said_beside_a_question_then_corrected_and_a_call_done_in_passing(
    nodes: httpx.AsyncClient, user_id: str
) -> None:
    home, call, moved, called, where, todo = await _talk(nodes, user_id, [
        "i live in lisbon btw, any good ramen places near alfama?",
        "remind me to call the dentist tomorrow at 10",
        "wait no, i moved to porto last month actually",
        "called the dentist this morning, all sorted",
        "where do i live?",
        "what do I still have to do?",
    ])  # fmt: skip
    assert [f["text"] for f in _memory(home)["facts"]] == ["User lives in Lisbon"]
    assert [f["outcome"] for f in _memory(moved)["facts"]] == ["superseded_previous"]
    assert called.confirmations == ['✓ Done: "Call the dentist".']
    assert "Porto" in where.reply and "Lisbon" not in where.reply
    assert "Nothing is pending" in todo.reply


async def test_a_sisters_name_corrected_and_a_gift_bought_in_passing(
    nodes: httpx.AsyncClient, user_id: str
) -> None:
    news, fixed, gift, bought, who, left = await _talk(nodes, user_id, [
        "my sister joana just got a job at google, how do i congratulate her?",
        "sorry its joanna not joana",
        "i need to buy her a gift by friday",
        "bought the gift on the way home lol",
        "who is joanna?",
        "anything left to do?",
    ])  # fmt: skip
    assert len(_memory(news)["facts"]) == 2
    assert _memory(fixed)["facts"] == []
    assert [w["code"] for w in _memory(fixed)["warnings"]] == ["entity_renamed"]
    assert bought.confirmations == ['✓ Done: "Buy her a gift".']
    assert "What I know about Joanna:" in who.reply  # once, by the name, not the old spelling
    assert "Joanna is the user's sister" in who.reply and "Joanna works at Google" in who.reply
    assert "Nothing is pending" in left.reply


async def test_kids_and_a_dog_a_diet_changed_and_the_vet_booked(
    nodes: httpx.AsyncClient, user_id: str
) -> None:
    diet, family, vet, fish, booked, me = await _talk(nodes, user_id, [
        "im vegetarian since 2019, what should i cook tonight?",
        "i have 2 kids and a dog, we're busy lol",
        "remind me to book the vet for the dog next week",
        "actually i eat fish now, so pescatarian",
        "booked the vet, done",
        "what do you know about me?",
    ])  # fmt: skip
    assert {f["text"] for f in _memory(family)["facts"]} == {"User has 2 kids", "User has a dog"}
    outcomes = {f["text"]: f["outcome"] for f in _memory(fish)["facts"]}
    assert outcomes["User is pescatarian"] == "superseded_previous"
    assert booked.confirmations == ['✓ Done: "Book the vet for the dog".']
    assert "pescatarian" in me.reply and "vegetarian" not in me.reply
