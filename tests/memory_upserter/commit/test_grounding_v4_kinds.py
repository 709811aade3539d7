"""Kinds of grounding miss the blind v4 replay showed (issue 27, v4b), each as a general rule on
sentences of its own (not the fixture's): a hedge on someone else's doing is not on the
person's fact; a thing cleared ("x is fine") is no allergy; a filler "like" is no liking; a
dash ends a clause; "edu" is education; a fact that states the hedge carries it in any form
("dreams" ~ "dream"); a wish said as "keen on" / "ready to" / "towards becoming" is no
current fact, a fact stating the interest is; mentoring is volunteering; a "home country" is
no home."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from contracts.plan import PlanFact
from services.memory_upserter.commit.grounding import Said, ground

NOW = datetime(2026, 3, 9, 18, 0, tzinfo=UTC)


def _user(predicate: str, value: str, text: str) -> PlanFact:
    return PlanFact(memory_type="PROFILE", predicate=predicate, value=value, text=text)


# (said this turn, said earlier, fact, expected verdict)
ROWS = [
    # a hedge on what someone else does leaves the person's own fact alone…
    ("update: we got the flat!! moving in on the 3rd. i think my brother is taking the job in "
     "porto too", ("we're looking at flats in porto",),
     _user("lives_in", "Porto", "User lives in Porto"), "kept"),
    ("signed the lease today, probably joao's starting at the lisbon office next month",
     ("we're moving to lisbon",), _user("lives_in", "Lisbon", "User lives in Lisbon"), "kept"),
    # … but not the person's own hedge, nor the other's hedged doing
    ("i think im moving to porto", (), _user("lives_in", "Porto", "User lives in Porto"),
     "hedged"),
    ("i think we're moving to porto", (), _user("lives_in", "Porto", "User lives in Porto"),
     "hedged"),
    ("i think my brother is taking the job in porto", (),
     PlanFact(memory_type="PEOPLE", subject="brother", predicate="works_in", value="Porto",
              text="User's brother works in Porto"), "hedged"),
    # a fact that states the hedge carries it, in any form of the word
    ("its always been my dream to open a bakery", (),
     _user("dream", "open a bakery", "User dreams of opening a bakery"), "kept"),
    ("its always been my dream to open a bakery", (),
     _user("owns", "bakery", "User owns a bakery"), "hedged"),
    ("its been a dream of mine to have a big garden", (),
     _user("goal", "big garden", "User dreams of having a big garden"), "kept"),
    # a filler "like" is no liking; "i like", "really like", "liked" are
    ("we're doing tacos on tuesdays", ("its hot, like really hot today",),
     _user("likes", "tacos", "User likes tacos"), "dropped"),
    ("i really like tacos", (), _user("likes", "tacos", "User likes tacos"), "kept"),
    ("liked the tacos at the new place", (), _user("likes", "tacos", "User likes tacos"), "kept"),
    # a thing the person clears is no allergy; the one they name still is
    ("allergic to shellfish btw, but fish is totally fine", (),
     _user("allergic_to", "fish", "User is allergic to fish"), "dropped"),
    ("allergic to shellfish btw, but fish is totally fine", (),
     _user("allergic_to", "shellfish", "User is allergic to shellfish"), "kept"),
    ("fish is fine for dinner", (), _user("likes", "fish", "User likes fish"), "dropped"),
    ("allergic to shellfish btw, but fish is totally fine", (),
     _user("can_eat", "fish", "User can eat fish (not allergic to it)"), "kept"),
    # chat short forms of a word are the word
    ("gonna finish my edu before anything else", (),
     _user("education", "education", "User is finishing their education"), "kept"),
    ("back at uni next week", (), _user("studies_at", "university", "User is at university"),
     "kept"),
    # a dash closes a clause: the hedge after it does not reach back
    ("booked the venue — honestly its been a dream to get married by the sea", (),
     _user("booked", "venue", "User booked the venue"), "kept"),
    ("booked the venue - maybe by the sea", (),
     _user("booked", "venue", "User booked the venue"), "kept"),
    ("booked the venue - maybe by the sea", (),
     _user("wedding_place", "by the sea", "User is getting married by the sea"), "hedged"),
    # a wish said as keen on / ready to / towards becoming
    ("honestly really keen on pottery classes", (),
     _user("hobby", "pottery", "User does pottery"), "hedged"),
    ("honestly really keen on pottery classes", (),
     _user("interest", "pottery classes", "User is interested in pottery classes"), "kept"),
    ("i feel ready to be a dad now", (), _user("status", "dad", "User is a dad"), "hedged"),
    ("i feel ready to be a dad now", (),
     _user("readiness", "be a dad", "User feels ready to be a dad"), "kept"),
    ("first step towards becoming a pilot: booked the medical", (),
     _user("job", "pilot", "User is a pilot"), "hedged"),
    # mentoring is volunteering; a visit is not
    ("started mentoring two kids at the youth center last month", (),
     _user("volunteers_at", "youth center", "User volunteers at the youth center"), "kept"),
    ("went to the youth center for a talk", (),
     _user("volunteers_at", "youth center", "User volunteers at the youth center"), "dropped"),
    # a home country is where the person is from, not where they live
    ("this scarf is from my home country, norway", (),
     _user("lives_in", "Norway", "User lives in Norway"), "dropped"),
    ("my home is in oslo now", (), _user("lives_in", "Oslo", "User lives in Oslo"), "kept"),
]  # fmt: skip


@pytest.mark.parametrize(("said", "earlier", "fact", "expected"), ROWS)
def test_each_kind_gets_its_verdict(
    said: str, earlier: tuple[str, ...], fact: PlanFact, expected: str
) -> None:
    assert ground(fact, Said(NOW, (said,), earlier)).verdict == expected
