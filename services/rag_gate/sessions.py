"""Session-level evidence for the order of the recalled turns' sessions: what the episode search
says about each session, in the units of the turns' relevance. Pure.

Past the first ten recalled turns, :mod:`.spread` brings one turn of each further session, the
sessions ordered by their turns' relevance. Finding the right conversation is easier than
finding the exact turn, and the episode search ranks whole sessions by their reflections: a
signal the turns lack. :func:`episode_prior` turns the rank ``r`` of a session's best live
episode hit (before the episodes' own cutoff) into ``EPISODE_SHARE · 2 · FIRST / r``, added to
the session's weight in :func:`services.rag_gate.spread.session_weights` (whose unit is one
turn's relevance, at most two first places, ``2 · FIRST``). It moves no turn of the first ten:
the raw turns' R@10 cannot change, only which sessions the later turns bring.

Fitted on split A only (LoCoMo conv-26/30, through the product: ``python -m bench.recall
--conversations conv-26 conv-30``), session R@10 / R@5 0.959 / 0.880 without it, 0.968 / 0.889
at a share of 0.5, **0.969** / 0.889 at 1.0, 0.965 at 2.0; turn R@10 (0.787) and R@20 the same
at every share. With the unnamed turn query and standing instructions of main ``af7feca``
beside it, split A again: 0.966 (off) → 0.971 (0.5) → 0.974 (1.0). (Tried first and dropped:
moving the episode items themselves among the later turns of the fused ``ranking``, sessions by
RRF over the turn and episode slots: split A 0.959 → 0.956.)

As a boost to every turn of the session (``TurnLimits.session_boost``) the same signal cost
turn recall (``services/rag_gate/fusion.py``); here it only orders sessions.
"""

from __future__ import annotations

from collections.abc import Mapping

from services.rag_gate.fusion import FIRST

EPISODE_SHARE = 1.0


def episode_prior(session_ranks: Mapping[str, int]) -> dict[str, float]:
    """Per session: ``EPISODE_SHARE · 2 · FIRST / r``, ``r`` its best episode hit's rank."""
    return {s: EPISODE_SHARE * 2 * FIRST / r for s, r in session_ranks.items() if r >= 1}
