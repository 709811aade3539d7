"""When a todo is due, from the words the user used (pure: ``now`` is passed in).

"tomorrow", "tonight", "this evening", "on Friday", "by Friday at 5pm", "this weekend" (said on
a Sunday: today, :func:`.coming.weekend_due`), "next week", "in 2 hours", "at 10" (a bare hour:
:func:`.when.bare_hour`), "the 19th", "2026-01-05". A day without a time of day means 09:00
(18:00 for "today"), in the zone of ``now``; a bare time already past today means tomorrow; a
weekday its next occurrence. A plan's ``due`` (:func:`parse_due`) reads :mod:`.when` first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from services.core.when import (
    DEFAULT_HOUR,
    MONTH_WORD,
    MONTHS,
    NUMBER_WORDS,
    PARTS,
    WEEKDAYS,
    bare_hour,
    calendar,
    day_of_month,
    month_number,
    month_year,
)
from services.memory_upserter.extract.coming import NEXT, WEEKEND, end_of, field_period, weekend_due

__all__ = ["NUMBER_WORDS", "WEEKDAYS", "Due", "find_due", "parse_due", "without_due"]

_UNITS = {
    "minute": timedelta(minutes=1),
    "hour": timedelta(hours=1),
    "day": timedelta(days=1),
    "week": timedelta(weeks=1),
    "month": timedelta(days=30),
}

_TIME = r"(?:at\s+)?(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>am|pm|a\.m\.|p\.m\.)"
_TIME24 = r"at\s+(?P<h24>\d{1,2}):(?P<m24>\d{2})"
_BARE = r"at\s+(?P<hb>\d{1,2})(?!\s*(?:%|percent|stars?|[ap]\.?m))"
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_DAY = (
    r"(?:(?P<lead>by|on|until|before)\s+)?"
    r"(?:(?P<rel>today|tonight|tomorrow)"
    rf"|(?P<md_mon>{_MONTH})\.?\s+(?P<md_day>\d{{1,2}})(?:st|nd|rd|th)?"
    rf"|(?:the\s+)?(?P<dm_day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<dm_mon>{_MONTH})"
    rf"|(?P<month>{_MONTH})(?!\s*\d)"
    rf"|{WEEKEND}"
    r"|(?P<this>this)\s+(?P<thispart>morning|afternoon|evening)"
    r"|(?P<nextweek>next\s+week)"
    rf"|(?:(?P<next>next|this)\s+)?(?P<wd>{'|'.join(WEEKDAYS)})"
    r"|(?P<iso>\d{4}-\d{2}-\d{2})"
    r"|the\s+(?P<dom>\d{1,2})(?:st|nd|rd|th)"
    r"|in\s+(?P<n>\d+|an?|one|two|three|four|five|six|seven|ten|a\s+couple\s+of|a\s+few)"
    r"\s+(?P<unit>minute|hour|day|week|month)s?)"
)
_PART = r"(?:\s+(?:in\s+the\s+)?(?P<part>morning|afternoon|evening|night))?"
_CLOCK_WORDS = rf"(?:{_TIME}|{_TIME24}|{_BARE})"
_DAY_PATTERN = re.compile(rf"\b{_DAY}{_PART}(?:\s+{_CLOCK_WORDS})?(?![\w:])", re.IGNORECASE)
_CLOCK_PATTERN = re.compile(rf"\b{_CLOCK_WORDS}(?![\w:])", re.IGNORECASE)


@dataclass(frozen=True)
class Due:
    at: datetime
    start: int  # where the expression sits in the text it was found in
    end: int


def find_due(text: str, now: datetime) -> Due | None:
    """The first due expression in ``text``, or None ("at 5pm tomorrow" reads as one)."""
    clocks = [
        c for c in _CLOCK_PATTERN.finditer(text) if _clock(c.groupdict()) not in (None, False)
    ]
    for match in _DAY_PATTERN.finditer(text):
        before = next((c for c in clocks if 0 <= match.start() - c.end() <= 1), None)
        groups = match.groupdict()
        if before is not None and _clock(groups) is None:
            groups |= {k: v for k, v in before.groupdict().items() if v is not None}
        at = _resolve(groups, now)
        if at is not None:
            return Due(at, before.start() if before else match.start(), match.end())
    for clock in clocks:
        at = _resolve(clock.groupdict(), now)
        if at is not None:
            return Due(at, clock.start(), clock.end())
    return _period_due(text, now)


# "next month", "by the end of the month", "this week": a period's first day (an end: its last)
_PERIOD_DUE = re.compile(
    rf"(?i)\b(?:(?:by|until|till)\s+)?(?:{NEXT}|(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?"
    rf"(?P<ewhat>week|month|year|{MONTH_WORD})|(?P<thisweek>this\s+week))\b"
)


def _period_due(text: str, now: datetime) -> Due | None:
    """The due date of a period said in the text (the grammar a plan's ``due`` reads too:
    :func:`.coming.field_period`), at the default hour, never before today."""
    m = _PERIOD_DUE.search(text)
    if m is None:
        return None
    today = now.date()
    days = end_of("week", today) if m["thisweek"] else field_period(m.group(0), today)
    if days is None:
        return None
    return Due(datetime.combine(max(days[0], today), time(DEFAULT_HOUR), now.tzinfo), *m.span())


# A month or a year alone ("december", "in January", "March 2026", "2026-12", "2026").
_MONTH_WORDS = "|".join(m[:3] + "(?:" + m[3:] + ")?" for m in MONTHS)
_PERIOD = re.compile(
    rf"(?i)(?:(?:in|by|before|until|this)\s+)?(?:(?P<month>{_MONTH_WORDS})\.?(?:,?\s*\d{{4}})?"
    r"|\d{4}-(?P<iso_month>\d\d)|(?P<year>\d{4}))"
)


def parse_due(value: str, now: datetime) -> datetime | None:
    """A plan's ``due`` in ``now``'s zone: :func:`.when.calendar` ("19th at 3pm"), else the first
    due expression ("in 2 hours"); None if not understood. Never overdue from the start: a
    month begun (:func:`_coming`), a time of today without a clock time, already past."""
    at = _due(value, now)
    if at is None or at.date() != now.date() or at > now or _CLOCK_GIVEN.search(value):
        return at  # else a time of today said with no clock time, already past ("after work"
    return min(now + GRACE, datetime.combine(now.date(), LATE, now.tzinfo))  # at 19:30)


_CLOCK_GIVEN = re.compile(r"(?i)\d\s*[ap]\.?m\b|\d:\d\d|\bat\s+\d|\bnoon\b|\bmidday\b|\d-\d\dT")
GRACE, LATE = timedelta(hours=2), time(23, 59)  # a passed time of today moves 2 h on, ≤ 23:59


def _due(value: str, now: datetime) -> datetime | None:
    at = calendar(value, now, "due")
    period = _PERIOD.fullmatch(value.strip())
    if at is not None and period is not None and at < now:
        return _coming(at, period, now)
    if at is not None:
        return at
    period_words = field_period(value, now.date())
    if period_words is not None:  # "next month": its first day, at the default hour
        day = max(period_words[0], now.date())  # "this weekend" on a Sunday: today
        hour = 18 if day == now.date() else DEFAULT_HOUR
        return datetime.combine(day, time(hour), now.tzinfo)
    due = find_due(value.strip(), now)
    return due.at if due else None


def _coming(at: datetime, period: re.Match[str], now: datetime) -> datetime:
    """A month or year alone that has begun: under way ("december" in December, "2026" in
    2026), due today; a month gone by ("March 2026" said in November: a model put the year on
    "in march"), the coming one; a year gone by stays as written (the commit warns)."""
    today = datetime.combine(now.date(), time(18), now.tzinfo)
    if period["year"]:
        return today if at.year == now.year else at
    month = at.month
    year = month_year(month, now.date(), past=False)
    if (year, month) == (now.year, now.month):
        return today
    return datetime.combine(date(year, month, 1), time(DEFAULT_HOUR), now.tzinfo)


def without_due(text: str, due: Due | None) -> str:
    """``text`` with the due expression taken out, tidied ("call Mom tomorrow" → "call Mom")."""
    if due is None:
        return text.strip(" ,.;!?")
    cut = text[: due.start] + " " + text[due.end :]
    return _DUE_LEFT.sub("", re.sub(r"\s+", " ", cut).strip(" ,.;!?")).strip(" ,.;!?")


# What is left of "…, it's due on December 12" once the date is out: no part of the task.
_DUE_LEFT = re.compile(
    r"(?i),?\s*(?:(?:(?:it|that|which|this|they)(?:'s|'re|\s+is|\s+are)\s+)?(?:due|deadline(?:\s+is)?)|"
    r"(?:it|that|which|this)(?:'s|\s+is|\s+needs\s+to\s+be|\s+has\s+to\s+be)\s+(?:done|"
    r"submitted|handed\s+in))(?:\s+(?:on|by|for|at))?$"
)


def _resolve(groups: dict[str, str | None], now: datetime) -> datetime | None:
    g = {k: (v.lower() if isinstance(v, str) else v) for k, v in groups.items()}
    for name in (
        *("rel", "this", "thispart", "nextweek", "wd", "iso", "dom", "unit", "n", "part"),
        "wkend",
    ):
        g.setdefault(name, None)
    if g.get("md_mon") or g.get("dm_mon") or g.get("month"):
        return _dated(g, now)
    clock = _clock(g)
    if clock is not None and not isinstance(clock, time):  # False: not a time
        return None
    if g["unit"] and not any(
        g[k] for k in ("rel", "this", "nextweek", "wd", "iso", "dom", "wkend")
    ):
        n = g["n"] or ""
        count = int(n) if n.isdigit() else NUMBER_WORDS.get(n.replace("a ", ""), 1)
        return now + count * _UNITS[g["unit"]]
    found = _day(g, now.date())
    if found is None:
        return None
    day, hour = found
    if day is None:  # a time alone: today, or tomorrow once past
        if clock is None:
            return None
        at = datetime.combine(now.date(), clock, now.tzinfo)
        return at if at > now else at + timedelta(days=1)
    if clock is None:
        clock = time(hour if hour is not None else DEFAULT_HOUR)
    return datetime.combine(day, clock, now.tzinfo)


def _dated(g: dict[str, str | None], now: datetime) -> datetime | None:
    """ "December 12", "the 3rd of March", "before March" (a month alone only after by, before
    or until: its first day): the next such day, this year or next, at the default hour."""
    if g.get("month") and g.get("lead") not in ("by", "before", "until"):
        return None  # "may", "march" alone are words, not dates
    month = month_number(g.get("md_mon") or g.get("dm_mon") or g.get("month") or "")
    day = int(g.get("md_day") or g.get("dm_day") or 1)
    clock = _clock(g)
    at = time(DEFAULT_HOUR) if not isinstance(clock, time) else clock
    for year in (now.year, now.year + 1):
        try:
            candidate = date(year, month, day)
        except ValueError:
            return None
        if candidate >= now.date():
            return datetime.combine(candidate, at, now.tzinfo)
    return None


def _day(g: dict[str, str | None], today: date) -> tuple[date | None, int | None] | None:
    """The day a due expression names (None: it names none) and the hour its part of the day
    asks for; None when it names a day that does not exist."""
    hour = PARTS.get(g["part"] or "", None)
    if g["rel"] or g["this"] or g["nextweek"] or g["wd"] or g["wkend"]:
        return _relative(g, today, hour)
    if g["iso"]:
        try:
            return date.fromisoformat(g["iso"]), hour
        except ValueError:
            return None
    if g["dom"]:
        day = _day_of_month(int(g["dom"]), today)
        return None if day is None else (day, hour)
    return None, hour


def _relative(
    g: dict[str, str | None], today: date, hour: int | None
) -> tuple[date | None, int | None]:
    """Today, tonight, tomorrow, this evening, a weekend, next week, a weekday."""
    if g["rel"] == "today":
        return today, hour or 18
    if g["rel"] == "tonight":
        return today, 21
    if g["rel"] == "tomorrow":
        return today + timedelta(days=1), hour
    if g["wkend"]:
        day = weekend_due(g["wkend"], today)
        return day, hour if hour is not None or day != today else 18
    if g["this"]:
        return today, PARTS[g["thispart"] or ""]
    if g["nextweek"]:
        return today + timedelta(days=7 - today.weekday()), hour
    if g["wd"]:
        ahead = (WEEKDAYS.index(g["wd"]) - today.weekday()) % 7 or 7
        return today + timedelta(days=ahead), hour
    return None, hour


def _clock(g: dict[str, str | None]) -> time | None | bool:
    """The time of day asked for; None when none was; False when it is not a time."""
    if g.get("hb") is not None:
        hour, minute = bare_hour(int(g["hb"] or 0)), 0
    elif g.get("h24") is not None:
        hour, minute = int(g["h24"] or 0), int(g["m24"] or 0)
    elif g.get("h") is not None:
        hour, minute = int(g["h"] or 0), int(g["m"] or 0)
        if hour > 12 or hour == 0:
            return False
        pm = (g.get("ap") or "").startswith("p")
        hour = hour % 12 + (12 if pm else 0)
    else:
        return None
    if hour > 23 or minute > 59:
        return False
    return time(hour, minute)


def _day_of_month(day: int, today: date) -> date | None:
    """ "the 19th": this month's, or next month's once past (None: no month near has it)."""
    try:
        return day_of_month(day, today)
    except ValueError:
        return None
