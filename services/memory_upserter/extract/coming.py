"""The period a "next …" or an "end of …" names, from the turn's day (pure): "next week" is
Monday to Monday, "next month" its first day to the next month's, "next year" 1 January to 1
January, "next January" (or "next jan") the coming January — the one after this month, so said
in January it is a year away. "(the) end of June / the month / the week / the year" is the last
day of it (this June when said in June). A weekend is Saturday to Monday: "this weekend" / "the
weekend" the coming one (said on a Saturday or Sunday, the one under way), "next weekend" the
one after it (next week's, as "next week" is the week after this one). A start reads the
period's first day, an end its last (the day after it)."""

from __future__ import annotations

import re
from datetime import date, timedelta

from services.memory_upserter.extract.when import MONTH_WORD, month_number, month_year

NEXT = rf"next\s+(?P<nwhat>weekend|week|month|year|{MONTH_WORD})"
# "on the weekend" is a habit ("i paint on the weekend"), not a date: it is not read
WEEKEND = r"(?P<wkend>(?:this|next)\s+(?:weekend|wknd)|(?<!\bon\s)the\s+(?:weekend|wknd))"
_LEADS = r"(?:(?:in|from|since|until|till|by|starting(?:\s+from)?|as\s+of|at|to)\s+)?"
_FIELD = re.compile(rf"(?i)\s*{_LEADS}{NEXT}[\s.]*")
_WEEKEND = re.compile(rf"(?i)\s*{_LEADS}(?:{WEEKEND}|(?P<bare>weekend|wknd))[\s.]*")
_END = re.compile(
    rf"(?i)\s*{_LEADS}(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?"
    rf"(?P<ewhat>week|month|year|{MONTH_WORD})[\s.]*"
)


def field_period(text: str, today: date) -> tuple[date, date] | None:
    """The period a plan field's words name when they are only a "next …" ("next month",
    "until next January"), else None."""
    whole = _FIELD.fullmatch(text)
    if whole:
        return next_period(whole["nwhat"], today)
    weekend_words = _WEEKEND.fullmatch(text)
    if weekend_words:
        return weekend(weekend_words["wkend"] or "this weekend", today)
    end = _END.fullmatch(text)
    return end_of(end["ewhat"], today) if end else None


def end_of(what: str, today: date) -> tuple[date, date] | None:
    """``[last day, day after it)`` of the week, month, year or named month (the coming one,
    this month counting) that "end of ``what``" names."""
    what = what.lower()
    if what == "week":
        sunday = today + timedelta(days=6 - today.weekday())
        return sunday, sunday + timedelta(days=1)
    if what == "year":
        return date(today.year, 12, 31), date(today.year + 1, 1, 1)
    if what == "month":
        first = today.replace(day=1)
    else:
        month = month_number(what)
        first = date(month_year(month, today, past=False), month, 1)
    after = _month_after(first)
    return after - timedelta(days=1), after


def weekend(words: str, today: date) -> tuple[date, date]:
    """``[Saturday, Monday)`` of the weekend "this / the / next weekend" names (module
    docstring)."""
    saturday = today + timedelta(days=5 - today.weekday())  # on a Sunday: yesterday
    if words.lower().split()[0] == "next":
        saturday += timedelta(days=7)
    return saturday, saturday + timedelta(days=2)


def weekend_due(words: str, today: date) -> date:
    """The day a todo due "this / next weekend" is due: the weekend's Saturday, or today when
    that Saturday is past (said on a Sunday)."""
    return max(weekend(words, today)[0], today)


def next_period(what: str, today: date) -> tuple[date, date] | None:
    """``[first day, day after the last)`` of the period "next ``what``" names, or None."""
    what = " ".join(what.lower().split()).removeprefix("next ").strip(" .")
    if what in ("weekend", "wknd"):
        return weekend("next weekend", today)
    if what == "week":
        monday = today + timedelta(days=7 - today.weekday())
        return monday, monday + timedelta(days=7)
    if what == "month":
        first = _month_after(today.replace(day=1))
        return first, _month_after(first)
    if what == "year":
        return date(today.year + 1, 1, 1), date(today.year + 2, 1, 1)
    if re.fullmatch(MONTH_WORD, what):
        month = month_number(what)
        first = date(today.year + (month <= today.month), month, 1)
        return first, _month_after(first)
    return None


def _month_after(first: date) -> date:
    return (first + timedelta(days=32)).replace(day=1)
