"""Two people of one name told apart by the person's words alone, through ``/v1/turn`` +
``/v1/commit``: a sloppy model names the second Ana bare (no ``entities``, no
``distinct_from``), and "ana from work (brightwave ana, not uni ana)" still makes a second Ana
— never a fact silently put on the first — and a later bare "ana" asks which one."""

from __future__ import annotations

from typing import Any

import pytest

from tests.chain.test_people_by_turn import Person, current, fact, people

UNI_ANA = {
    "entities": [{"name": "Ana", "aliases": ["uni Ana"]}],
    "facts": [fact("user", "has_friend", "Ana is the user's friend from uni", object="Ana")],
}
BARE_UNI_ANA = {
    "entities": [{"name": "Ana"}],
    "facts": [fact("user", "has_friend", "Ana is the user's friend", object="Ana")],
}


def _work_ana(said: str) -> tuple[str, dict[str, Any]]:
    said_of_her = {
        "memory_type": "PEOPLE",
        "subject": "ana",
        "predicate": "works_at",
        "text": "ana from work works at brightwave",
        "value": "brightwave",
    }
    return said, {"facts": [said_of_her]}


@pytest.mark.parametrize("first", [UNI_ANA, BARE_UNI_ANA])
@pytest.mark.parametrize(
    "said",
    [
        "also ana from work (brightwave ana, not uni ana) is applying there too lol",
        "a different ana, from work, works at brightwave",
        "ana from work (not my friend ana) works at brightwave",
    ],
)
async def test_a_namesake_set_apart_in_words_is_a_second_person(
    nodes, first: dict[str, Any], said: str
) -> None:
    me = Person(nodes)
    await me.says("my buddy ana from uni just had twins!!!", first)
    one, commit = await me.says(*_work_ana(said))
    assert one["next"] == "model"
    assert [f["text"] for f in commit["facts"]] == ["ana from work works at brightwave"]
    tables = await me.memory()
    anas = people(tables, "ana")
    assert len(anas) == 2, anas
    (work,) = [r for r in tables["relations"] if r["predicate"] == "WORKS_AT"]
    (friend,) = [r for r in tables["relations"] if r["predicate"] == "HAS_FRIEND"]
    assert work["subject_id"] != friend["object_id"]  # not put on uni Ana
    assert current(tables, "works_at", me.now()) == ["ana from work works at brightwave"]

    asked, _ = await me.says("remind me to text ana about the twins")
    assert asked["next"] == "question"
    assert asked["hydrate"]["GRAPH"]["pending_question"]["question"].startswith("Which Ana")


async def test_the_same_ana_placed_the_same_way_is_not_split(nodes) -> None:
    me = Person(nodes)
    await me.says("my buddy ana from uni just had twins!!!", UNI_ANA)
    _, commit = await me.says(
        "ana from uni is coming over tonight",
        {"facts": [{"memory_type": "PEOPLE", "subject": "ana", "predicate": "visiting",
                    "text": "Ana is coming over tonight", "value": "tonight"}]},
    )  # fmt: skip
    assert len(people(await me.memory(), "ana")) == 1
    assert commit["facts"], commit


async def test_a_bare_ana_placed_by_the_words_picks_the_one_placed_there(nodes) -> None:
    me = Person(nodes)
    await me.says("my buddy ana from uni just had twins!!!", UNI_ANA)
    await me.says(*_work_ana("also ana from work (brightwave ana, not uni ana) is applying too"))
    _, commit = await me.says(
        "work ana got the feedzai job!!",
        {"facts": [{"memory_type": "PEOPLE", "subject": "ana", "predicate": "works_at",
                    "text": "Ana works at Feedzai", "value": "Feedzai"}]},
    )  # fmt: skip
    assert [f["text"] for f in commit["facts"]] == ["Ana works at Feedzai"]
    tables = await me.memory()
    assert len(people(tables, "ana")) == 2
    works = [r for r in tables["relations"] if r["predicate"] == "WORKS_AT"]
    assert len({r["subject_id"] for r in works}) == 1  # both said of work Ana
