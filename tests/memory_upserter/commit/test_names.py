"""Whom a plan's names mean on the write side (003 §10): a given name is the known full name,
several namesakes leave the link open with the one question, a relation picks one, and an
unknown name takes the category its predicate implies — never a Person by default."""

from __future__ import annotations

import msgspec
import pytest

from contracts.plan import MemoryWritePlan
from services.memory_upserter.commit.finish import said_names
from services.memory_upserter.commit.kinds import object_category
from services.memory_upserter.commit.names import resolve
from services.memory_upserter.commit.read import SELF
from services.memory_upserter.extract.people import Known

pytestmark = pytest.mark.pure

SILVA = Known("Marta Silva", "person:marta_silva", ("HAS_COLLEAGUE",))
SISTER = Known("Marta", "person:marta", ("HAS_SISTER",))
BEA = Known("Beatriz", "person:beatriz", ("HAS_SISTER",))
BEA_WORK = Known("Beatriz", "person:beatriz_2", ("HAS_COLLEAGUE",))
PIXEL = Known("Pixel", "pet:pixel", (), (), "Pet")


def _plan(*facts: dict) -> MemoryWritePlan:
    return msgspec.convert({"facts": list(facts)}, MemoryWritePlan)


def _fact(subject: str, predicate: str, obj: str | None = None, value: str | None = None):
    return {
        "memory_type": "PEOPLE" if subject != "user" else "PROFILE",
        "subject": subject,
        "predicate": predicate,
        "object": obj,
        "value": value,
        "text": f"{subject} {predicate} {obj or value}",
    }


def test_a_dog_is_a_pet_and_an_unknown_thing_is_no_person() -> None:
    out = resolve(
        _plan(_fact("Pixel", "BREED", value="beagle mix"), _fact("user", "has_dog", "Pixel"))
    )
    assert [(w.name, w.category) for w in out.writes] == [("Pixel", "Pet")]
    car = resolve(_plan(_fact("user", "HAS_CAR", "Tesla")))
    assert [(w.name, w.category) for w in car.writes] == [("Tesla", "Other")]
    assert object_category("HAS_SISTER", "PEOPLE") == "Person"
    assert object_category("works_for", "PROFILE") == "Org"


def test_a_known_pet_is_found_again_by_its_name() -> None:
    out = resolve(
        _plan(_fact("user", "HAS_DOG", "Pixel"), _fact("Pixel", "AGE", value="3")), [PIXEL]
    )
    assert [(w.name, w.category, w.ref) for w in out.writes] == [("Pixel", "Pet", "pet:pixel")]
    assert [(s, o) for _, s, o in out.facts] == [(SELF, 0), (0, None)]


def test_a_given_name_is_the_one_known_full_name() -> None:
    out = resolve(_plan(_fact("marta", "LIVES_IN", value="Porto")), [SILVA])
    assert [w.ref for w in out.writes] == ["person:marta_silva"] and not out.open


def test_several_namesakes_leave_the_link_open_with_one_question() -> None:
    out = resolve(_plan(_fact("Marta", "LIVES_IN", value="Porto")), [SISTER, SILVA])
    assert out.facts == [] and len(out.left_open) == 1
    assert out.open == {
        "Marta": "Which Marta do you mean — Marta (sister) or Marta Silva (colleague)?"
    }


def test_the_relation_picks_one_of_two_namesakes() -> None:
    out = resolve(_plan(_fact("user", "HAS_SISTER", "Beatriz")), [BEA, BEA_WORK])
    assert [w.ref for w in out.writes] == ["person:beatriz"] and not out.open


def test_the_relation_the_person_put_before_the_name_picks_one() -> None:
    pregnant = _plan(_fact("Marta", "PREGNANT", value="pregnant"))
    out = resolve(pregnant, [SISTER, SILVA], ["my sister marta is pregnant!!!"])
    assert [w.ref for w in out.writes] == ["person:marta"] and not out.open
    out = resolve(pregnant, [SISTER, SILVA], ["my coworker marta is pregnant"])
    assert [w.ref for w in out.writes] == ["person:marta_silva"] and not out.open
    out = resolve(pregnant, [SISTER, SILVA], ["marta is pregnant"])
    assert out.open  # no relation said: still asked


def test_the_full_name_the_person_said_picks_one_of_two_namesakes() -> None:
    leaving = _plan(_fact("Marta", "LEAVING", value="the company"))
    out = resolve(leaving, [SISTER, SILVA], ["also marta silva is leaving the company, ugh"])
    assert [w.ref for w in out.writes] == ["person:marta_silva"] and not out.open
    out = resolve(leaving, [SISTER, SILVA], ["marta is leaving the company"])
    assert out.open  # only the given name said: still asked


def test_a_people_fact_about_an_unknown_name_is_no_person_by_its_memory_type() -> None:
    out = resolve(_plan(_fact("Pixel", "HID", value="under the bed")), [], ["pixel hid lol"])
    assert [(w.name, w.category) for w in out.writes] == [("Pixel", "Other")]
    assert out.unknown_kind == ["Pixel"]
    out = resolve(_plan(_fact("Pixel", "HID", value="under the bed")), [], ["my dog pixel hid"])
    assert [(w.name, w.category) for w in out.writes] == [("Pixel", "Pet")]
    out = resolve(_plan(_fact("Marco", "WORKS_AT", value="IKEA")), [], ["marco got a job"])
    assert [(w.name, w.category) for w in out.writes] == [("Marco", "Person")]


def test_said_names_are_the_persons_words_and_runs_folded_as_names_are() -> None:
    said = said_names(["called Lúca for his bday", "ok"])
    assert {"luca", "called luca", "luca for his", "ok"} <= set(said)
    assert "bday ok" not in said  # runs never cross messages
