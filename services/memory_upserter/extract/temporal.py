"""When a stated fact holds, from the words that date it (pure: ``now`` is passed in).

:func:`validity` finds the time phrases of a sentence, resolves them against the turn's time and
returns the sentence without them, so "I moved to Porto last week" is the fact "lives in Porto"
valid from a week before the turn, never a place called "Porto Last Week".

- a start: "last week/month/year", "last Saturday", "yesterday", "this morning", "3 days ago",
  "in/from March (2024)", "from dec 1" (the coming one unless the sentence is past tense,
  :func:`.when.past_tense`), "in 2019", "since 2019/March/last week" (the last one), "back in
  2019", "a few years back", "last spring", "over the winter", "earlier this year";
- a start to come: "next week/month/year/weekend", "next January", "this / the weekend" (its
  Saturday; in the past tense the last one) (:mod:`.coming`), "in two weeks";
- an end: "until Friday", "till tomorrow", "until next week", "until 2026-03-01", and "for two
  weeks" (after a present-perfect verb — "I've lived here for 3 years" — it is a start instead);
- "now", "currently", "these days", "at the moment" only say "current" and are dropped.

:func:`parse_when` reads a plan's ``valid_from``/``valid_to``: the calendar words of
:mod:`services.core.when` (one grammar with the due dates), or the same relative words."""

from __future__ import annotations

import re
from calendar import monthrange
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from services.core.when import (
    MONTH_WORD,
    NUMBER_WORDS,
    WEEKDAYS,
    calendar,
    month_number,
    month_year,
    past_tense,
)
from services.memory_upserter.extract.coming import (
    NEXT,
    SEASON,
    WEEKEND,
    field_period,
    next_period,
    period_start,
    season_start,
    weekend,
)

_MONTH = rf"(?P<mon>{MONTH_WORD})"
_UNIT = {"day": 1, "week": 7, "month": 30, "year": 365}
_N = (
    r"(?P<n>\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|a\s+couple\s+of|"
    r"a\s+few)"
)
_U = r"(?P<unit>day|week|month|year)s?"

_PHRASES = [
    ("ago", rf"(?:(?:about|around|almost|nearly|over|some|roughly)\s+)?{_N}\s+{_U}\s+(?:ago|back)"),
    (
        "last",
        r"(?:since\s+)?(?P<last>last|this\s+past)\s+(?:(?P<lunit>week|month|year|weekend|night)|"
        rf"(?P<lwd>{'|'.join(WEEKDAYS)}))",
    ),
    (
        "yesterday",
        r"(?:since\s+)?(?P<yday>yesterday|earlier\s+today|this\s+(?:morning|afternoon|evening)|"
        r"today)",
    ),
    (
        "until",
        r"(?:until|till|'til|through)\s+(?P<uwhat>tomorrow|tonight|the\s+(?P<uth>\d{1,2})(?:st|nd|"
        rf"rd|th)\b|(?:the\s+)?end\s+of\s+(?P<uend>{MONTH_WORD})|the\s+end\s+of\s+"
        rf"(?:the\s+)?(?:week|month|year)|next\s+(?:week|month|year|{MONTH_WORD})|(?:next\s+)?"
        rf"(?:{'|'.join(WEEKDAYS)})|\d{{4}}-\d{{2}}-\d{{2}}|{_MONTH}(?:\s+(?P<uday>\d{{1,2}}))?)",
    ),
    ("on", rf"on\s+(?P<owd>{'|'.join(WEEKDAYS)})"),  # read only in the past tense: "died on sunday"
    ("next", rf"(?:(?:in|from|starting(?:\s+from)?|as\s+of)\s+)?{NEXT}"),
    ("weekend", rf"(?:over\s+)?{WEEKEND}"),
    ("in", rf"in\s+{_N}\s+{_U}(?:\s+time)?"),
    (
        "for",
        rf"for\s+(?:the\s+next\s+|another\s+|(?:about|around|almost|nearly|over|roughly|some|"
        rf"the\s+(?:last|past))\s+)?{_N}\s+{_U}",
    ),
    (
        "month",
        rf"(?:back\s+)?(?P<prep>in|since|from)\s+{_MONTH}(?:\s+(?P<mday>\d{{1,2}})(?:st|nd|rd|th)?)?"
        r"(?:\s+(?P<myear>(?:19|20)\d\d))?",
    ),
    ("year", r"(?:back\s+)?(?P<yprep>in|since|from)\s+(?P<year>(?:19|20)\d\d)"),
    ("season", SEASON),
    ("this", r"(?P<when>earlier\s+|later\s+)?this\s+(?P<tunit>week|month|year)"),
    ("now", r"(?:right\s+)?now|currently|these\s+days|at\s+the\s+moment|nowadays|any\s*more"),
]
# grouped: a phrase's alternatives are each a whole word ("now" never matches in "Nowy")
PATTERNS = [(k, re.compile(rf"\b(?:{p})\b", re.IGNORECASE)) for k, p in _PHRASES]
_PERFECT = re.compile(r"(?i)\b(?:'ve|have|has|had)\s+(?:been\s+)?\w+")


