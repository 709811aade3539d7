"""Which collections a turn searches, and which hits are never read (pure: no stores)."""

from __future__ import annotations

import msgspec

from contracts.retrieve_limits import Limits
from services.core.vectors import VectorHit
from services.rag_gate.search import Found, cap, plan


def limits(**overrides: dict[str, object]) -> Limits:
    return msgspec.convert(overrides, Limits)


def hits(*cosines: float, prefix: str = "h") -> list[VectorHit]:
    return [
        VectorHit(id=f"{prefix}{i}", score=1 / (60 + i), similarity=c)
        for i, c in enumerate(cosines, 1)
    ]


def found(**kinds: list[VectorHit]) -> Found:
    return Found(
        episodes=kinds.get("episodes", []),
        knowledge=kinds.get("knowledge", []),
        facts=kinds.get("facts", []),
        episode_filter="none",
        turns=kinds.get("turns", []),
    )


def test_a_limit_of_zero_skips_its_collection_and_the_defaults_search_all_four() -> None:
    def counts(lim: Limits) -> tuple[int, int, int, int]:
        q = plan(
            lim, user_id="u", agent_id="a", dense=[0.1], text="t", entity_ids=(), history=False
        )
        return q.episodes, q.knowledge, q.facts, q.turns

    assert all(counts(Limits()))
    skipped = limits(knowledge={"k": 0}, facts={"max": 0}, turns={"max": 0})
    assert counts(skipped) == (Limits().episodes.top_k, 0, 0, 0)


def test_hits_at_or_below_the_floor_are_skipped_when_no_top_hit_could_be_a_lexical_keep() -> None:
    # facts: floor 0.20, margin 0.20 → the bar is at least 0.30; the top 3 all pass it
    facts = hits(0.5, 0.45, 0.4, 0.25, 0.2, 0.1, prefix="f")
    capped = cap(found(facts=facts), Limits())
    assert capped.skipped == {"f5", "f6"}  # 0.25 may still pass (the bar may be lower)


def test_nothing_is_skipped_when_a_top_hit_may_be_kept_lexically() -> None:
    # the 2nd hit (0.22) is below the highest possible bar (0.30) and above the lexical
    # minimum: whether it is kept depends on every live candidate's terms, so all are read
    facts = hits(0.5, 0.22, 0.1, 0.05, prefix="f")
    assert cap(found(facts=facts), Limits()).skipped == frozenset()


def test_episodes_and_failed_searches_are_never_capped() -> None:
    low = hits(0.9, 0.01, prefix="e")
    capped = cap(
        Found(episodes=low, knowledge=None, facts=None, episode_filter="none", turns=None),
        Limits(),
    )
    assert capped.skipped == frozenset()
