"""A fact whose start and end fall on one instant, as a person meets it through ``/v1/turn`` +
``/v1/commit``: a sloppy model writes "in porto on friday" as ``valid_from`` = ``valid_to`` =
Friday 00:00 — a one-day fact holds until the end of that day (never an empty interval that
hides it); a fact said to have ended before it was recorded keeps the day it ended in its
history."""

from __future__ import annotations

from datetime import datetime

import pytest

from tests.chain.test_people_by_turn import Person, fact

FRIDAY = 4 * 24 * 60  # minutes from the chain's Monday


@pytest.mark.parametrize(
    ("start", "end"),
    [
        ("2026-04-10T00:00:00Z", "2026-04-10T00:00:00Z"),
        ("2026-04-10T10:00:00Z", "2026-04-10T10:00:00Z"),
        ("friday", "friday"),
    ],
)
async def test_a_one_day_fact_is_in_the_prompt_all_that_day(nodes, start: str, end: str) -> None:
    me = Person(nodes)
    _, commit = await me.says(
        "im in porto on friday for a conference",
        {"facts": [fact("user", "staying_in", "User is in Porto on Friday", value="Porto",
                        valid_from=start, valid_to=end, importance=2)]},
    )  # fmt: skip
    (written,) = commit["facts"]
    assert written["valid_to"] > written["valid_from"], written
    friday, _ = await me.says("morning! where am i again lol", {"facts": []}, minutes=FRIDAY + 600)
    assert "User is in Porto on Friday" in friday["envelope"]["messages"][0]["content"]
    saturday, _ = await me.says("hey", {"facts": []}, minutes=24 * 60)
    assert "User is in Porto on Friday" not in saturday["envelope"]["messages"][0]["content"]


async def test_a_fact_ended_before_it_was_recorded_keeps_its_day(nodes) -> None:
    me = Person(nodes)
    staying = fact("user", "staying_in", "User is staying in Porto", value="Porto")
    await me.says("im staying in porto", {"facts": [staying]})
    _, commit = await me.says(
        "oh wait i left porto yesterday actually",
        {"facts": [{**staying, "valid_to": "2026-04-05"}]},
    )
    assert [f["outcome"] for f in commit["facts"]] == ["ended"]
    (row,) = [r for r in (await me.memory())["relations"] if r["predicate"] == "STAYING_IN"]
    start, end = (datetime.fromisoformat(row[k]) for k in ("valid_from", "valid_to"))
    assert (start.isoformat(), end.isoformat()) == (
        "2026-04-05T00:00:00+00:00",
        "2026-04-06T00:00:00+00:00",
    )


async def test_a_fact_said_again_after_its_end_commits_as_a_new_one(nodes) -> None:
    """On call "till friday", then on call again the next week: the commit answers 200 with a
    new fact (it had answered 503 on every retry, the turn lost), the old one kept as history."""
    me = Person(nodes)
    on_call = fact("user", "status", "User is on call", value="on call", valid_to="friday")
    await me.says("im on call till friday ugh", {"facts": [on_call]})
    again = {**on_call, "valid_to": None}
    _, commit = await me.says("on call AGAIN this week 🙄", {"facts": [again]}, minutes=8 * 24 * 60)
    assert [f["outcome"] for f in commit["facts"]] == ["created"], commit
    rows = [r for r in (await me.memory())["relations"] if r["predicate"] == "STATUS"]
    assert sorted(r["status"] for r in rows) == ["ACTIVE", "SUPERSEDED"], rows
