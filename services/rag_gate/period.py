"""The period a question names, and the turns said in it. Pure.

"What did Maria donate to a homeless shelter in December 2023?", "What movie did Joanna watch
on 1 May, 2022?", "What did John do the week before August 3, 2023?": the question dates what
it asks about, and the answer was said in that period (LoCoMo's own questions are dated by the
session that tells it). Neither the question's dense vector nor its BM25 finds a session by
its date, and a conversation of 30 sessions has many alike, so the session of that day often
stays out of the candidates. A question that names a day, or a month (with its year, or after
"in"/"during"), therefore gets a search of its own among the turns of the sessions active in
that period (:mod:`services.rag_gate.search`, its sessions read from Postgres beside the
query's embedding), merged into the turn candidates, and a candidate said in the period is
lifted by :data:`BOOST` first places (:func:`services.rag_gate.fusion.score_turns`).

The calendar words are read by the write path's own grammar
(:func:`services.core.when.calendar`), in the past: a question asks about
what was said. A month without its year ("in May") is read only in a question in the past
tense (:func:`~services.core.when.past_tense`: "What did I cook in May?",
not "What am I doing in May?"). A year alone is too wide to say which session, and a weekday
or "yesterday" needs the asker's own day: neither is read here.

Fitted on split A only (LoCoMo conv-26/30, BEAM chats 1-5; ``bench/recall/fit.py``, offline
over raw turns; 9 of A's 231 LoCoMo questions name a period): ``BOOST`` 1.0 gives turn R@10
0.799 → 0.812, temporal 0.968 → 0.984, adversarial 0.824 → 0.838, session R@10 0.967 and BEAM
0.638 unchanged (0.5: the same but adversarial 0.824; 2.0: as 1.0). ``SEARCH`` does not move
split A (its conversations have 19 sessions and 64 candidates hold the period's turns: 0, 8
and 16 score alike); 16 was taken from a first prototype on A (16: turn R@10 0.816, 8: 0.812).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from services.core.when import MONTHS, calendar, past_tense

BOOST = 1.0  # first places, for a candidate said in the named period
SEARCH = 16  # turns of the period's sessions searched beside the main turn search
SESSIONS = 16  # at most this many sessions of the period (the latest), for the search filter

_MONTH = f"(?:{'|'.join(MONTHS)})"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_YEAR = r"(?:19|20)\d\d"
_NAMED = re.compile(
    rf"\b(?:{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}"  # 3 June, 2023
    rf"|{_MONTH}\s+{_DAY},?\s+{_YEAR}"  # October 13, 2023
    rf"|{_MONTH},?\s+{_YEAR}"  # December 2023
    rf"|(?<=\bin\s)(?:early\s+|late\s+)?{_MONTH}(?!\s+\d)"  # in May
    rf"|(?<=\bduring\s){_MONTH}(?!\s+\d))\b",
    re.IGNORECASE,
)
_YEARS = re.compile(_YEAR)


@dataclass(frozen=True, slots=True)
class Period:
    """A half-open span of time: ``start <= t < end``."""

    start: datetime
    end: datetime

    def holds(self, at: datetime) -> bool:
        return self.start <= at < self.end


def named(question: str, now: datetime) -> Period | None:
    """The first day or month the question names, as a period in ``now``'s zone; None when
    it names none (or only a year, a weekday, a relative day)."""
    match = _NAMED.search(question)
    if match is None or (not _YEARS.search(match.group()) and not past_tense(question)):
        return None  # a month without its year is the last one only when asked in the past
    words = match.group().replace("early ", "").replace("late ", "")
    start = calendar(words, now, "start", past=True)
    end = calendar(words, now, "end", past=True)
    if start is None or end is None or end <= start:
        return None
    return Period(start, end)
