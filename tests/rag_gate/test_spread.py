"""Past the first recalled turns, one turn of each further session first, best session first."""

from __future__ import annotations

from services.rag_gate.spread import HEAD, session_weights, spread


def test_the_first_turns_keep_their_order_and_further_sessions_come_next() -> None:
    order = [f"a{i}" for i in range(HEAD + 3)] + ["b1", "c1", "b2"]
    sessions = {i: i[0] for i in order}
    relevance = dict.fromkeys(order, 1.0)
    out = spread(order, sessions, relevance)
    assert out[:HEAD] == order[:HEAD]
    assert out[HEAD:] == ["b1", "c1", "a10", "a11", "a12", "b2"]
    assert sorted(out) == sorted(order)  # nothing lost, nothing twice


def test_further_sessions_go_by_the_sum_of_their_best_two_relevances() -> None:
    order = ["a1", "b1", "c1", "c2", "c3", "b2"]
    sessions = {i: i[0] for i in order}
    relevance = {"a1": 3.0, "b1": 2.0, "b2": 1.5, "c1": 1.9, "c2": 0.1, "c3": 0.1}
    assert session_weights(sessions, relevance) == {"a": 3.0, "b": 3.5, "c": 2.0}
    assert spread(order, sessions, relevance, head=1) == ["a1", "b1", "c1", "c2", "c3", "b2"]
    relevance["c2"] = 1.8  # c: 1.9 + 1.8 beats b: 2.0 + 1.5
    assert spread(order, sessions, relevance, head=1) == ["a1", "c1", "b1", "c2", "c3", "b2"]


def test_a_turn_without_a_session_is_a_session_of_its_own() -> None:
    order = ["a1", "a2", "x", "a3"]
    assert spread(order, {"a1": "a", "a2": "a", "a3": "a"}, {}, head=1) == ["a1", "x", "a2", "a3"]
