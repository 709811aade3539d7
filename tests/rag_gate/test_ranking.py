"""Pure ranking rules: relative cutoff, lexical keep, blended score, entity cards, dedupe."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from contracts.retrieve_limits import BlendWeights, EpisodeLimits
from contracts.slots import EntityCard
from services.rag_gate.cards import Entity, build_cards, card_entities, entity_key, format_card
from services.rag_gate.ranking import (
    Candidate,
    Kept,
    apply_cutoff,
    blend,
    clip,
    dedupe_key,
    frequencies,
    rank_facts,
    recency,
    threshold,
)

NOW = datetime(2026, 1, 3, 12, 0, tzinfo=UTC)
NO_LEXICAL = EpisodeLimits(floor=0.35, margin=0.15, lexical_rank=0)


def cands(*similarities: float | None) -> list[Candidate]:
    return [Candidate(f"h{i}", i, 1 / (60 + i), s) for i, s in enumerate(similarities, 1)]


def ids(kept: list[Kept]) -> list[str]:
    return [k.candidate.id for k in kept]


# --- relative cutoff ---------------------------------------------------------------------------


def test_threshold_is_the_floor_or_top1_minus_margin_whichever_is_higher() -> None:
    assert threshold([0.7, 0.5], floor=0.35, margin=0.15) == pytest.approx(0.55)
    assert threshold([0.4, 0.2], floor=0.35, margin=0.15) == 0.35
    assert threshold([None, None], floor=0.35, margin=0.15) == 0.35
    assert threshold([], floor=0.3, margin=0.1) == 0.3


def test_hits_close_to_the_best_one_stay_and_the_rest_go_in_their_order() -> None:
    kept, bar = apply_cutoff(cands(0.70, 0.60, 0.56, 0.54, 0.30), NO_LEXICAL)
    assert bar == pytest.approx(0.55)
    assert ids(kept) == ["h1", "h2", "h3"]


def test_the_comparison_is_strict_so_a_hit_exactly_on_the_bar_goes() -> None:
    kept, _ = apply_cutoff(cands(0.5, 0.35), EpisodeLimits(floor=0.35, margin=0.5, lexical_rank=0))
    assert ids(kept) == ["h1"]


def test_nothing_passes_when_even_the_best_hit_is_under_the_floor() -> None:
    kept, bar = apply_cutoff(cands(0.30, 0.20), NO_LEXICAL)
    assert kept == [] and bar == 0.35


def test_a_top_ranked_hit_sharing_a_distinctive_word_is_kept_despite_a_low_cosine() -> None:
    query = frozenset({1, 2})  # e.g. "alfama", "flat"
    hits = [
        Candidate("a", 1, 0.033, 0.24, frozenset({1, 9})),
        Candidate("b", 2, 0.016, 0.20, frozenset({8})),
    ]
    kept, _ = apply_cutoff(hits, EpisodeLimits(), query_terms=query)
    assert ids(kept) == ["a"] and kept[0].lexical and kept[0].shared_terms == 1


@pytest.mark.parametrize(
    ("why", "hit", "others", "cue"),
    [
        ("ranked below the lexical rank", Candidate("a", 4, 0.03, 0.24, frozenset({1})), [], set()),
        (
            "cosine under the lexical minimum",
            Candidate("a", 1, 0.03, 0.1, frozenset({1})),
            [],
            set(),
        ),
        (
            "word shared by another candidate",
            Candidate("a", 1, 0.03, 0.24, frozenset({1})),
            [Candidate("b", 2, 0.02, 0.2, frozenset({1}))],
            set(),
        ),
        ("only a gate cue word in common", Candidate("a", 1, 0.03, 0.24, frozenset({1})), [], {1}),
        ("no word in common", Candidate("a", 1, 0.03, 0.24, frozenset({7})), [], set()),
    ],
)
def test_the_lexical_keep_needs_rank_cosine_and_a_distinctive_non_cue_word(
    why: str, hit: Candidate, others: list[Candidate], cue: set[int]
) -> None:
    kept, _ = apply_cutoff(
        [hit, *others], EpisodeLimits(), query_terms=frozenset({1}), cue_terms=frozenset(cue)
    )
    assert "a" not in ids(kept), why


def test_lexical_rank_zero_turns_the_lexical_keep_off() -> None:
    hit = Candidate("a", 1, 0.03, 0.24, frozenset({1}))
    assert apply_cutoff([hit], NO_LEXICAL, query_terms=frozenset({1}))[0] == []


# --- blended score -----------------------------------------------------------------------------


def test_recency_halves_every_half_life_and_never_exceeds_one() -> None:
    assert recency(NOW, NOW, 14) == 1.0
    assert recency(NOW - timedelta(days=14), NOW, 14) == pytest.approx(0.5)
    assert recency(NOW - timedelta(days=28), NOW, 14) == pytest.approx(0.25)
    assert recency(NOW + timedelta(days=3), NOW, 14) == 1.0


def test_frequency_counts_the_most_shared_entity_key_relative_to_the_most_shared_one() -> None:
    keys = [["person:marta"], ["person:marta", "place:porto"], ["person:marta"], ["person:sam"], []]
    assert frequencies(keys) == [1.0, 1.0, 1.0, pytest.approx(1 / 3), 0.0]
    assert frequencies([]) == []


def test_blend_uses_the_weights_relative_to_their_sum() -> None:
    assert blend(0.5, 1.0, 0.0, BlendWeights()) == pytest.approx(0.4 * 0.5 + 0.3)
    doubled = BlendWeights(similarity=0.8, recency=0.6, frequency=0.6)
    assert blend(0.5, 1.0, 0.0, doubled) == pytest.approx(blend(0.5, 1.0, 0.0, BlendWeights()))
    assert blend(1.7, 0.0, 0.0, BlendWeights(similarity=1, recency=0, frequency=0)) == 1.0


def _fact(
    fid: str, sim: float, age_days: float, keys: list[str], text: str | None = None, rank: int = 1
):
    return (
        Kept(Candidate(fid, rank, 0.03, sim), False, 0),
        text or f"fact {fid}",
        NOW - timedelta(days=age_days),
        keys,
    )


def test_a_recent_fact_beats_an_old_one_of_equal_similarity() -> None:
    ranked, _ = rank_facts(
        [_fact("old", 0.5, 60, ["person:a"], rank=1), _fact("new", 0.5, 1, ["person:b"], rank=2)],
        now=NOW,
        half_life_days=14,
        weights=BlendWeights(),
        limit=8,
    )
    assert [r.id for r in ranked] == ["new", "old"]
    assert ranked[0].details["recency"] > ranked[1].details["recency"]


def test_a_fact_about_the_most_discussed_entity_beats_a_lone_one() -> None:
    facts = [
        _fact("lone", 0.5, 5, ["person:sam"]),
        _fact("m1", 0.5, 5, ["person:marta"]),
        _fact("m2", 0.45, 5, ["person:marta"]),
        _fact("m3", 0.45, 5, ["person:marta"]),
    ]
    ranked, _ = rank_facts(facts, now=NOW, half_life_days=14, weights=BlendWeights(), limit=8)
    assert [r.id for r in ranked][0] == "m1" and [r.id for r in ranked][-1] == "lone"
    assert ranked[-1].details["frequency"] == pytest.approx(1 / 3, abs=1e-4)


def test_similarity_alone_decides_when_the_other_weights_are_zero() -> None:
    only_sim = BlendWeights(similarity=1, recency=0, frequency=0)
    ranked, _ = rank_facts(
        [_fact("new", 0.4, 0, ["x:a"]), _fact("old", 0.6, 300, ["x:b"])],
        now=NOW,
        half_life_days=14,
        weights=only_sim,
        limit=8,
    )
    assert [r.id for r in ranked] == ["old", "new"]


def test_facts_with_the_same_normalized_text_count_once_and_the_limit_applies_after() -> None:
    facts = [
        _fact("a", 0.6, 0, [], "Marta lives in Porto"),
        _fact("b", 0.5, 0, [], "marta lives in PORTO!"),
        _fact("c", 0.4, 0, [], "Márta lives in Porto."),
        _fact("d", 0.3, 0, [], "Sam is a chef"),
        _fact("e", 0.2, 0, [], "Mom is 70"),
    ]
    ranked, duplicates = rank_facts(
        facts, now=NOW, half_life_days=14, weights=BlendWeights(), limit=2
    )
    assert [r.id for r in ranked] == ["a", "d"] and duplicates == 2


def test_every_ranked_fact_explains_its_score() -> None:
    (ranked,), _ = rank_facts(
        [_fact("a", 0.5, 14, ["x:a"])], now=NOW, half_life_days=14, weights=BlendWeights(), limit=8
    )
    assert set(ranked.details) >= {"similarity", "recency", "frequency", "blended", "rrf"}
    assert ranked.score == pytest.approx(0.4 * 0.5 + 0.3 * 0.5 + 0.3 * 1.0)


# --- entity cards ------------------------------------------------------------------------------


def test_a_card_renders_as_000_says() -> None:
    card = EntityCard(entity_ref="person:john", label="John", facts=["f1", "f2", "f3"])
    assert format_card(card) == "[person:john]: f1; f2; f3"


def test_cards_keep_the_sql_order_cap_each_card_and_skip_relevant_facts_and_repeats() -> None:
    marta, sam = Entity("e1", "person:marta", "Marta"), Entity("e2", "person:sam", "Sam")
    rows = {
        "e1": [
            ("r0", "Marta is my sister"),
            ("r1", "Marta is a nurse"),
            ("r2", "marta is a NURSE"),
            ("r3", "Marta lives in Porto"),
            ("r4", "Marta likes jazz"),
            ("r5", "Marta has a cat"),
        ],
        "e2": [("r3", "Marta lives in Porto"), ("r6", "Sam is a chef")],
    }
    cards = build_cards(
        [marta, sam], rows, exclude_ids=["r0"], exclude_texts=["Marta has a cat"], per_card=3
    )
    assert [format_card(c) for c in cards] == [
        "[person:marta]: Marta is a nurse; Marta lives in Porto; Marta likes jazz",
        "[person:sam]: Sam is a chef",
    ]
    assert cards[0].label == "Marta"
    assert [c.fact_ids for c in cards] == [["r1", "r3", "r4"], ["r6"]]  # each fact's handle


def test_an_entity_with_no_fact_left_gets_no_card() -> None:
    cards = build_cards(
        [Entity("e1", "person:a", "A")],
        {"e1": [("r1", "x")]},
        exclude_ids=["r1"],
        exclude_texts=[],
        per_card=3,
    )
    assert cards == []


def test_card_entities_follow_the_ranked_facts_once_per_key_up_to_the_limit() -> None:
    a, b, c = Entity("1", "person:a", "A"), Entity("2", "person:b", "B"), Entity("3", "x:c", "C")
    twin = Entity("4", "person:a", "A too")
    assert card_entities([[a, b], [b, twin], [c]], 5) == [a, b, c]
    assert card_entities([[a, b], [c]], 2) == [a, b]


@pytest.mark.parametrize(
    ("ref", "name", "category", "key"),
    [
        ("person:john_doe", "John", "Person", "person:john_doe"),
        (None, "John Doe", "Person", "person:john_doe"),
        (None, "Jean-Luc O'Brien", "Person", "person:jean_luc_obrien"),
        (None, "Austin, Texas", "Location", "place:austin_texas"),
        (None, "Acme Corp.", "Org", "org:acme_corp"),
        (None, "Dashboard redesign", "Project", "project:dashboard_redesign"),
        (None, "Márta", "Pet", "pet:marta"),
        (None, "!!!", "Other", "other:unnamed"),
    ],
)
def test_the_entity_key_is_the_stored_ref_or_000s_slug(ref, name, category, key) -> None:
    assert entity_key(ref, name, category) == key


def test_dedupe_key_ignores_case_accents_and_punctuation() -> None:
    assert dedupe_key("Call Márta!") == dedupe_key("call marta") == "call marta"


def test_clip_cuts_with_an_ellipsis_only_when_needed() -> None:
    assert clip("short", 10) == "short"
    assert clip("a" * 20, 10) == "a" * 9 + "…" and len(clip("a" * 20, 10)) == 10


def test_texts_are_analysed_only_when_a_hit_could_be_kept_lexically() -> None:
    analysed: list[str] = []

    def terms_of(text: str) -> frozenset[int]:
        analysed.append(text)
        return frozenset({1})

    good = [Candidate("a", 1, 0.03, 0.7, text="a"), Candidate("b", 2, 0.02, 0.65, text="b")]
    kept, _ = apply_cutoff(good, EpisodeLimits(), query_terms=frozenset({1}), terms_of=terms_of)
    assert ids(kept) == ["a", "b"] and analysed == []
    weak = [Candidate("a", 1, 0.03, 0.24, text="alfama flat")]
    kept, _ = apply_cutoff(weak, EpisodeLimits(), query_terms=frozenset({1}), terms_of=terms_of)
    assert ids(kept) == ["a"] and analysed == ["alfama flat"]
