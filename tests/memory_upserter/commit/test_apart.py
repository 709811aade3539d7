"""A known name set apart by the person's words alone (:mod:`.commit.apart`), and the words
that set nothing apart."""

from __future__ import annotations

import pytest

from services.memory_upserter.commit.apart import apart_from, confirmed, placed_here
from services.memory_upserter.extract.people import Known

UNI = Known("Ana", "person:ana", ("HAS_FRIEND",), ("uni Ana",), "Person", "1" * 32)
BARE = Known("Ana", "person:ana", ("HAS_FRIEND",), (), "Person", "1" * 32)
WORK = Known("Ana Reis", "person:ana_reis", (), ("work Ana",), "Person", "2" * 32)


@pytest.mark.parametrize(
    ("said", "known", "aliases"),
    [
        ("also ana from work (brightwave ana, not uni ana) is applying there too lol", UNI,
         ("work Ana", "brightwave Ana")),
        ("also ana from work (brightwave ana, not uni ana) is applying there too lol", BARE,
         ("work Ana", "brightwave Ana")),
        ("another ana from my gym is so nice", BARE, ("gym Ana",)),
        ("a different ana texted me", BARE, ("other Ana",)),
        ("ana from work is visiting", UNI, ("work Ana",)),  # the known one is placed at uni
        ("ana from work is visiting", BARE, ()),  # nothing says the known one is not her
        ("ana from uni is visiting", UNI, ()),
        ("call ana tmrw", UNI, ()),
        ("my friend ana had twins", UNI, ()),
        ("brightwave ana got promoted", BARE, ()),
    ],
)  # fmt: skip
def test_the_words_set_a_namesake_apart_or_not(
    said: str, known: Known, aliases: tuple[str, ...]
) -> None:
    namesake, got = apart_from("ana", [known], [said])
    assert got == aliases
    assert (namesake is known) == bool(aliases)


SISTER = Known("Marta", "person:marta", ("HAS_SISTER",), ("family Marta",), "Person", "3" * 32)


@pytest.mark.parametrize(
    ("said", "aliases"),
    [
        ("my colleague Marta works with me, a different Marta from my sister Marta", ()),
        ("my other sister marta is a different marta", ("other Marta",)),
    ],
)
def test_the_relation_said_with_the_name_picks_the_one_who_holds_it(
    said: str, aliases: tuple[str, ...]
) -> None:
    """The mention said "my sister Marta" is the sister, whatever else the message contrasts;
    "my other sister" is someone new."""
    namesake, got = apart_from("Marta", [SISTER], [said], {"HAS_SISTER"})
    assert got == aliases and (namesake is SISTER) == bool(aliases)


def test_the_words_pick_the_namesake_placed_there() -> None:
    assert placed_here("ana", [UNI, WORK], ["ana from work got the job"]) is WORK
    assert placed_here("ana", [UNI, WORK], ["ana from uni had twins"]) is UNI
    assert placed_here("ana", [UNI, WORK], ["ana got the job"]) is None


@pytest.mark.parametrize(
    ("alias", "said", "roles", "expected"),
    [
        ("work Priya", "priya from my team got promoted", (), True),
        ("work Priya", "the priya at the office", (), True),
        ("other Priya", "a different priya got promoted", (), True),
        ("other Priya", "not uni priya", (), True),
        ("friend Priya", "priya is moving", ("HAS_FRIEND",), True),
        ("gym Priya", "a different priya got promoted", (), False),
        ("work Priya", "priya got promoted", (), False),
        ("Priya", "priya from work", (), False),  # no label to confirm
    ],
)
def test_an_alias_is_confirmed_by_the_persons_own_words(
    alias: str, said: str, roles: tuple[str, ...], expected: bool
) -> None:
    assert confirmed(alias, "Priya", [said], roles) is expected
