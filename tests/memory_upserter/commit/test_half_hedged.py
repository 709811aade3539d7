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
