"""Vague parts of the day in a todo's ``due`` (pure: ``now`` is passed in, in the person's zone).

"after work" is the evening (19:00, :mod:`services.core.when`), "tonight" 21:00, "later" and
"in a bit" this evening. A due of today said with no clock time ("today", "after work", "this
afternoon", a bare date) that has already passed when it is said moves two hours on, at most to
the day's last minute: a todo is never overdue the moment it is written.
"""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta

_VAGUE = re.compile(r"(?i)later(?:\s+on)?|in\s+a\s+(?:bit|while)|at\s+some\s+point\s+today")
# a clock time the person gave: "at 3", "3pm", "15:00", "noon", an ISO date-time
_CLOCK = re.compile(
    r"(?i)\d\s*[ap]\.?m\b|\d:\d\d|\bat\s+\d|\bnoon\b|\bmidday\b|\bmidnight\b|\d{4}-\d\d-\d\dT"
)
GRACE = timedelta(hours=2)
LATE = time(23, 59)


def vague_words(value: str) -> str:
    """``value`` with a due that names no time at all ("later", "in a bit") as this evening."""
    return "this evening" if _VAGUE.fullmatch(value.strip()) else value


def not_past_today(at: datetime, value: str, now: datetime) -> datetime:
    """``at``, or — for a time of today said without a clock time and already past —
    :data:`GRACE` after ``now``, at most the day's :data:`LATE` minute."""
    if at.date() != now.date() or at > now or _CLOCK.search(value):
        return at
    return min(now + GRACE, datetime.combine(now.date(), LATE, now.tzinfo))
