"""A fact most of whose words are said only under a hedge, though a name in it was said firmly
elsewhere (issue 27, the kind the blind v4 set showed: "my cousin arjun
became a dad!! i think i might visit them in nov" → "User is visiting Arjun in November")."""

from __future__ import annotations

from datetime import UTC, datetime

from contracts.plan import PlanFact
from services.memory_upserter.commit.grounding import Said, ground

NOW = datetime(2026, 5, 4, 18, 0, tzinfo=UTC)


def _user(predicate: str, value: str, text: str) -> PlanFact:
    return PlanFact(memory_type="PROFILE", predicate=predicate, value=value, text=text)


def _verdict(said: str, fact: PlanFact) -> str:
    return ground(fact, Said(NOW, (said,))).verdict


def test_most_words_said_only_under_a_hedge_hedge_the_fact() -> None:
    said = "my aunt lena moved to cork!! i think i might visit cork in june, not sure"
    assert _verdict(said, _user("travel", "visit Cork in June", "User visits Cork in June")) == (
        "hedged"
    )
    assert _verdict(said, _user("aunt_moved", "Cork", "User's aunt Lena moved to Cork")) == "kept"


def test_a_hedge_on_a_name_only_is_no_doubt_of_the_fact() -> None:
    """v8a (blind): "…boulderbar wienzeile i think it's called" hedges the spelling, not that she
    climbs there; "i think" on the climbing itself still hedges it."""
    said = (
        "first session at the new gym in vienna, boulderbar wienzeile i think it's called. "
        "maybe ill get a membership there, idk its kinda pricey"
    )
    gym = _user("climbs_at", "Boulderbar Wienzeile", "User boulders at Boulderbar Wienzeile")
    assert _verdict(said, gym) == "kept"
    doubted = "i think i'll boulder at boulderbar wienzeile from now on"
    assert _verdict(doubted, gym) == "hedged"
    # the names said firmly, the claim ("membership") only under "maybe": hedged
    member = _user("membership", "Boulderbar Wienzeile", "User gets a membership at Boulderbar")
    assert _verdict(said, member) == "hedged"


def test_an_aside_in_brackets_is_its_own_clause() -> None:
    """v8d (blind): "max (my boyfriend) keeps saying he wants to move to munich someday" — the
    wish is Max's, the aside says firmly who he is."""
    said = "and max (my boyfriend) keeps saying he wants to move to munich someday, not happening"
    partner = PlanFact(
        memory_type="PEOPLE",
        subject="user",
        predicate="has_partner",
        object="Max",
        text="Max is the user's boyfriend",
        fact_type="relationship",
    )
    assert _verdict(said, partner) == "kept"
