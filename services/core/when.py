"""The calendar words of a time field, read the way people and models write them (pure: ``now``
is passed in, in the person's time zone, and every answer is in that zone).

One grammar for a plan's ``valid_from``/``valid_to`` and a todo's ``due`` (memory-upserter's
``extract.temporal``, ``extract.due``, the offline judge's too) and for the period a recall
question names (:mod:`services.rag_gate.period`). :func:`calendar` reads a whole field:

- an ISO date-time (``2026-12-04T10:30:00Z``; naive = the person's zone) as given;
- a year ``2019``, a month ``2026-12`` / ``December 2026`` / ``January``, a day
  ``2026-12-04`` / ``Dec 4`` / ``4th of December`` / ``the 19th``, a weekday ``friday`` /
  ``next friday`` / ``last friday``, ``today`` / ``tomorrow`` / ``yesterday`` / ``tonight``;
- chat shorthands written in full first ("tmrw" → "tomorrow", "after work" → "evening"), and
  the time words of another language ("mañana", "im mai": :func:`.calendar_words.field_in_english`);
  "tonight" is 21:00, "tonight at 8" 20:00;
- each optionally with a time of day: ``at 3pm``, ``3:30 pm``, ``at 15:00``, ``at 10``,
  ``noon``, ``in the morning`` (a bare hour: 1–6 is the afternoon, 7–12 the morning and
  noon); a time alone is today's, or tomorrow's once past;
- led by ``since`` (the time is past), ``until``/``till``/``through``/``by`` (it is to
  come), or ``from``/``starting``/``as of``/``in``/``on``/``at``/``the``, which say nothing
  ("from dec 1" is as often to come as past: the caller's ``past`` decides).

A period (year, month, day) is read for its **side**: a start (``valid_from``) is the period's
first instant; an **end** (``valid_to``) its last, i.e. the next period's first instant (a
fact ends when ``valid_to <= now``, so ``until friday`` holds all of Friday); a **due** is the
day at :data:`DEFAULT_HOUR` (18:00 for today). A month, weekday or day of the month without a
year is the coming one ("in January", said in December, is next January; "friday" is never
today) unless ``past`` says the sentence is past tense, when it is the last one: ``since``
says so, and so does :func:`past_tense` of the fact's own words. Anything else is None here;
the relative phrases ("last week", "3 days ago", "for two weeks", "in 2 hours") are the
callers' own grammars."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from typing import Literal

from services.core.calendar_words import FOREIGN_HOLIDAYS, FOREIGN_NAMES, field_in_english

Side = Literal["start", "end", "due"]
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
PARTS = {"morning": 9, "afternoon": 14, "evening": 19, "night": 21}
DEFAULT_HOUR = 9
NUMBER_WORDS = {  # "in two days", "for a couple of weeks"
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "a couple of": 2, "a few": 3,
    "couple of": 2, "few": 3,
}  # fmt: skip
# a day's short names beyond its first three letters ("thurs 2pm"; "thu" is read as it is)
DAY_SHORTHANDS = {"tues": "tuesday", "weds": "wednesday", "thur": "thursday", "thurs": "thursday"}
# chat shorthands of a time field, written in full before it is read ("tmrw" → "tomorrow")
SHORTHANDS = {
    "tmrw": "tomorrow", "tmr": "tomorrow", "tmw": "tomorrow", "tmrow": "tomorrow",
    "2moro": "tomorrow", "2morrow": "tomorrow", "tomoz": "tomorrow", "tdy": "today",
    "2day": "today", "tonite": "tonight", "2nite": "tonight", "yday": "yesterday",
    "yest": "yesterday", "wknd": "weekend", "wk": "week", **DAY_SHORTHANDS,
    # holidays of a fixed date, the longer name first ("until christmas" ends on the 25th)
    "christmas eve": "december 24", "xmas eve": "december 24", "christmas": "december 25",
    "xmas": "december 25", "new year's eve": "december 31", "new years eve": "december 31",
    "nye": "december 31", "new year's day": "january 1", "new years day": "january 1",
    "after work": "evening", "after school": "afternoon", "later today": "today",
    "later": "evening", "later on": "evening", "in a bit": "evening",
    "halloween": "october 31", "valentine's day": "february 14", "valentines day": "february 14",
}  # fmt: skip
SHORTHANDS |= FOREIGN_NAMES | {w: SHORTHANDS[e] for w, e in FOREIGN_HOLIDAYS.items()}
_SHORTHAND = re.compile(rf"(?<![\w-])(?:{'|'.join(map(re.escape, SHORTHANDS))})(?![\w-])")
MONTH_WORD = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_WD = rf"(?:{'|'.join(w[:3] + '(?:' + w[3:] + ')?' for w in WEEKDAYS)})"
_ORD = r"(?:st|nd|rd|th)"
_YEAR = r"(?:,?\s+(?P<y>\d{4}))?"
_MON_YEAR = rf"(?P<mon>{MONTH_WORD})\.?{_YEAR}"
_LEAD = re.compile(
    r"^(?:(?P<since>since)|from|starting(?:\s+from)?|as\s+of|beginning"
    r"|(?P<until>until|till|'?til|through|thru|by|before|up\s+to|bis|hasta)"
    r"|in|on|at|during|of|for|am|ab|il|le|el|al|dal)\s+"
)
_CLOCK = re.compile(
    r"(?:^|\s*,?\s+)(?:at\s+|@\s*)?(?:(?P<word>noon|midday|midnight)"
    r"|(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>[ap]\.?m\.?)"
    r"|(?P<h24>\d{1,2}):(?P<m24>\d{2}))$"
    r"|(?:^|\s+)at\s+(?P<hb>\d{1,2})$"
    r"|(?:^|\s+)(?:in\s+the\s+)?(?P<part>morning|afternoon|evening|night)$"
)
_DAYS = [
    ("ymd", re.compile(r"(?P<y>\d{4})-(?P<mo>\d{1,2})-(?P<d>\d{1,2})")),
    ("ym", re.compile(r"(?P<y>\d{4})[-/](?P<mo>\d{1,2})")),
    ("y", re.compile(r"(?P<y>(?:19|20|21)\d\d)")),
    ("md", re.compile(rf"(?P<mon>{MONTH_WORD})\.?\s+(?:the\s+)?(?P<d>\d{{1,2}}){_ORD}?{_YEAR}")),
    ("dm", re.compile(rf"(?:the\s+)?(?P<d>\d{{1,2}}){_ORD}?\.?\s+(?:of\s+)?{_MON_YEAR}")),
    ("m", re.compile(rf"(?P<mon>{MONTH_WORD})\.?(?:,?\s+(?P<y>\d{{4}}))?")),
    ("d", re.compile(rf"(?:the\s+)?(?P<d>\d{{1,2}}){_ORD}")),
    ("wd", re.compile(rf"(?:(?P<rel>next|last|this|coming)\s+)?(?P<wd>{_WD})")),
    ("rel", re.compile(r"(?P<word>today|tonight|tomorrow|yesterday)")),
    ("none", re.compile(r"")),
]
_PAST = re.compile(
    r"(?i)\b(?:was|were|did|had|went|came|got|moved|left|began|started|met|became|took|made|"
    r"quit|bought|found|lost|graduated|married|divorced|died|passed\s+away|ago|since|used\s+to)\b"
)
_FUTURE = re.compile(
    r"(?i)\b(?:will|'ll|going\s+to|gonna|about\s+to|plans?\s+to|planning|next|soon|upcoming|"
    r"(?:am|is|are|'m|'re)\s+\w+ing)\b"
)

_ED = re.compile(r"(?i)\b[a-z]{2,}ed\b")
_NOT_PAST = frozenset(  # -ed words that describe a state, not an event
    "interested excited tired engaged based scared worried bored supposed called named "
    "located related involved obsessed allergic need needed red bed shed".split()
)


def past_tense(words: str) -> bool:
    """The sentence speaks of the past ("started in January", "joined Globex in March") and
    not of something to come ("is starting in January", "will get married in June"): an
    irregular past or a regular "-ed" verb (not a state: "excited", "based"), no future."""
    if _FUTURE.search(words):
        return False
    if _PAST.search(words):
        return True
    return any(m.group().lower() not in _NOT_PAST for m in _ED.finditer(words))


def calendar(text: str, now: datetime, side: Side, *, past: bool | None = None) -> datetime | None:
    """The field's instant (module docstring), or None when it is not calendar words."""
    raw = text.strip()
    iso = _iso(raw, now)
    if iso is not None:
        return iso if len(raw) > 10 else _side(*_one(iso.date()), None, side, now)
    s = " ".join(raw.lower().replace(",", " ").strip(" .!").split())
    s = _SHORTHAND.sub(lambda m: SHORTHANDS[m[0]], field_in_english(s))
    lead = _LEAD.match(s)
    while lead:
        past = True if lead["since"] else False if lead["until"] else past
        s = s[lead.end() :]
        lead = _LEAD.match(s)
    clock, s = _clock(s)
    if clock is False:
        return None
    if s.endswith("tonight") and side == "due":  # the night's hour; "tonight at 8" is 20:00
        clock = _at_night(clock)
    for kind, pattern in _DAYS:
        match = pattern.fullmatch(s)
        if match is not None:
            span = _period(kind, match, now, past, clock)
            if span is None:
                return None
            return _side(*span, clock if isinstance(clock, time) else None, side, now)
    return None


