"""A relative a small model states as a plain value is the relation to that name (read by
:mod:`services.memory_upserter.commit.lenient`)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.memory_upserter.commit.lenient import is_name, read_plan, relation_of

NOW = datetime(2026, 6, 10, 10, 0, tzinfo=UTC)


def _fact(predicate: str, value: str, text: str, subject: str = "user") -> dict:
    return {"memory_type": "PEOPLE", "subject": subject, "predicate": predicate, "value": value,
            "text": text}  # fmt: skip


@pytest.mark.parametrize(
    ("predicate", "relation"),
    [("sister", "HAS_SISTER"), ("girlfriend", "HAS_GIRLFRIEND"), ("gf", "HAS_GIRLFRIEND"),
     ("HAS_BROTHER", "HAS_BROTHER"), ("mother", "HAS_MOTHER"), ("best_friend", "HAS_FRIEND"),
     ("dog", "HAS_DOG"), ("coworker", "HAS_COLLEAGUE"), ("job", None), ("lives_in", None)],
)  # fmt: skip
def test_a_relation_word_names_its_relation(predicate: str, relation: str | None) -> None:
    assert relation_of(predicate) == relation


def test_a_name_value_becomes_the_relations_object() -> None:
    facts = [
        _fact("sister", "Joana", "User's sister is Joana"),
        _fact("girlfriend", "ines", "User's girlfriend is Ines"),
        _fact("brother", "Tiago Reis", "User's brother is Tiago Reis"),
    ]
    plan, notes = read_plan({"facts": facts}, "$.plan", NOW)
    assert plan is not None
    assert [(f.predicate, f.object, f.value) for f in plan.facts] == [
        ("HAS_SISTER", "Joana", None),
        ("HAS_GIRLFRIEND", "Ines", None),
        ("HAS_BROTHER", "Tiago Reis", None),
    ]
    assert [n.code for n in notes] == ["plan_repaired"] * 3


@pytest.mark.parametrize(
    "fact",
    [
        _fact("sister", "a nurse", "User's sister is a nurse"),
        _fact("sister", "2", "User has 2 sisters"),
        _fact("brother", "engaged", "User's brother is engaged"),
        _fact("sister", "Joana", "Marta's sister is Joana", subject="Marta"),
        _fact("lives_in", "Braga", "User lives in Braga"),
        _fact("friend", "lisbon crew", "User's friends are the lisbon crew"),
    ],
)
def test_what_is_no_name_or_no_relative_of_the_person_stays(fact: dict) -> None:
    plan, notes = read_plan({"facts": [fact]}, "$.plan", NOW)
    assert plan is not None and notes == []
    assert (plan.facts[0].predicate, plan.facts[0].value) == (fact["predicate"], fact["value"])


def test_a_name_is_capitalised_somewhere_and_no_common_word() -> None:
    assert is_name("joana", "the user's sister Joana")
    assert not is_name("joana", "the user's sister joana")
    assert not is_name("The Boss", "The Boss")


@pytest.mark.parametrize(
    ("said", "value", "named"),
    [
        ("my buddy ana from uni just had twins!!!", "ana", True),
        ("my best friend tomas is visiting", "tomas", True),
        ("my other sister beatriz lives in rome", "beatriz", True),
        ("my cat is old", "old", False),
        ("my sister got engaged", "engaged", False),
        ("my gf knows", "gf", False),
        ("ana from uni had twins", "ana", False),  # no relation said before the name
    ],
)
def test_a_lowercase_name_the_person_typed_after_my_relation_is_a_name(
    said: str, value: str, named: bool
) -> None:
    assert is_name(value, f"User's friend {value}", [said]) is named


def test_a_sloppy_friend_value_typed_lowercase_is_linked() -> None:
    said = ["my buddy ana from uni just had twins!!!"]
    facts = [_fact("friend", "ana", "User's friend ana from uni")]
    plan, _ = read_plan({"facts": facts}, "$.plan", NOW, said)
    assert plan is not None
    assert [(f.predicate, f.object, f.value) for f in plan.facts] == [("HAS_FRIEND", "Ana", None)]
