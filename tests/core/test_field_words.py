"""A time field a small model wrote in the person's language (issue 27): read in English
(:func:`services.core.calendar_words.field_in_english`) by the plan's time grammar."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.core.calendar_words import field_in_english
from services.memory_upserter.extract.due import parse_due
from services.memory_upserter.extract.temporal import parse_when

NOW = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)  # a Tuesday


@pytest.mark.parametrize(
    ("field", "english"),
    [
        ("mañana", "tomorrow"),
        ("im mai", "in may"),
        ("nächste woche", "next week"),
        ("la semana que viene", "next week"),
        ("bis sonntag", "until sonntag"),  # the weekday is the calendar tables' own
        ("morgen um 10", "tomorrow at 10"),
        ("friday", "friday"),
    ],
)
def test_a_fields_words_in_english(field: str, english: str) -> None:
    assert field_in_english(field) == english


@pytest.mark.parametrize(
    ("field", "end", "due"),
    [
        ("mañana", "2026-12-03", "2026-12-02"),
        ("im mai", "2027-06-01", "2027-05-01"),
        ("nächste woche", "2026-12-14", "2026-12-07"),
        ("la semana que viene", "2026-12-14", "2026-12-07"),
    ],
)
def test_a_foreign_field_is_read(field: str, end: str, due: str) -> None:
    ended, due_at = parse_when(field, NOW, end=True), parse_due(field, NOW)
    assert ended is not None and ended.date().isoformat() == end
    assert due_at is not None and due_at.date().isoformat() == due


def test_morgen_um_10_is_tomorrow_at_ten() -> None:
    due_at = parse_due("morgen um 10", NOW)
    assert due_at is not None and (due_at.day, due_at.hour) == (2, 10)
