"""Pure fusion rules: raw-turn re-ranking by entity and episode signals, the fused order."""

from __future__ import annotations

from dataclasses import replace

from contracts.retrieve_limits import FusionWeights, TurnLimits
from services.rag_gate import standing
from services.rag_gate.fusion import (
    DENSE_SHARE,
    FIRST,
    LONG_DENSE_SHARE,
    Slotted,
    TurnCandidate,
    dense_share,
    fuse,
    relevance,
    score_turns,
)


def turn(
    id: str,
    rrf: float,
    *,
    speaker: str | None = None,
    session: str | None = None,
    entities: frozenset[str] = frozenset(),
    standing: bool = False,
) -> TurnCandidate:
    return TurnCandidate(
        id=id,
        rrf=rrf,
        similarity=0.5,
        speaker=speaker,
        session_id=session,
        entity_ids=entities,
        standing=standing,
    )


def test_without_signals_turns_keep_the_index_order() -> None:
    scored = score_turns(
        [turn("a", 0.03), turn("b", 0.02), turn("c", 0.02)],
        limits=TurnLimits(),
        entity_ids=(),
        entity_names=(),
        session_ranks={},
    )
    assert [t.id for t in scored] == ["a", "b", "c"]
    assert scored[0].details["entity"] == scored[0].details["session"] == 0.0


def test_a_turn_said_by_or_naming_a_mentioned_entity_is_lifted() -> None:
    limits = TurnLimits(entity_boost=1.0)
    candidates = [
        turn("other", 0.030, speaker="Melanie"),
        turn("said", 0.030 - FIRST / 2, speaker="  CAROLINE "),
        turn("named", 0.030 - FIRST / 2, speaker="Melanie", entities=frozenset({"e1"})),
    ]
    scored = score_turns(
        candidates, limits=limits, entity_ids=["e1"], entity_names=["Caroline"], session_ranks={}
    )
    assert [t.id for t in scored] == ["said", "named", "other"]
    assert scored[0].details["entity"] == round(FIRST, 6)


def test_a_turn_of_a_session_whose_episode_ranked_high_is_lifted_by_that_rank() -> None:
    limits = TurnLimits(session_boost=1.0)
    candidates = [
        turn("a", 0.0300, session="s3"),
        turn("b", 0.0299, session="s1"),
        turn("c", 0.0299, session="s9"),
    ]
    scored = score_turns(
        candidates, limits=limits, entity_ids=(), entity_names=(), session_ranks={"s1": 1, "s3": 3}
    )
    assert [t.id for t in scored] == ["b", "a", "c"]
    assert scored[0].details["episode_rank"] == 1.0


def test_boosts_off_change_nothing() -> None:
    limits = TurnLimits(entity_boost=0.0, session_boost=0.0)
    scored = score_turns(
        [turn("a", 0.02, speaker="Caroline", session="s1"), turn("b", 0.03)],
        limits=limits,
        entity_ids=(),
        entity_names=["Caroline"],
        session_ranks={"s1": 1},
    )
    assert [t.id for t in scored] == ["b", "a"]


def test_fusion_interleaves_slots_by_weighted_reciprocal_rank() -> None:
    items = [
        Slotted("turn", "t1", 1, 20),
        Slotted("turn", "t2", 2, 20),
        Slotted("fact", "f1", 1, 8),
        Slotted("episode", "e1", 1, 190),
    ]
    order = [i.id for i, _ in fuse(items, FusionWeights())]
    assert order == ["t1", "t2", "f1", "e1"]
    # equal weights: the same rank in two slots is a tie, and the shorter item goes first
    even = FusionWeights(turn=1.0, fact=1.0, episode=1.0, knowledge=1.0)
    assert [i.id for i, _ in fuse(items, even)] == ["f1", "t1", "e1", "t2"]


def scored_turn(id: str, rrf: float, similarity: float, bm25: float | None) -> TurnCandidate:
    return TurnCandidate(
        id=id,
        rrf=rrf,
        similarity=similarity,
        speaker=None,
        session_id=None,
        entity_ids=frozenset(),
        bm25=bm25,
    )


def test_turns_are_ranked_by_their_scores_not_their_ranks() -> None:
    # "b" is one place behind "a" in both of the index's lists, but far ahead in BM25 (it
    # shares the question's rare word) while barely behind in cosine: scores see the gap
    candidates = [
        scored_turn("a", 2 / 61, similarity=0.60, bm25=3.0),
        scored_turn("b", 2 / 62, similarity=0.58, bm25=12.0),
        scored_turn("c", 1 / 63, similarity=0.20, bm25=None),
    ]
    scored = score_turns(
        candidates, limits=TurnLimits(), entity_ids=(), entity_names=(), session_ranks={}
    )
    assert [t.id for t in scored] == ["b", "a", "c"]
    assert relevance(candidates)[0] == 2 * FIRST * (DENSE_SHARE + (1 - DENSE_SHARE) * 3 / 12)
    assert scored[0].details["bm25"] == 12.0


def test_without_bm25_scores_the_index_rrf_orders_the_turns() -> None:
    candidates = [
        scored_turn("a", 0.03, similarity=0.2, bm25=None),
        scored_turn("b", 0.02, similarity=0.6, bm25=None),
    ]
    assert relevance(candidates) == [0.03, 0.02]


def test_among_long_turns_the_dense_vector_weighs_more() -> None:
    assert dense_share([20, 25, 30]) == DENSE_SHARE
    assert dense_share([20, 300, 400]) == LONG_DENSE_SHARE > DENSE_SHARE
    # the same scores, long turns: the closer cosine wins over the larger BM25
    short = [
        TurnCandidate("a", 0.03, 0.60, None, None, frozenset(), bm25=4.0, words=20),
        TurnCandidate("b", 0.03, 0.45, None, None, frozenset(), bm25=10.0, words=20),
    ]
    long = [replace(c, words=300) for c in short]
    common = {"limits": TurnLimits(), "entity_ids": (), "entity_names": (), "session_ranks": {}}
    assert [t.id for t in score_turns(short, **common)] == ["b", "a"]  # type: ignore[arg-type]
    assert [t.id for t in score_turns(long, **common)] == ["a", "b"]  # type: ignore[arg-type]


def test_a_standing_instruction_is_lifted_by_how_well_it_matches() -> None:
    """'Always include version numbers when I ask about libraries' shares few words with
    'Which libraries are used?': it is lifted above turns that match the question as well
    or a little better, by its relevance share."""
    candidates = [
        turn("topic", 0.030),
        turn("rule", 0.024, standing=True),
        turn("weak rule", 0.004, standing=True),
    ]
    scored = score_turns(
        candidates, limits=TurnLimits(), entity_ids=(), entity_names=(), session_ranks={}
    )
    lift = {t.id: t.details["standing"] for t in scored}
    assert lift["topic"] == 0.0 and 0 < lift["weak rule"] < lift["rule"] <= standing.BOOST * FIRST
    assert [t.id for t in scored][0] == "rule"
