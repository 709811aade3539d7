"""Issue 27's time words in every time field of a model's answer, committed as the flow
commits it (``answer`` = the raw text): never a 4xx, the turn always stored, each word read
(or dropped with a warning naming its path, the fact or todo kept)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import httpx
import pytest

from services.core.deps import Clients
from services.memory_upserter.extract.due import parse_due
from tests.memory_upserter.conftest import commit, fact, rows, turn

WORDS = ["19th at 3pm", "tomorrow at 10", "2019", "friday", "January", "2026-12", "in January"]
FIELDS = ["valid_from", "valid_to", "due"]


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("word", WORDS)
async def test_a_time_word_in_any_time_field_never_loses_the_turn(
    client: httpx.AsyncClient, resources: Clients, user_id: str, word: str, field: str
) -> None:
    plan: dict = {"facts": [], "todos": []}
    if field == "due":
        plan["todos"].append({"kind": "REMINDER", "text": "call the bank", "due": word})
    else:
        plan["facts"].append(fact("STAYING_IN", "User is staying in Paris", value="Paris",
                                  **{field: word}))  # fmt: skip
    body = turn(user_id, f"staying in paris, call the bank, {word}", reply=None,
                answer=json.dumps({"reply": "Noted!", "plan": plan}))  # fmt: skip
    answer = await commit(client, body)
    kept = answer["todos"] if field == "due" else answer["facts"]
    assert len(kept) == 1, answer
    read = kept[0]["due_at" if field == "due" else field]
    warned = [w for w in answer["warnings"] if field in w["detail"]]
    assert read is not None or warned, answer  # read, or dropped with its path named
    assert all(w["detail"].startswith("$.answer.plan.") for w in warned)
    (stored,) = await rows(
        resources, "SELECT count(*) AS n FROM messages WHERE user_id = $1", user_id
    )
    assert stored["n"] == 2  # the person's message and the reply


@pytest.mark.parametrize(
    ("word", "due"),
    [
        ("December", "2026-12-10 18:00"),  # the month under way: today, never overdue at once
        ("2026-12", "2026-12-10 18:00"),
        ("in january", "2027-01-01 09:00"),  # the next January
        ("march", "2027-03-01 09:00"),
        ("friday", "2026-12-11 09:00"),
        ("March 2026", "2027-03-01 09:00"),  # a month gone by (a model put the year on it)
        ("in march 2026", "2027-03-01 09:00"),
        ("2026-01", "2027-01-01 09:00"),
        ("2025-12", "2026-12-10 18:00"),  # the next December is this one, under way
        ("2026", "2026-12-10 18:00"),  # the year under way
        ("in 2026", "2026-12-10 18:00"),
        ("2027", "2027-01-01 09:00"),
        ("2025", "2025-01-01 09:00"),  # a year gone by stays as written (the commit warns)
        ("2026-03-10", "2026-03-10 09:00"),  # so does a date written outright
    ],
)
def test_a_due_month_said_within_that_month_is_today_not_overdue(word: str, due: str) -> None:
    now = datetime(2026, 12, 10, 15, 0, tzinfo=UTC)
    at = parse_due(word, now)
    assert at is not None and f"{at:%Y-%m-%d %H:%M}" == due
