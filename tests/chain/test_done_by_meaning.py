"""Issue 28 §4 as a person meets it, through the HTTP chain with the offline judge (no model
plan): a todo is closed only by a message that names it by its verb or object ("I called
Marta, so that's done"); praise ("well done!") closes nothing; a bare "done" among several
pending todos asks which; a reminiscence ("…reminds me to…") is no todo."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from tests.chain.conversation import T0, ok, say


def _user() -> dict[str, str]:
    return {"user_id": f"done-{uuid.uuid4().hex[:8]}", "agent_id": "deanna", "chat_id": "chat-d"}


def _closed(commit: dict[str, Any]) -> list[str]:
    return [c["text"] for c in commit["completions"]]


async def test_praise_closes_nothing_and_naming_the_call_closes_it(nodes) -> None:
    ids = _user()
    made = await say(nodes, ids, "remind me to call Marta tomorrow", 0)
    assert [t["text"] for t in made["todos"]] == ["Call Marta"]
    for n, praise in enumerate(["well done!", "wow that's so well done, you must be proud"]):
        assert _closed(await say(nodes, ids, praise, 1 + n)) == [], praise
    assert _closed(await say(nodes, ids, "I called Marta, so that's done", 5)) == ["Call Marta"]


async def test_the_todo_named_by_its_verb_closes_among_several(nodes) -> None:
    ids = _user()
    await say(nodes, ids, "remind me to call Marta", 0)
    await say(nodes, ids, "remind me to book the dentist", 1)
    assert _closed(await say(nodes, ids, "called marta!! so thats done", 2)) == ["Call Marta"]


async def test_a_bare_done_among_several_asks_which(nodes) -> None:
    ids = _user()
    await say(nodes, ids, "remind me to call Marta", 0)
    await say(nodes, ids, "remind me to book the dentist", 1)
    bare = await say(nodes, ids, "finished it!", 2)
    assert _closed(bare) == []
    assert any(q.startswith("Which one is done:") for q in bare["questions"])


async def test_a_reminiscence_is_no_todo(nodes) -> None:
    ids = _user()
    said = await say(nodes, ids, "that trip reminds me to live life fully 🙏", 0)
    assert said["todos"] == []


async def test_the_answer_to_which_one_is_done_closes_that_todo_and_the_question(nodes) -> None:
    ids = _user()
    await say(nodes, ids, "remind me to call Marta", 0)
    await say(nodes, ids, "remind me to book the dentist", 1)
    asked = await say(nodes, ids, "done!", 2)
    assert any(q.startswith("Which one is done:") for q in asked["questions"])
    answered = await say(nodes, ids, "the dentist one", 3)
    assert _closed(answered) == ["Book the dentist"]
    now = (T0 + timedelta(minutes=4)).isoformat()
    pulse = await ok(nodes["pulse"], "/v1/pulse", {**ids, "message": "hm", "now": now})
    assert not any(
        q.startswith("Which one is done:") for q in pulse["session"]["scratch"]["pending_questions"]
    )
    assert _closed(await say(nodes, ids, "the dentist one", 5)) == []  # asked and answered once


async def test_a_done_that_fits_two_of_three_asks_once_about_those_two(nodes) -> None:
    """ "I called Nuno, so that's done" with "text Nuno the photos", "call my dad" and "fix the
    bike" pending: one question, naming the two it may mean — not a second one about all
    three."""
    ids = _user()
    for n, said in enumerate(
        [
            "remind me to text Nuno the photos",
            "remind me to call my dad",
            "remind me to fix the bike",
        ]
    ):
        await say(nodes, ids, said, n)
    said = await say(nodes, ids, "I called Nuno, so that's done", 5)
    assert _closed(said) == []
    assert len(said["questions"]) == 1, said["questions"]
    assert "fix the bike" not in said["questions"][0].lower()


async def test_a_todo_done_in_passing_closes_it_and_an_unrelated_errand_closes_nothing(
    nodes,
) -> None:
    """ "bought the gift on the way home lol": a message that opens with what was done closes
    the pending todo it names (no "done" needed); "ordered pizza tonight lol" names none."""
    ids = _user()
    await say(nodes, ids, "remind me to buy a gift for joana by friday", 0)
    await say(nodes, ids, "remind me to call the dentist tomorrow", 1)
    assert _closed(await say(nodes, ids, "ordered pizza tonight lol", 2)) == []
    closed = await say(nodes, ids, "bought the gift on the way home lol", 3)
    assert _closed(closed) == ["Buy a gift for joana"]
