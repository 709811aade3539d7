"""bench.recall.splits: per-split figures from a run's items."""

from __future__ import annotations

from bench.recall.splits import session_recall, turn_recall, update_outcome


def item(*turns: str) -> list:
    return ["turn", 10, list(turns), "text"]


def test_turn_and_session_recall_count_what_the_first_items_cover() -> None:
    items = [item("D1:2"), item("D3:1", "D3:2"), item("D2:5")]
    assert turn_recall(items, ["D3:2", "D2:5"], 2) == 0.5
    assert session_recall(items, ["D2:1", "D4:1"], k=10) == 0.5


def test_update_outcomes() -> None:
    items = [item("D1:2"), item("D3:1")]
    assert update_outcome(items, older=("D1:2",), newer=("D3:1",)) == "older first"
    assert update_outcome(items, older=("D3:1",), newer=("D1:2",)) == "newer first"
    assert update_outcome(items, older=("D9:9",), newer=("D1:2",)) == "only newer"
