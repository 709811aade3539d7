"""A question across sessions: told by its words, and its turns get no session context."""

from __future__ import annotations

import pytest

from contracts.retrieve_limits import TurnLimits
from services.rag_gate.across import asks_across
from services.rag_gate.fusion import TurnCandidate, score_turns


@pytest.mark.parametrize(
    "question",
    [
        "How many new columns did I want to add to the transactions table across my requests?",
        "How many project cards do I have in total after adding the new ones?",
        "How many times has Melanie gone to the beach in 2023?",
        "Did Jon and Gina both participate in dance competitions?",
        "How much did my accuracy improve between the two times I mentioned my scores?",
    ],
)
def test_a_count_or_list_over_sessions_is_across(question: str) -> None:
    assert asks_across(question)


@pytest.mark.parametrize(
    "question",
    [
        "What did Caroline research?",
        "How many commits have been merged into the main branch of my repository?",
        "How many days passed between when I got my API key and the UI wireframes?",
        "When did Melanie paint a sunrise?",
        "What is the total of my budget?",
    ],
)
def test_a_question_about_one_thing_or_a_current_value_is_not(question: str) -> None:
    assert not asks_across(question)


def _turn(id: str, similarity: float, session: str) -> TurnCandidate:
    return TurnCandidate(
        id=id,
        rrf=0.01,
        similarity=similarity,
        speaker=None,
        session_id=session,
        entity_ids=frozenset(),
        bm25=similarity,
    )


def test_across_sessions_the_best_sessions_other_turns_are_not_lifted() -> None:
    """Without session context the second session's turn comes before the best session's
    weaker one: the answer's parts are in several sessions."""
    candidates = [_turn("best", 0.9, "s1"), _turn("same", 0.5, "s1"), _turn("other", 0.6, "s2")]
    common = {"limits": TurnLimits(), "entity_ids": (), "entity_names": (), "session_ranks": {}}
    within = score_turns(candidates, **common)  # type: ignore[arg-type]
    across = score_turns(candidates, across=True, **common)  # type: ignore[arg-type]
    assert [t.id for t in within] == ["best", "same", "other"]
    assert [t.id for t in across] == ["best", "other", "same"]
    assert all(t.details["session_context"] == 0.0 for t in across)
