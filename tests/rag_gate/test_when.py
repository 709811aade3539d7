"""A question that asks when prefers the recalled turns that say when."""

from __future__ import annotations

from contracts.retrieve_limits import TurnLimits
from services.rag_gate.fusion import FIRST, TurnCandidate, score_turns
from services.rag_gate.when import TEMPORAL_BOOST, asks_when, says_when


def test_questions_asking_for_a_time_are_told_apart() -> None:
    assert asks_when("When did Caroline go to the LGBTQ support group?")
    assert asks_when("  what year did Melanie start painting?")
    assert asks_when("How long ago was the trip to Lisbon?")
    assert not asks_when("What did Caroline research?")
    assert not asks_when("Where was she when it rained?")  # "when" not asked


def test_turns_that_date_what_they_tell() -> None:
    assert says_when("I went to a LGBTQ support group yesterday and it was so powerful.")
    assert says_when("We moved here in May 2021")
    assert says_when("Last Friday I finally finished the painting")
    assert not says_when("The support group was so powerful, everyone was kind.")


def candidate(id: str, rrf: float, *, dated: bool) -> TurnCandidate:
    return TurnCandidate(
        id=id,
        rrf=rrf,
        similarity=0.5,
        speaker=None,
        session_id=None,
        entity_ids=frozenset(),
        dated=dated,
    )


def test_a_turn_that_says_when_is_lifted_only_for_a_when_question() -> None:
    candidates = [
        candidate("topic", 0.030, dated=False),
        candidate("dated", 0.030 - TEMPORAL_BOOST * FIRST / 2, dated=True),
    ]
    common = {"limits": TurnLimits(), "entity_ids": (), "entity_names": (), "session_ranks": {}}
    lifted = score_turns(candidates, asks_when=True, **common)  # type: ignore[arg-type]
    assert [t.id for t in lifted] == ["dated", "topic"]
    assert lifted[0].details["when"] == round(TEMPORAL_BOOST * FIRST, 6)
    plain = score_turns(candidates, asks_when=False, **common)  # type: ignore[arg-type]
    assert [t.id for t in plain] == ["topic", "dated"]
