"""Grounding when the person writes in another language (issues 27, 28): a model's fair English
fact from a German, Spanish, Italian, Portuguese or French message is grounded in the message's
English gloss (:mod:`services.core.gloss`); whose clause it is is read in the gloss ("meine
schwester…", "mi primo…", "mama bleibt…" are someone else's); a fact that copies the person's
foreign words is kept lowered (:mod:`services.memory_upserter.commit.quoted`). The messages
are written for these tests in the style of the recorded sets, not taken from them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from contracts.plan import PlanFact
from services.core.gloss import with_english
from services.memory_upserter.commit.grounding import Said
from services.memory_upserter.commit.owners import owners
from services.memory_upserter.commit.plan import weigh
from services.memory_upserter.commit.quoted import copied

NOW = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


def _fact(predicate: str, value: str, text: str, subject: str = "user") -> PlanFact:
    return PlanFact(
        memory_type="PROFILE", subject=subject, predicate=predicate, value=value, text=text
    )


def _verdict(message: str, fact: PlanFact) -> str:
    """How the commit weighs the fact: the person's words read with their English, as
    :func:`.plan._facts` builds them."""
    kept, notes = weigh([fact], Said(NOW, (with_english(message),)))
    if not kept:
        return "dropped"
    return "lowered" if any(n.code == "fact_unsure" for n in notes) else "kept"


FAIR = [
    (
        "ich gehe zweimal pro woche klettern, das ist mein hobby",
        _fact("hobby", "climbing, twice a week", "User goes climbing twice a week"),
    ),
    (
        "die wohnung ist winzig aber bobo liebt das fensterbrett",
        _fact("likes", "the windowsill", "Bobo loves the windowsill in the new flat", "Bobo"),
    ),
    (
        "meine schwester lea heiratet im juni, in wien!",
        _fact("getting_married", "June, in Vienna", "Lea is getting married in June in Vienna"),
    ),
    (
        "no soy alérgica a la leche, solo a los cacahuetes",
        _fact("allergic_to", "peanuts", "User is allergic to peanuts"),
    ),
    ("mi hermano trabaja en un hospital en lisboa", _fact("has_brother", "brother", "t")),
    ("eu moro em lisboa com o meu gato", _fact("lives_in", "Lisbon", "User lives in Lisbon")),
    ("je suis enceinte!! on est tellement contents", _fact("status", "pregnant", "t")),
]


@pytest.mark.parametrize(("message", "fact"), FAIR, ids=[f.predicate for _, f in FAIR])
def test_a_fair_translation_is_kept(message: str, fact: PlanFact) -> None:
    assert _verdict(message, fact) == "kept"


SOMEONE_ELSES = [
    (
        "hallo! meine schwester lea heiratet im juni, in wien",
        _fact("getting_married", "Vienna", "User is getting married in Vienna"),
    ),
    ("mi primo ya se fue a sevilla", _fact("moved_to", "Seville", "User moved to Seville")),
    (
        "mama bleibt bis sonntag und hilft beim auspacken",
        _fact("staying", "until sunday", "User is staying until Sunday to unpack"),
    ),
]


@pytest.mark.parametrize(("message", "fact"), SOMEONE_ELSES, ids=["sister", "cousin", "mama"])
def test_someone_elses_news_is_not_the_persons(message: str, fact: PlanFact) -> None:
    assert _verdict(message, fact) == "dropped"


def test_the_owner_of_a_clause_is_read_in_its_english() -> None:
    said = owners("ich bin offiziell in wien!! meine schwester lea heiratet im juni")
    assert said == [
        ("ich bin offiziell in wien", False),
        ("meine schwester lea heiratet im juni", True),
    ]


def test_a_home_said_in_german_is_a_home() -> None:
    fact = _fact("moved_to", "Wien", "User moved to Wien")
    assert _verdict("ich bin offiziell in wien!! die wohnung ist winzig", fact) == "kept"


def test_a_copy_of_the_persons_foreign_words_is_kept_lowered() -> None:
    message = "no soy alérgica a todos los frutos secos, solo a los cacahuetes"
    fact = _fact("allergyTo", "cacahuetes", message)
    assert _verdict(message, fact) == "lowered"


@pytest.mark.parametrize(
    ("text", "copy"),
    [
        ("User heiratet im mai, in sevilla", True),
        ("tengo que buscar piso porque el piso es suyo", True),
        ("Knedlik liebt das Fensterbrett", True),
        ("User moved to Wien", False),  # a city's own name is no copy
        ("I am allergic to peanuts", False),  # an English first-person copy is a statement
        ("User's son plays the guitar", False),  # "son" is an English word too
    ],
)
def test_what_counts_as_a_copy(text: str, copy: bool) -> None:
    assert copied(text) is copy
