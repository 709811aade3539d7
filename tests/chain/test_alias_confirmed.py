"""A second same-name person's alias, as a person meets it through ``/v1/turn`` +
``/v1/commit``: the alias the product recommends ("work Priya", [ANSWER FORMAT]'s
distinguishing alias) is a label, not a claim. A fact that names the person by it is
authoritative when the person's own words confirm the alias ("priya from my team": work), and
is never shown as unverified for the label alone."""

from __future__ import annotations

import pytest

from tests.chain.test_people_by_turn import Person, fact

FRIEND = {
    "entities": [{"name": "Priya"}],
    "facts": [fact("user", "has_friend", "Priya is the user's friend", object="Priya"),
              fact("Priya", "moving_to", "Priya is moving to Berlin", value="Berlin")],
}  # fmt: skip


def unverified(one: dict) -> str:
    (system,) = [m["content"] for m in one["envelope"]["messages"] if m["role"] == "system"]
    block = system.split('<data source="UNVERIFIED" authority="unverified">', 1)
    return block[1].split("</data>", 1)[0] if len(block) == 2 else ""


@pytest.mark.parametrize(
    ("said", "alias"),
    [
        ("priya from my team got promoted to lead, different priya", "work Priya"),
        ("priya from the office (not my friend priya) got promoted to lead", "work Priya"),
        ("a different priya, the one at my job, got promoted to lead", "work Priya"),
        ("another priya got promoted to lead at my work", "other Priya"),
    ],
)
async def test_a_fact_naming_a_namesake_by_its_confirmed_alias_is_not_unverified(
    nodes, said: str, alias: str
) -> None:
    me = Person(nodes)
    await me.says("my friend priya is moving to berlin", FRIEND)
    second = {
        "entities": [{"name": "Priya", "distinct_from": "person:priya", "aliases": [alias]}],
        "facts": [
            fact("user", "has_colleague", f"{alias} is the user's colleague", object=alias),
            fact(alias, "job_title", f"{alias} got promoted to lead", value="lead"),
        ],
    }
    _, commit = await me.says(said, second)
    assert not [w for w in commit["warnings"] if w["code"] == "fact_unsure"], commit["warnings"]
    later, _ = await me.says(f"how is {alias.lower()} doing?", {"facts": []})
    assert f"{alias} is the user's colleague" in later["envelope"]["messages"][0]["content"]
    assert unverified(later) == ""


async def test_an_alias_nothing_the_person_said_confirms_is_still_not_grounded(nodes) -> None:
    """Unsure, so — the plan not in the schema's whole shape, held strictly (wt9/trust) —
    dropped: a relation the person never said of a namesake nothing confirms."""
    me = Person(nodes)
    await me.says("my friend priya is moving to berlin", FRIEND)
    _, commit = await me.says(
        "a different priya got promoted to lead",
        {"entities": [{"name": "Priya", "distinct_from": "person:priya",
                       "aliases": ["gym Priya"]}],
         "facts": [fact("user", "has_colleague", "gym Priya is the user's colleague",
                        object="gym Priya")]},
    )  # fmt: skip
    assert [w["code"] for w in commit["warnings"]] == ["fact_not_grounded"]
