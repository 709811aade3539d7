"""RRF, budgets, recall and the grounded credit (bench/recall/metrics.py)."""

from __future__ import annotations

import pytest

from bench.recall.metrics import (
    Item,
    Tally,
    all_found,
    covered,
    grounded,
    recall,
    rrf,
    within_items,
    within_tokens,
)


def item(turns: set[str], tokens: int = 1, text: str = "") -> Item:
    return Item("turn", text, frozenset(turns), tokens)


def test_rrf_sums_reciprocal_ranks() -> None:
    fused = rrf([["a", "b", "c"], ["c", "a"]], k=60)
    # a: 1/61 + 1/62; c: 1/63 + 1/61; b: 1/62
    assert fused == ["a", "c", "b"]


def test_rrf_ties_keep_first_seen_order() -> None:
    assert rrf([["a", "b"], ["b", "a"]]) == ["a", "b"]
    assert rrf([["x"], ["y"]]) == ["x", "y"]


def test_rrf_k_changes_the_weight_of_the_top() -> None:
    rankings = [["a", "b", "c", "d"], ["d", "c", "b", "a"], ["d", "b"]]
    assert rrf(rankings, k=1)[0] == "d"
    assert rrf([["a"], []]) == ["a"]


def test_within_items_and_tokens() -> None:
    items = [item({"1"}, 5), item({"2"}, 10), item({"3"}, 1)]
    assert within_items(items, 2) == items[:2]
    assert within_tokens(items, 15) == items[:2]
    # the item that does not fit ends the context: the short one after it is not taken
    assert within_tokens(items, 14) == items[:1]
    assert within_tokens(items, 4) == []
    assert within_tokens(items, 100) == items


def test_recall_and_all_evidence() -> None:
    found = covered([item({"D1:1", "D1:2"}), item({"D3:4"})])
    assert found == {"D1:1", "D1:2", "D3:4"}
    assert recall(found, ["D1:1", "D9:9"]) == 0.5
    assert all_found(found, ["D1:1", "D9:9"]) == 0.0
    assert all_found(found, ["D1:1", "D3:4"]) == 1.0
    with pytest.raises(ValueError):
        recall(found, [])


def test_tally_averages_per_group() -> None:
    tally = Tally()
    tally.add(["all", "temporal"], {"a"}, ["a", "b"])
    tally.add(["all", "single-hop"], {"c"}, ["c"])
    assert tally.recall("all") == pytest.approx(0.75)
    assert tally.all_rate("all") == pytest.approx(0.5)
    assert tally.recall("temporal") == 0.5
    assert tally.all_rate("single-hop") == 1.0
    assert tally.recall("multi-hop") != tally.recall("multi-hop")  # NaN: no question


def test_grounded_keeps_only_turns_whose_words_the_text_carries() -> None:
    words = {
        "D1:1": frozenset({"went", "lgbtq", "support", "group", "yesterday", "powerful"}),
        "D1:2": frozenset({"swamped", "kids", "work"}),
        "D1:3": frozenset(),
    }
    episode = Item(
        "episode",
        "Caroline went to an LGBTQ support group",
        frozenset({"D1:1", "D1:2", "D1:3", "D9:9"}),
        7,
    )
    kept = grounded(episode, words)
    # D1:1 shares 4 of 6 words; D1:2 none; D1:3 has no content words; D9:9 is unknown
    assert kept.turns == frozenset({"D1:1", "D1:3"})
    assert kept.tokens == episode.tokens and kept.text == episode.text
    strict = grounded(episode, words, share=0.9)
    assert strict.turns == frozenset({"D1:3"})
