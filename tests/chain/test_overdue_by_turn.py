"""An overdue reminder as a person meets it through ``/v1/turn`` + ``/v1/commit``: once its
due has passed it stays in the prompt's COMMITMENTS, marked overdue, until it is done or
dropped — a sloppy model's ``complete_commitment`` for something else done ("gym done!")
does not close it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.chain.test_people_by_turn import Person

PLUMBER = {"kind": "REMINDER", "text": "Call the plumber", "due": "tomorrow at 10"}


def commitments(one: dict[str, Any]) -> list[dict[str, Any]]:
    """The COMMITMENTS lines of the prompt ``/v1/turn`` built."""
    (system,) = [m["content"] for m in one["envelope"]["messages"] if m["role"] == "system"]
    block = system.split("[COMMITMENTS (pending)]", 1)
    if len(block) == 1:
        return []
    body = block[1].split("</data>", 1)[0]
    return [json.loads(line) for line in body.splitlines() if line.startswith("{")]


@pytest.mark.parametrize(
    ("said", "plan"),
    [
        ("gym done!", {"complete_commitment": True}),
        ("taxes finally done 🎉", None),
        ("forgot to call the plumber lol", None),
        ("still havent called the plumber ugh", {"facts": []}),
    ],
)
async def test_an_overdue_reminder_stays_in_the_prompt_until_done(
    nodes, said: str, plan: dict[str, Any] | None
) -> None:
    me = Person(nodes)
    await me.says("remind me to call the plumber tmrw at 10", {"todos": [PLUMBER]})
    before, _ = await me.says("hi", {"facts": []}, minutes=60)
    assert [(t["todo"], t.get("overdue")) for t in commitments(before)] == [
        ("Call the plumber", None)
    ]
    await me.says(said, plan, minutes=60 * 26)  # the next day at 11: the due has passed
    after, _ = await me.says("hey", {"facts": []}, minutes=5)
    assert [(t["todo"], t.get("overdue")) for t in commitments(after)] == [
        ("Call the plumber", True)
    ]
    _, done = await me.says("called the plumber, done", {"complete_commitment": True})
    assert [c["text"] for c in done["completions"]] == ["Call the plumber"]
    last, _ = await me.says("anything else?", {"facts": []})
    assert commitments(last) == []