@dataclass(frozen=True)
class Validity:
    text: str  # the sentence without its time phrases
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    dated: bool = False  # a time phrase was found (even one that only says "now")


def validity(sentence: str, now: datetime) -> Validity:
    """The sentence's time phrases resolved (module docstring) and removed from it."""
    start = end = None
    spans: list[tuple[int, int]] = []
    past = past_tense(sentence)
    for kind, match in _matches(sentence):
        if kind == "on" and not past:
            continue  # "I'm flying to Paris on sunday": a day to come is the plans' and dues'
        when = _resolve(kind, match, now, perfect=bool(_PERFECT.search(sentence)), past=past)
        spans.append(match.span())
        if when is None:
            continue
        side, at = when
        if side == "from" and start is None:
            start = at
        elif side == "to" and end is None:
            end = at
    if not spans:
        return Validity(sentence)
    kept, last = [], 0
    for a, b in spans:
        kept.append(sentence[last:a])
        last = b
    kept.append(sentence[last:])
    text = re.sub(r"\s+([,.;:!?])", r"\1", re.sub(r"\s{2,}", " ", "".join(kept))).strip()
    return Validity(text, start, end, True)


def _matches(sentence: str) -> list[tuple[str, re.Match[str]]]:
    """Every phrase, leftmost first; of two overlapping ones the earlier listed kind wins."""
    found: list[tuple[str, re.Match[str]]] = []
    for kind, pattern in PATTERNS:
        for match in pattern.finditer(sentence):
            if all(match.end() <= m.start() or match.start() >= m.end() for _, m in found):
                found.append((kind, match))
    return sorted(found, key=lambda f: f[1].start())


def parse_when(
    text: str, now: datetime, *, end: bool = False, past: bool | None = None
) -> datetime | None:
    """A plan's ``valid_from`` (or, with ``end``, ``valid_to``), in ``now``'s zone (the
    person's): the calendar words of :func:`.when.calendar` ("2019", "January", "2026-12",
    "friday", "19th at 3pm", an ISO date or date-time) read for that side — a date-only end is
    the end of that day — or the relative words of this module ("last week", "until Friday",
    "for two weeks"); None when not understood. ``past``: the fact's words are past tense
    (:func:`.when.past_tense`), so a month or weekday without a year is the last one."""
    at = calendar(text, now, "end" if end else "start", past=past)
    if at is not None:
        return at
    period = field_period(text, now.date(), past=bool(past) and not end)
    if period is not None:
        return _day(period[1] if end else period[0], now)
    found = validity(text.strip(), now)
    if found.text.strip(" .,") and not re.fullmatch(r"(?i)(?:since|from|until|till)", found.text):
        return None
    return found.valid_from or found.valid_to


def _day(d: date, like: datetime) -> datetime:
    return datetime.combine(d, time(), like.tzinfo or UTC)


def _resolve(
    kind: str, m: re.Match[str], now: datetime, *, perfect: bool, past: bool
) -> tuple[str, datetime] | None:
    today = now.date()
    if kind == "ago":
        return "from", _day(today - timedelta(days=_count(m["n"]) * _UNIT[m["unit"].lower()]), now)
    if kind in ("last", "on"):  # "on sunday": read in the past tense only (:func:`validity`)
        return "from", _day(today - timedelta(days=_days_back(m, today)), now)
    if kind == "yesterday":
        return "from", _day(
            today - timedelta(days=1 if m["yday"].lower() == "yesterday" else 0), now
        )
    if kind == "until":
        return "to", _until(m, now)
    if kind in ("next", "weekend", "season", "this"):
        return _coming(kind, m, now, past=past)
    if kind == "in":  # "in two weeks": a start to come (said of the past, a span: nothing)
        span = timedelta(days=_count(m["n"]) * _UNIT[m["unit"].lower()])
        return None if past else ("from", _day(today + span, now))
    if kind == "for":
        span = timedelta(days=_count(m["n"]) * _UNIT[m["unit"].lower()])
        return ("from", _day(today - span, now)) if perfect else ("to", now + span)
    if kind == "month":
        return "from", _day(_month_day(m, today, past), now)
    if kind == "year":
        year = int(m["year"])
        return ("from", _day(date(year, 1, 1), now)) if year <= today.year else None
    return None


