"""A known person's name corrected in the person's words (:mod:`..extract.renamed`)."""

from __future__ import annotations

import pytest

from services.memory_upserter.extract.people import Known
from services.memory_upserter.extract.renamed import renamed

ANNA = Known("Anna", "person:anna", ("HAS_FRIEND",))
MARTA = Known("Marta Silva", "person:marta_silva", ("HAS_COLLEAGUE",))
LISBON = Known("Lisbon", "location:lisbon", (), (), "Location")


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("her name is ana not anna", [("Anna", "Ana")]),
        ("Her name is Ana, not Anna!", [("Anna", "Ana")]),
        ("not anna, its ana", [("Anna", "Ana")]),
        ("sorry its martha not marta lol", [("Marta Silva", "Martha Silva")]),
        ("its spelled marta, not martha", []),  # no Martha known
        ("not lisbon, porto", []),  # a place, and no spelling of it
        ("its true not anna", []),  # another word, not a spelling
        ("anna is not coming", []),
    ],
)
def test_a_name_corrected_is_the_one_known_person_of_that_name(
    said: str, expected: list[tuple[str, str]]
) -> None:
    found = renamed([said], [ANNA, MARTA, LISBON])
    assert [(k.name, new) for k, new in found] == expected


def test_two_people_of_the_old_name_rename_neither() -> None:
    other = Known("Anna Costa", "person:anna_costa")
    assert renamed(["her name is ana not anna"], [ANNA, other]) == []
