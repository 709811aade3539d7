"""Dates a model writes in words or numbers, as ISO dates (pure: the day is passed in).

A model resolves "on friday" to "September 18" or "18/09" in a fact's value, and a small one
writes time fields as day/month numbers ("12/12", "01/11", "05/2027"). Grounding reads ISO
dates against the person's time phrases, and the time grammar reads ISO dates; these two
helpers turn the other forms into ISO first.

- :func:`iso_dates`: a month name with a day ("September 18", "Sept 18th", "18th of
  September", "18 Sep", with or without a year) or a day/month number ("18/09", "18/09/2026")
  inside a text, each replaced by its ISO date;
- :func:`numeric_date`: a time field that is (or starts with, before a time of day: "19/11
  3pm") a day/month number ("12/12", "1/11/26"), or a month/year ("05/2027") number, with
  that date in ISO; anything else unchanged.

Numbers are read day first ("03/04" is 3 April), as most of the world writes them, unless
only the other order is a date ("09/18" is 18 September). A date with no year is the one
nearest to the turn's day (within six months either side)."""

from __future__ import annotations

import re
from datetime import date

from services.core.when import MONTHS

_MONTH = {m[:3]: i for i, m in enumerate(MONTHS, 1)} | {"sept": 9}
_WORDS = "|".join(sorted({*MONTHS, *_MONTH, "sept"}, key=len, reverse=True))
_MONTH_FIRST = re.compile(
    rf"(?i)\b(?P<m>{_WORDS})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(?P<y>\d{{4}})\b)?"
)
_DAY_FIRST = re.compile(
    rf"(?i)\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+(?P<m>{_WORDS})\b\.?"
    rf"(?:,?\s+(?P<y>\d{{4}})\b)?"
)
_NUMERIC = re.compile(r"(?<![\d/.-])(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?(?![\d/])")
_MONTH_YEAR = re.compile(r"^\s*(\d{1,2})/(\d{4})\s*$")


def _nearest(month: int, day: int, today: date) -> date | None:
    """The date of that month and day nearest to ``today``; None when it is no date."""
    found = []
    for year in (today.year - 1, today.year, today.year + 1):
        try:
            found.append(date(year, month, day))
        except ValueError:
            continue
    return min(found, key=lambda d: abs((d - today).days)) if found else None


def _dated(month: int, day: int, year: str | None, today: date) -> date | None:
    if not year:
        return _nearest(month, day, today)
    full = int(year) + (2000 if len(year) == 2 else 0)
    try:
        return date(full, month, day)
    except ValueError:
        return None


def _day_month(first: int, second: int) -> tuple[int, int] | None:
    """(month, day) of a number pair, day first unless only month first is a date."""
    if 1 <= first <= 31 and 1 <= second <= 12:
        return second, first
    if 1 <= first <= 12 and 1 <= second <= 31:
        return first, second
    return None


def _numeric(match: re.Match[str], today: date) -> date | None:
    pair = _day_month(int(match[1]), int(match[2]))
    return _dated(*pair, match[3], today) if pair else None


def iso_dates(text: str, today: date) -> str:
    """``text`` with each date written in words or as day/month numbers as its ISO date."""

    def spelled(m: re.Match[str]) -> str:
        found = _dated(_MONTH[m["m"].lower()[:3]], int(m["d"]), m["y"], today)
        return found.isoformat() if found else m[0]

    def numeric(m: re.Match[str]) -> str:
        found = _numeric(m, today)
        return found.isoformat() if found else m[0]

    return _NUMERIC.sub(numeric, _DAY_FIRST.sub(spelled, _MONTH_FIRST.sub(spelled, text)))


def numeric_date(given: str, today: date) -> str:
    """A time field that is (or starts with) a day/month number, or is a month/year number,
    with that date in ISO: "19/11 3pm" → "2026-11-19 3pm", "11/19/2026" → "2026-11-19";
    else ``given``."""
    first, _, rest = given.strip().partition(" ")
    whole = _NUMERIC.fullmatch(first)
    if whole and (found := _numeric(whole, today)) is not None:
        return f"{found.isoformat()} {rest}".strip()
    month_year = _MONTH_YEAR.match(given)
    if month_year and 1 <= int(month_year[1]) <= 12:
        return f"{month_year[2]}-{int(month_year[1]):02d}"
    return given
