"""The period a "next …" or an "end of …" names, from the turn's day (pure): "next week" is
Monday to Monday, "next month" its first day to the next month's, "next year" 1 January to 1
January, "next January" (or "next jan") the coming January — the one after this month, so said
in January it is a year away. "(the) end of June / the month / the week / the year" is the last
day of it (this June when said in June). A weekend is Saturday to Monday: "this weekend" / "the
weekend" the coming one (said on a Saturday or Sunday, the one under way), "next weekend" the
one after it (next week's, as "next week" is the week after this one). A start reads the
period's first day, an end its last (the day after it).

A season is three months from its first month (:data:`SEASONS`; winter is December to February):
"last spring" is the last one before the one under way, "next winter" the one after the coming
or current one, "this / in / over the summer" the coming one (under way: its start) unless the
sentence is past tense ("took up pottery over the winter") or says "since", when it is the last
one to have begun. "this / earlier this week/month/year" starts on the period's first day."""

from __future__ import annotations

import re
from datetime import date, timedelta

from services.core.calendar_words import field_in_english
from services.core.when import MONTH_WORD, month_number, month_year

NEXT = rf"next\s+(?P<nwhat>weekend|week|month|year|{MONTH_WORD})"
# "on the weekend" is a habit ("i paint on the weekend"), not a date: it is not read
WEEKEND = r"(?P<wkend>(?:this|next)\s+(?:weekend|wknd)|(?<!\bon\s)the\s+(?:weekend|wknd))"
SEASONS = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}  # the first month
# led by a preposition or "last/this/next", or with its year: "I love the fall" names no time
SEASON = (
    r"(?=(?:back\s+)?(?:in|over|during|since|from|last|this|next)\s|(?:the\s+)?[a-z]+\s+(?:of\s+)?"
    r"(?:19|20)\d\d)(?:back\s+)?(?:(?P<sprep>in|over|during|since|from)\s+)?(?:(?P<srel>last|"
    rf"this\s+past|this|next|the)\s+)?(?P<season>{'|'.join(SEASONS)})(?:\s+(?:of\s+)?"
    r"(?P<syear>(?:19|20)\d\d))?"
)
_LEADS = r"(?:(?:in|from|since|until|till|by|starting(?:\s+from)?|as\s+of|at|to)\s+)?"
_FIELD = re.compile(rf"(?i)\s*{_LEADS}{NEXT}[\s.]*")
_WEEKEND = re.compile(rf"(?i)\s*{_LEADS}(?:{WEEKEND}|(?P<bare>weekend|wknd))[\s.]*")
_END = re.compile(
    rf"(?i)\s*{_LEADS}(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?"
    rf"(?P<ewhat>week|month|year|{MONTH_WORD})[\s.]*"
)


def field_period(text: str, today: date, *, past: bool = False) -> tuple[date, date] | None:
    """The period a plan field's words name when they are only a "next …" ("next month",
    "until next January"), a weekend or an "end of …" (of a named month: the last one when
    ``past``, "since end of october"), else None."""
    text = field_in_english(text)  # "nächste woche", "la semana que viene"
    whole = _FIELD.fullmatch(text)
    if whole:
        return next_period(whole["nwhat"], today)
    weekend_words = _WEEKEND.fullmatch(text)
    if weekend_words:
        return weekend(weekend_words["wkend"] or "this weekend", today)
    end = _END.fullmatch(text)
    return end_of(end["ewhat"], today, past=past) if end else None


def end_of(what: str, today: date, *, past: bool = False) -> tuple[date, date] | None:
    """``[last day, day after it)`` of the week, month, year or named month (the coming one,
    this month counting, or with ``past`` the last one) that "end of ``what``" names."""
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
        first = date(month_year(month, today, past=past), month, 1)
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


def season_start(m: re.Match[str], today: date, *, past: bool) -> date:
    """The first day of the season a :data:`SEASON` match names (module docstring)."""
    month = SEASONS[m["season"].lower()]
    if m["syear"]:
        return date(int(m["syear"]), month, 1)
    begun = date(month_year(month, today, past=True), month, 1)  # the last one to have begun
    under_way = today < _month_after(_month_after(_month_after(begun)))
    rel = " ".join((m["srel"] or "").lower().split())
    if rel in ("last", "this past"):
        return begun.replace(year=begun.year - under_way)
    if rel == "next" or not (past or under_way or (m["sprep"] or "").lower() == "since"):
        return begun.replace(year=begun.year + 1)
    return begun


def period_start(unit: str, today: date) -> date:
    """The first day of this week (its Monday), month or year."""
    unit = unit.lower()
    if unit == "week":
        return today - timedelta(days=today.weekday())
    return today.replace(day=1) if unit == "month" else date(today.year, 1, 1)


def _month_after(first: date) -> date:
    return (first + timedelta(days=32)).replace(day=1)
