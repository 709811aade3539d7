"""A weekend in the time grammar: Saturday 00:00 to Monday 00:00 in the person's zone; "this
weekend" / "the weekend" the coming one (said on a Sunday, today's), "next weekend" the one
after; a todo is due on its Saturday at the default hour (today, when said on a Sunday).
"On the weekend" is a habit, not a date."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from services.memory_upserter.extract.due import find_due, parse_due
from services.memory_upserter.extract.extractor import Utterance, extract
from services.memory_upserter.extract.temporal import parse_when

ZONE = timezone(timedelta(hours=-5))  # the person's zone
THURSDAY = datetime(2027, 3, 4, 20, 30, tzinfo=ZONE)
SUNDAY = datetime(2027, 3, 7, 11, 0, tzinfo=ZONE)


def at(day: int, hour: int = 0) -> datetime:
    return datetime(2027, 3, day, hour, tzinfo=ZONE)


@pytest.mark.parametrize(
    "now, words, saturday, monday",
    [
        (THURSDAY, "this weekend", at(6), at(8)),
        (THURSDAY, "next weekend", at(13), at(15)),
        (SUNDAY, "this weekend", at(6), at(8)),  # the weekend under way
        (SUNDAY, "next weekend", at(13), at(15)),
    ],
)
def test_a_weekend_is_saturday_to_monday_in_the_persons_zone(
    now: datetime, words: str, saturday: datetime, monday: datetime
) -> None:
    assert parse_when(words, now) == saturday
    assert parse_when(words, now, end=True) == monday


def test_a_weekend_todo_is_due_on_its_saturday_and_today_on_a_sunday() -> None:
    assert parse_due("next weekend", THURSDAY) == at(13, 9)
    assert parse_due("this weekend", SUNDAY) == at(7, 18)  # Saturday is past: today
    said = find_due("clean the gutters over the weekend", SUNDAY)
    assert said is not None and said.at == at(7, 18)


@pytest.mark.parametrize(
    "text, task, due",
    [
        ("We're going camping next weekend", "Going camping", at(13, 9)),
        ("gonna repaint the shed this weekend", "Repaint the shed", at(6, 9)),
        ("I'm visiting grandma over the weekend", "Visiting grandma", at(6, 9)),
    ],
)
def test_a_plan_for_a_weekend_is_a_todo_due_that_saturday(
    text: str, task: str, due: datetime
) -> None:
    todos = extract([Utterance(text)], now=THURSDAY).todos
    assert [(t.text, t.due) for t in todos] == [(task, due.isoformat())]


def test_on_the_weekend_is_a_habit_not_a_date() -> None:
    assert find_due("I bake bread on the weekend", THURSDAY) is None
    plan = extract([Utterance("I bake bread on the weekend")], now=THURSDAY)
    assert plan.todos == []
    assert [(f.predicate, f.value) for f in plan.facts] == [("DOES", "bake bread")]
