""" "forget the X thing for now" drops a todo; it is no privacy forget (issue 27, the kind the
blind v4 set showed: the shadow judge redacted "forget the passport thing for now, not going
anywhere" as a request to forget)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.memory_upserter.extract.assertion import forget_target
from services.memory_upserter.extract.extractor import Utterance, extract


@pytest.mark.parametrize(
    ("said", "dropped"),
    [
        ("ok forget the visa thing for now, trip is off", "the visa thing"),
        ("pls forget the piano reminder, not renewing lessons", "the piano reminder"),
    ],
)
def test_a_todo_let_go_is_dropped_not_forgotten(said: str, dropped: str) -> None:
    plan = extract([Utterance(said)], now=datetime(2026, 4, 6, 9, tzinfo=UTC))
    assert plan.forget == []
    assert any(d.casefold().startswith(dropped) for d in plan.dropped), plan.dropped


def test_a_request_to_forget_stays_one() -> None:
    assert forget_target("please forget what I told you about my cousin Nuno") == "my cousin Nuno"
    assert forget_target("forget my old address please") == "my old address"
