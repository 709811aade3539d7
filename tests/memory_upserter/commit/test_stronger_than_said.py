"""A small model's inventions by class (issue 27, round 10: :mod:`.strength`, :mod:`.habits`,
the hedges of :mod:`.spoken`, the home claim of :mod:`.support`): a fact that says more than
the person did — a degree, how much, a diet from a dish, a habit from a one-off, someone
else's thing or wish, a trip's origin as a home — is dropped from a plan held strictly; its
fair twin, said as strongly as the fact, is kept.

Sentences of our own, one class a pair, none of them a recorded conversation's."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from contracts.plan import PlanFact
from services.memory_upserter.commit.grounding import Said, ground

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
KEEP, DROP = ("kept", "lowered"), ("dropped", "hedged")


def _f(text: str, value: str, predicate: str = "fact") -> PlanFact:
    kind = "PEOPLE" if "user's" in text.lower() else "PROFILE"
    return PlanFact(memory_type=kind, predicate=predicate, value=value, text=text)


# (said this turn, said earlier in the session, fact, keep or drop)
CASES = [
    # a degree never given: a friend is no best friend, "best man" no best friend
    ("my buddy jan is visiting this weekend", (),
     _f("Jan is the user's best friend", "Jan", "best_friend"), DROP),
    ("im gonna be best man at jans wedding!!", (),
     _f("Jan is the user's best friend", "Jan", "best_friend"), DROP),
    ("my best friend jan is visiting this weekend", (),
     _f("Jan is the user's best friend", "Jan", "best_friend"), KEEP),
    ("jan my bestie is visiting this weekend", (),
     _f("Jan is the user's best friend", "Jan", "best_friend"), KEEP),
    # … nor is a liking a profession
    ("salsa is so fun, it really speaks to me", (),
     _f("User is a professional dancer", "professional dancer", "occupation"), DROP),
    ("im a professional dancer with the city ballet", (),
     _f("User is a professional dancer", "professional dancer", "occupation"), KEEP),
    # how much: a nap is no napping a lot
    ("had a lovely nap after lunch", (), _f("User naps a lot", "napping", "habit"), DROP),
    ("i nap a lot these days, night shifts", (), _f("User naps a lot", "napping", "habit"), KEEP),
    # a diet from a dish
    ("made a vegetarian lasagna for the team lunch, it was a hit", (),
     _f("User is vegetarian", "vegetarian", "diet"), DROP),
    ("been vegetarian since may btw", (), _f("User is vegetarian", "vegetarian", "diet"), KEEP),
    ("im vegan so no cheese board for me", (), _f("User is vegan", "vegan", "diet"), KEEP),
    # someone else's thing, only remarked on
    ("the mural sounds amazing! must be fun to paint", (),
     _f("User is painting the mural", "the mural", "project"), DROP),
    ("im painting the mural at the school this week", (),
     _f("User is painting the mural", "the mural", "project"), KEEP),
    # a trip's origin is no home; a home said elsewhere is no home of this place
    ("my cousin ana is flying in from lisbon tmrw", (),
     _f("Ana lives in Lisbon", "Lisbon", "location"), DROP),
    ("my brother ben is driving down from york for the weekend", ("i live in leeds",),
     _f("Ben lives in York", "York", "lives_in"), DROP),
    ("my brother ben lives in york, hes driving down for the weekend", (),
     _f("Ben lives in York", "York", "lives_in"), KEEP),
    # a one-off (in the language the person practises, too) is no hobby; its activity is the
    # value, not the people it was done with
    ("went kayaking w the office crew yesterday, first time. dave from the office was a pro", (),
     _f("User goes kayaking with the office crew", "kayaking", "hobby"), DROP),
    ("gestern bin ich zum ersten Mal mit dem Team bouldern gegangen, ist das richtig?", (),
     _f("User goes bouldering", "bouldering", "hobby"), DROP),
    ("i go bouldering with the office crew every thursday", (),
     _f("User goes bouldering with the office crew", "bouldering", "hobby"), KEEP),
    # someone else's wish answered "we'll see", and a counterfactual wish, are no plans
    ("tom wants to do a cooking class in june, i said well see", (),
     _f("User and Tom are doing a cooking class in June", "cooking class", "plans"), DROP),
    ("i wish i could learn to surf in bali next year", (),
     _f("User will learn to surf in Bali next year", "surf", "course"), DROP),
    ("booked it! learning to surf in bali next april", (),
     _f("User will learn to surf in Bali next year", "surf", "course"), KEEP),
]  # fmt: skip


@pytest.mark.parametrize(("said", "earlier", "fact", "expected"), CASES)
def test_a_fact_is_kept_only_as_strong_as_it_was_said(
    said: str, earlier: tuple[str, ...], fact: PlanFact, expected: tuple[str, ...]
) -> None:
    assert ground(fact, Said(NOW, (said,), earlier)).verdict in expected


def test_held_to_the_conversation_an_overstated_fact_is_only_lowered() -> None:
    """A plan in the strict schema's shape keeps an overstated fact unsure, out of FOUNDATION."""
    said = Said(NOW, ("my buddy jan is visiting this weekend",), trust="session")
    fact = _f("Jan is the user's best friend", "Jan", "best_friend")
    assert ground(fact, said).verdict == "lowered"
