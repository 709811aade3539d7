"""Dates a model writes in words or as day/month numbers (issue 27, found by the blind v4 set):
a value a weekday resolves to is grounded, and "14/12", "01/11", "05/2027" in time fields are
read, not dropped."""

from __future__ import annotations

from datetime import UTC, date, datetime

import msgspec

from contracts.plan import PlanFact
from services.memory_upserter.commit.grounding import Said, ground
from services.memory_upserter.commit.lenient import read_plan
from services.memory_upserter.commit.written_dates import iso_dates, numeric_date

NOW = datetime(2026, 3, 3, 18, 0, tzinfo=UTC)  # a Tuesday


def _fact(text: str, value: str) -> PlanFact:
    return msgspec.convert(
        {"memory_type": "PEOPLE", "subject": "Tom", "predicate": "birthday", "value": value,
         "text": text},
        PlanFact,
    )  # fmt: skip


def test_a_date_value_a_weekday_resolves_to_is_grounded() -> None:
    said = Said(NOW, ("its my brother toms bday on thursday, remind me to get a card",))
    for value in ("March 5", "5th of March", "Mar 5th", "05/03", "2026-03-05"):
        assert ground(_fact("Tom's birthday is on " + value, value), said).verdict == "kept"


def test_a_date_nobody_said_is_still_not_grounded() -> None:
    said = Said(NOW, ("its my brother toms bday soon",))
    assert ground(_fact("Tom's birthday is on March 19", "March 19"), said).verdict == "dropped"
    assert ground(_fact("Tom's birthday is on 19/03", "19/03"), said).verdict == "dropped"


def test_numbers_are_read_day_first_unless_only_month_first_is_a_date() -> None:
    today = date(2026, 3, 3)
    assert iso_dates("from 04/05 to 08/18", today) == "from 2026-05-04 to 2026-08-18"
    assert iso_dates("market 5 stalls, 31/02", today) == "market 5 stalls, 31/02"
    assert numeric_date("28/12", today) == "2025-12-28"  # the nearest one
    assert numeric_date("07/2027", today) == "2027-07"
    assert numeric_date("next week", today) == "next week"


def test_day_month_numbers_in_time_fields_are_read() -> None:
    plan, notes = read_plan(
        {"facts": [{"memory_type": "PROFILE", "predicate": "off_work",
                    "text": "User is off work from 10/04 to 14/04",
                    "valid_from": "10/04", "valid_to": "14/04"}],
         "todos": [{"kind": "REMINDER", "text": "book the hotel", "due": "01/04"}]},
        "$.plan",
        NOW,
    )  # fmt: skip
    assert plan is not None and not notes
    fact, todo = plan.facts[0], plan.todos[0]
    assert fact.valid_from is not None and fact.valid_from.startswith("2026-04-10")
    assert fact.valid_to == "2026-04-15T00:00:00+00:00"  # a day alone as an end: all of it
    assert todo.due is not None and todo.due.startswith("2026-04-01")


def test_a_day_of_the_month_said_grounds_the_date_a_model_resolves_it_to() -> None:
    said = Said(NOW, ("dinner at my brother toms on the 14th, its his bday",))
    assert ground(_fact("Tom's birthday is on March 14", "March 14"), said).verdict == "kept"
    assert ground(_fact("Tom's birthday is on July 14", "July 14"), said).verdict == "dropped"


def test_a_numeric_date_before_a_time_of_day_keeps_both() -> None:
    """ "11/19/2026 3:00pm" was the turn's own day at 15:00 (v5b): the date is read first."""
    today = date(2026, 11, 10)
    assert numeric_date("11/19/2026 3:00pm", today) == "2026-11-19 3:00pm"
    assert numeric_date("19/11 3pm", today) == "2026-11-19 3pm"
    assert numeric_date("friday 3pm", today) == "friday 3pm"