def month_number(name: str) -> int:
    key = name.lower()[:3]
    return next(i for i, m in enumerate(MONTHS, start=1) if m.startswith(key))


def month_year(month: int, today: date, *, past: bool) -> int:
    """The year of the month meant: the coming one (this month counts), or the last one."""
    if past:
        return today.year - (month > today.month)
    return today.year + (month < today.month)


def bare_hour(hour: int) -> int:
    """ "at 3" is 15:00, "at 10" is 10:00: 1–6 is the afternoon, 7–12 the morning and noon."""
    return hour + 12 if 1 <= hour <= 6 else hour


def _iso(raw: str, now: datetime) -> datetime | None:
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}(?:[T ].+)?", raw):
        return None
    try:
        at = datetime.fromisoformat(raw.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    return at if at.tzinfo else at.replace(tzinfo=now.tzinfo)


def _clock(s: str) -> tuple[time | None | Literal[False], str]:
    """The time of day at the end of ``s`` (False: it is not a time, "25pm") and the rest."""
    match = _CLOCK.search(s)
    if match is None:
        return None, s
    g = match.groupdict()
    rest = s[: match.start()].strip()
    if g["word"]:
        return time(0 if g["word"] == "midnight" else 12), rest
    if g["part"]:
        return time(PARTS[g["part"]]), rest
    if g["hb"]:
        hour, minute = bare_hour(int(g["hb"])), 0
    elif g["h24"]:
        hour, minute = int(g["h24"]), int(g["m24"])
    else:
        hour, minute = int(g["h"]), int(g["m"] or 0)
        if not 1 <= hour <= 12:
            return False, rest
        hour = hour % 12 + (12 if g["ap"].startswith("p") else 0)
    if hour > 23 or minute > 59:
        return False, rest
    return time(hour, minute), rest


def _at_night(clock: time | None) -> time:
    hour = PARTS["night"] if clock is None else clock.hour + 12 * (1 <= clock.hour < 12)
    return time(hour, clock.minute if clock else 0)


def _period(
    kind: str, m: re.Match[str], now: datetime, past: bool | None, clock: time | None
) -> tuple[date, date] | None:
    """The period the words name: its first day and the day after its last."""
    today, back = now.date(), bool(past)
    g = m.groupdict()
    try:
        if kind == "y":
            return date(int(g["y"]), 1, 1), date(int(g["y"]) + 1, 1, 1)
        if kind in ("ym", "m"):
            month = int(g["mo"]) if kind == "ym" else month_number(g["mon"])
            year = int(g["y"]) if g["y"] else month_year(month, today, past=back)
            first = date(year, month, 1)
            return first, _next_month(first)
        if kind in ("ymd", "md", "dm"):
            month = int(g["mo"]) if kind == "ymd" else month_number(g["mon"])
            day = int(g["d"])
            year = int(g["y"]) if g["y"] else _day_year(month, day, today, back)
            return _one(date(year, month, day))
        if kind == "d":
            return _one(day_of_month(int(g["d"]), today, back))
        if kind == "wd":
            return _one(_weekday(g["wd"], g["rel"], today, back))
        if kind == "rel":
            shift = {"today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1}[g["word"]]
            return _one(today + timedelta(days=shift))
    except ValueError:  # the 31st of a 30-day month, month 13
        return None
    if clock is None:  # nothing at all
        return None
    at = datetime.combine(today, clock, now.tzinfo)
    return _one(today if at > now or back else today + timedelta(days=1))


def _side(
    first: date, after: date, clock: time | None, side: Side, now: datetime
) -> datetime | None:
    zone = now.tzinfo
    if clock is not None:
        return datetime.combine(first, clock, zone)
    if side == "start":
        return datetime.combine(first, time(), zone)
    if side == "end":
        return datetime.combine(after, time(), zone)
    hour = 18 if first == now.date() else DEFAULT_HOUR
    return datetime.combine(first, time(hour), zone)


def _one(day: date) -> tuple[date, date]:
    return day, day + timedelta(days=1)


def _next_month(first: date) -> date:
    return (first.replace(day=1) + timedelta(days=32)).replace(day=1)


def _day_year(month: int, day: int, today: date, past: bool) -> int:
    this = date(today.year, month, day) if (month, day) != (2, 29) else None
    if this is None:
        raise ValueError("the 29th of February needs its year")
    if past:
        return today.year - (this > today)
    return today.year + (this < today)


def day_of_month(day: int, today: date, past: bool = False) -> date:
    """The 19th: this month's unless already past (next month's), or, in the past tense,
    this month's if reached (else last month's); a month without that day is skipped."""
    first = today.replace(day=1)
    for _ in range(3):
        try:
            candidate = first.replace(day=day)
        except ValueError:
            candidate = None
        if candidate is not None and (candidate <= today if past else candidate >= today):
            return candidate
        first = (first - timedelta(days=1)).replace(day=1) if past else _next_month(first)
    raise ValueError(f"no {day}th near {today}")


def _weekday(name: str, rel: str | None, today: date, past: bool) -> date:
    index = next(i for i, w in enumerate(WEEKDAYS) if w.startswith(name[:3]))
    if rel == "last" or (past and rel is None):
        return today - timedelta(days=(today.weekday() - index) % 7 or 7)
    return today + timedelta(days=(index - today.weekday()) % 7 or 7)
