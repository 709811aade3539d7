"""A todo whose ``due`` a model resolved to a month or year already gone, as a person meets it
through ``/v1/turn`` + ``/v1/commit`` (the chain's clock is April 2026): "renew my passport
in march" is the coming March, not overdue from the start, however the model wrote it; a
year under way is not overdue at once; a past date the model wrote outright is kept, with a
warning that names the plan's path."""

from __future__ import annotations

from typing import Any

import pytest

from tests.chain.test_overdue_by_turn import commitments
from tests.chain.test_people_by_turn import Person


def todo(due: str) -> dict[str, Any]:
    return {"todos": [{"kind": "REMINDER", "text": "Renew my passport", "due": due}]}


@pytest.mark.parametrize(
    ("said", "due", "expected"),
    [
        ("remind me to renew my passport in march", "March 2026", "2027-03-01"),
        ("remind me to renew my passport in march", "in march 2026", "2027-03-01"),
        ("remind me to renew my passport in january", "2026-01", "2027-01-01"),
        ("remind me to renew my passport in december", "2025-12", "2026-12-01"),
        ("remind me to renew my passport in march", "in march", "2027-03-01"),
        ("remind me to renew my passport this year", "2026", "2026-04-06"),
    ],
)
async def test_a_due_month_or_year_gone_by_is_the_next_one_not_overdue(
    nodes, said: str, due: str, expected: str
) -> None:
    me = Person(nodes)
    _, commit = await me.says(said, todo(due))
    assert [t["due_at"][:10] for t in commit["todos"]] == [expected]
    assert not [w for w in commit["warnings"] if w["code"] == "due_in_past"]
    later, _ = await me.says("hi", {"facts": []})
    assert [t.get("overdue") for t in commitments(later)] == [None]


@pytest.mark.parametrize("due", ["2026-03-10", "2025", "by 2025"])
async def test_a_past_date_the_model_wrote_outright_is_kept_with_a_warning(nodes, due) -> None:
    me = Person(nodes)
    _, commit = await me.says("remind me to renew my passport, it was due ages ago", todo(due))
    assert len(commit["todos"]) == 1
    (warning,) = [w for w in commit["warnings"] if w["code"] == "due_in_past"]
    assert warning["detail"].startswith("$.answer.plan.todos[0].due")
