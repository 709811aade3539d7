"""Recalled turns past the first few: one of each further session first, best session first.
Pure.

The first :data:`HEAD` recalled turns keep their scored order. After them comes the best turn
(first in the scored order) of every session not met yet, the sessions ordered by the sum of
their :data:`SESSION_TOP` best relevances among the candidates; then the other turns in their
order. Raw turns of one session are many and alike (and the session where the topic came up
lifts them all, :func:`services.rag_gate.fusion.session_context`), so 20 returned turns could
span few sessions; a question whose answer is spread over several sessions (multi-hop), or
whose session the first turns missed, then finds that session among the later turns.

Fitted on split A only (LoCoMo conv-26/30, BEAM chats 1-5; ``bench/recall/fit.py``, offline,
the first 20 turns): session R@10 0.915 → 0.954, turn R@10 unchanged (sessions by their best
relevance alone 0.952, by their best 3 0.946, in the scored order 0.942; after 5 turns instead
of 10: 0.957 but turn R@10 0.764 → 0.710).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

HEAD = 10
SESSION_TOP = 2


def session_weights(
    session_of: Mapping[str, str], relevance: Mapping[str, float]
) -> dict[str, float]:
    """Per session: the sum of its best :data:`SESSION_TOP` relevances."""
    by_session: dict[str, list[float]] = {}
    for turn, score in relevance.items():
        by_session.setdefault(session_of.get(turn, turn), []).append(score)
    return {s: sum(sorted(v, reverse=True)[:SESSION_TOP]) for s, v in by_session.items()}


def spread(
    order: Sequence[str],
    session_of: Mapping[str, str],
    relevance: Mapping[str, float],
    head: int = HEAD,
) -> list[str]:
    """``order`` (turn ids, best first) with, past the first ``head``, the best turn of each
    session not met yet before the rest, best session first; a turn with no session is a
    session of its own."""
    first, later = list(order[:head]), order[head:]
    met = {session_of.get(i, i) for i in first}
    new: list[str] = []
    for i in later:
        session = session_of.get(i, i)
        if session not in met:
            met.add(session)
            new.append(i)
    weight = session_weights(session_of, relevance)
    new.sort(key=lambda i: -weight.get(session_of.get(i, i), 0.0))  # stable: ties keep order
    moved = set(new)
    return first + new + [i for i in later if i not in moved]
