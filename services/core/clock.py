"""The clock of a request: the caller's ``now`` (importing history, tests) or the server's.

A caller-given time is accepted between :data:`EARLIEST` and :data:`LATEST`: the year 1 or
9999 is no one's turn, and date arithmetic on it (a decay window, a recency weight, a 48-hour
window) would overflow into a 500 instead of a 422 naming the field.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from services.core.errors import FieldError, InvalidInput

EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(2200, 1, 1, tzinfo=UTC)


def request_clock(given: datetime | None, path: str = "$.now") -> datetime:
    """``given`` in UTC (naive = UTC), or the server's clock when the caller gave none."""
    if given is None:
        return datetime.now(UTC)
    problem = out_of_range(given, path)
    if problem is not None:
        raise InvalidInput([problem])
    return given.astimezone(UTC) if given.tzinfo else given.replace(tzinfo=UTC)


def check_times(times: Iterable[tuple[str, datetime | None]]) -> None:
    """Refuse, all at once, every caller-given time out of range: ``(path, value)`` pairs."""
    errors = [
        e
        for path, value in times
        if value is not None
        if (e := out_of_range(value, path)) is not None
    ]
    if errors:
        raise InvalidInput(errors)


def out_of_range(moment: datetime, path: str) -> FieldError | None:
    try:
        utc = moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)
    except (OverflowError, ValueError):
        utc = None
    if utc is None or not EARLIEST <= utc < LATEST:
        return FieldError(
            path,
            f"must be between {EARLIEST.year} and {LATEST.year - 1} (got {moment.isoformat()})",
        )
    return None