def _month_day(m: re.Match[str], today: date, past: bool) -> date:
    """ "since march" (the last one), "from dec 1" (to come unless said in the past tense)."""
    month, back = month_number(m["mon"]), m["prep"].lower() == "since" or past
    year = int(m["myear"]) if m["myear"] else month_year(month, today, past=back)
    day = int(m["mday"] or 1)
    return date(year, month, day if day <= monthrange(year, month)[1] else 1)


def _coming(
    kind: str, m: re.Match[str], now: datetime, *, past: bool
) -> tuple[str, datetime] | None:
    """ "next week/month/…": its start; "this / the weekend": its Saturday (said in the past
    tense, the last one); "last spring", "over the winter": the season's first day
    (:func:`.coming.season_start`); "earlier this year" (or "this year" said in the past tense):
    the year's first day, "this year" otherwise only says "now"."""
    today = now.date()
    if kind == "season":
        return "from", _day(season_start(m, today, past=past), now)
    if kind == "this":
        when = (m["when"] or "").strip().lower()
        if when == "earlier" or (past and not when):
            return "from", _day(period_start(m["tunit"], today), now)
        return None
    if kind == "next":
        period = next_period(m["nwhat"], today)
        return ("from", _day(period[0], now)) if period else None
    saturday = weekend(m["wkend"], today)[0]
    return "from", _day(saturday - timedelta(days=7 * (past and saturday > today)), now)


def _days_back(m: re.Match[str], today: date) -> int:
    """ "last week": 7 days; "last Saturday" / "(died) on Saturday": the Saturday before today."""
    weekday = m.groupdict().get("lwd") or m.groupdict().get("owd")
    if weekday:
        return (today.weekday() - WEEKDAYS.index(weekday.lower()) - 1) % 7 + 1
    return {"week": 7, "month": 30, "year": 365, "weekend": 7, "night": 1}[m["lunit"].lower()]


def _until(m: re.Match[str], now: datetime) -> datetime:
    what = " ".join(m["uwhat"].lower().split())
    today = now.date()
    near = _until_near(what, m, today)
    if near is not None:
        return _day(near, now)
    period = next_period(what, today) if what.startswith("next ") else None
    if period is not None:
        return _day(period[1], now)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", what):
        return _day(date.fromisoformat(what) + timedelta(days=1), now)
    weekday = what.removeprefix("next ")
    if weekday in WEEKDAYS:
        ahead = (WEEKDAYS.index(weekday) - today.weekday() - 1) % 7 + 1
        ahead += 7 if what.startswith("next ") else 0
        return _day(today + timedelta(days=ahead + 1), now)  # through that whole day
    month = month_number(m["mon"])
    year = month_year(month, today, past=False)
    day = int(m["uday"]) if m["uday"] else None
    if day is None:
        return _day((date(year, month, 1) + timedelta(days=32)).replace(day=1), now)
    try:
        return _day(date(year, month, day) + timedelta(days=1), now)
    except ValueError:
        return _day(date(year, month, 1), now)


def _until_near(what: str, m: re.Match[str], today: date) -> date | None:
    """The day after "tomorrow", "tonight", "the 20th", "end of January", "the end of the
    week/month/year"; None for the others."""
    if what in ("tomorrow", "tonight"):
        return today + timedelta(days=2 if what == "tomorrow" else 1)
    if m["uth"] or m["uend"]:
        return _until_day(m["uth"], m["uend"], today)
    if not what.startswith("the end of"):
        return None
    if what.endswith("week"):
        return today + timedelta(days=7 - today.weekday())
    if what.endswith("month"):
        return (today.replace(day=1) + timedelta(days=32)).replace(day=1)
    return date(today.year + 1, 1, 1)


def _until_day(nth: str | None, month_end: str | None, today: date) -> date:
    """ "until the 20th" (this month's, else next month's) and "till end of January": the day
    after, as every end of this module is."""
    if month_end:
        month = month_number(month_end)
        first = date(month_year(month, today, past=False), month, 1)
        return (first + timedelta(days=32)).replace(day=1)
    day = int(nth or 1)
    first = today.replace(day=1)
    if day < today.day:
        first = (first + timedelta(days=32)).replace(day=1)
    try:
        return first.replace(day=day) + timedelta(days=1)
    except ValueError:
        return (first + timedelta(days=32)).replace(day=1)


def _count(n: str) -> int:
    key = " ".join(n.lower().split())
    return int(key) if key.isdigit() else NUMBER_WORDS[key]
