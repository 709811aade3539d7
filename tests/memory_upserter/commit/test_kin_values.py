"""A relative a small model states as a plain value is the relation to that name."""

from __future__ import annotations

import pytest

from contracts.plan import PlanFact
from services.memory_upserter.commit.kin_values import is_name, linked_relatives, relation_of


def _fact(predicate: str, value: str, text: str, subject: str = "user") -> PlanFact:
    return PlanFact(
        memory_type="PEOPLE", subject=subject, predicate=predicate, value=value, text=text
    )


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
    linked, notes = linked_relatives(facts)
    assert [(f.predicate, f.object, f.value) for f in linked] == [
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
def test_what_is_no_name_or_no_relative_of_the_person_stays(fact: PlanFact) -> None:
    linked, notes = linked_relatives([fact])
    assert linked == [fact] and notes == []


def test_a_name_is_capitalised_somewhere_and_no_common_word() -> None:
    assert is_name("joana", "the user's sister Joana")
    assert not is_name("joana", "the user's sister joana")
    assert not is_name("The Boss", "The Boss")
