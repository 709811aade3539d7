"""Session-level evidence for the order of the recalled turns' sessions: the episode search's
rank of a session, in the units of a turn's relevance, reorders the sessions past the first
turns and never the first turns themselves."""

from __future__ import annotations

import pytest

from services.rag_gate import sessions
from services.rag_gate.fusion import FIRST
from services.rag_gate.sessions import episode_prior
from services.rag_gate.spread import HEAD, spread


def test_the_prior_halves_with_each_rank_of_the_sessions_best_episode() -> None:
    share = sessions.EPISODE_SHARE
    assert episode_prior({"a": 1, "b": 2, "c": 4}) == pytest.approx(
        {"a": share * 2 * FIRST, "b": share * FIRST, "c": share * FIRST / 2}
    )
    assert episode_prior({}) == {}


def test_an_episode_ranked_session_comes_before_one_the_turns_alone_ranked_higher() -> None:
    head = [f"a{i}" for i in range(HEAD)]
    order = [*head, "b1", "c1"]
    session_of = {i: i[0] for i in order}
    relevance = {**dict.fromkeys(head, 2 * FIRST), "b1": FIRST, "c1": 0.9 * FIRST}
    assert spread(order, session_of, relevance)[HEAD:] == ["b1", "c1"]
    # c's episode is the search's first: c1 now leads the later turns, the first ten stay
    got = spread(order, session_of, relevance, prior=episode_prior({"c": 1}))
    assert got[:HEAD] == head
    assert got[HEAD:] == ["c1", "b1"]
    # a prior for a session of the first turns, or one with no turn, moves nothing
    assert spread(order, session_of, relevance, prior=episode_prior({"a": 1, "z": 1})) == order
