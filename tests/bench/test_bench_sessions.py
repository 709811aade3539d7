"""Session granularity (bench/recall/sessions.py): ranked items → distinct sessions."""

from __future__ import annotations

import pytest

from bench.recall import evaluate
from bench.recall.data import Question
from bench.recall.metrics import Item
from bench.recall.sessions import session_items, session_methods, session_questions

pytestmark = pytest.mark.pure


def _item(*turns: str) -> Item:
    return Item("turn", " ".join(turns), frozenset(turns), 1)


def test_sessions_keep_the_order_first_met_and_drop_repeats() -> None:
    ranked = [_item("D3:1"), _item("D3:7"), _item(), _item("D12:2", "D1:4"), _item("D1:5")]
    assert [i.text for i in session_items(ranked)] == ["D3", "D1", "D12"]


def test_session_recall_counts_evidence_sessions_once() -> None:
    q = Question("c#0", "c", "q", "a", 1, ("D1:1", "D1:2", "D4:3"))
    (sq,) = session_questions([q])
    assert sq.evidence == ("D1", "D4")
    methods = {"m": {"c#0": [_item("D1:9"), _item("D2:1"), _item("D4:1")]}}
    results = evaluate.evaluate(session_methods(methods), [sq])
    assert results["m"]["@5"]["all"] == (1.0, 1.0)
    # only the first two distinct sessions: D1 found, D4 not
    two = evaluate.tally(session_methods(methods)["m"], [sq], lambda items: list(items[:2]))
    assert two.recall("all") == 0.5
