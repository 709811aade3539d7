"""The model's own suggestion is not the person's fact (issue 27, the kind the blind v4 set
showed: "Let's make Saturday your long run day" → "User does long runs on saturday")."""

from __future__ import annotations

from datetime import UTC, datetime

from contracts.plan import PlanFact
from services.memory_upserter.commit.grounding import Said, ground

NOW = datetime(2026, 5, 4, 18, 0, tzinfo=UTC)
SAID = ("i swim tue and thu mornings, trying to get faster",)


def _user(predicate: str, value: str, text: str) -> PlanFact:
    return PlanFact(memory_type="PROFILE", predicate=predicate, value=value, text=text)


def test_a_word_only_the_reply_suggested_drops_the_fact() -> None:
    reply = "Nice! Try adding interval sets on thursday mornings to build speed."
    fact = _user("training", "interval sets on thursday", "User does interval sets on thursday")
    found = ground(fact, Said(NOW, SAID, reply=reply))
    assert found.verdict == "dropped" and "suggestion" in found.reason


def test_what_the_person_said_stays_though_the_reply_repeats_it() -> None:
    reply = "Love it — let's keep those tuesday and thursday swims!"
    fact = _user("swim_days", "tuesday and thursday mornings", "User swims tue and thu mornings")
    assert ground(fact, Said(NOW, SAID, reply=reply)).verdict == "kept"


def test_a_word_the_reply_says_without_suggesting_only_lowers() -> None:
    reply = "Interval sets are what got me faster too."
    fact = _user("training", "interval sets", "User does interval sets")
    assert ground(fact, Said(NOW, SAID, reply=reply)).verdict != "kept"
    assert "suggestion" not in ground(fact, Said(NOW, SAID, reply=reply)).reason
