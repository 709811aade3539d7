"""The offline judge on a name corrected and a household counted, as a person types them
through the HTTP chain (no model plan): "her name is ana not anna" corrects the person's name
— the entity is Ana, "Anna" kept as an alias, the facts that named her say Ana — and writes no
fact; "i have 2 kids and a dog" writes the children (a count) and the pet."""

from __future__ import annotations

import uuid

import pytest

from bench.model_loop.checks import export
from tests.chain.conversation import say


def _user() -> dict[str, str]:
    return {"user_id": f"nm-{uuid.uuid4().hex[:8]}", "agent_id": "deanna", "chat_id": "chat-nm"}


@pytest.mark.parametrize(
    ("told", "fixed", "old", "new"),
    [
        ("my friend anna is coming over", "her name is ana not anna", "Anna", "Ana"),
        ("my sister ana lives in rome", "its spelled anna, not ana", "Ana", "Anna"),
        ("my coworker marta is great", "sorry its martha not marta lol", "Marta", "Martha"),
    ],
)
async def test_a_name_corrected_renames_the_person_and_writes_no_fact(
    nodes, told: str, fixed: str, old: str, new: str
) -> None:
    ids = _user()
    await say(nodes, ids, told, 0)
    answer = await say(nodes, ids, fixed, 1)
    assert answer["facts"] == []
    assert [w["code"] for w in answer["warnings"]] == ["entity_renamed"]
    tables = await export(nodes["memory"], ids["user_id"])
    people = [e for e in tables["entities"] if e["category"] == "Person" and e["name"] != "me"]
    assert [e["name"] for e in people] == [new]
    assert old in [a["alias"] for a in tables["entity_aliases"]]
    assert all(old not in r["text"] and new in r["text"] for r in tables["relations"])


async def test_a_place_corrected_is_no_rename(nodes) -> None:
    ids = _user()
    await say(nodes, ids, "my friend anna lives in lisbon", 0)
    answer = await say(nodes, ids, "not lisbon, porto", 1)
    assert not [w for w in answer["warnings"] if w["code"] == "entity_renamed"]


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("i have 2 kids and a dog", {"User has 2 kids", "User has a dog"}),
        ("we have a cat and two daughters", {"User has a cat", "User has 2 daughters"}),
        ("i have 2 kids, and 3 cats", {"User has 2 kids", "User has 3 cats"}),
        ("i have a dog walker and a cleaner", set()),
    ],
)
async def test_kids_and_a_pet_in_one_breath_are_both_written(
    nodes, said: str, written: set[str]
) -> None:
    answer = await say(nodes, _user(), said, 0)
    assert {f["text"] for f in answer["facts"]} == written
