"""The person's time zone, in which a plan's date-only words are read ("until friday" ends
at the end of Friday there, "tomorrow at 10" is 10:00 there).

Where it lives: ``users.timezone``, an IANA name set by ``POST /v1/profile``. A person without
one: the UTC offset the flow wrote in the request's ``now`` (n8n sends the message's time with
its offset when it has one), else UTC."""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from services.core.deps import Database

_ZONE = "SELECT timezone FROM users WHERE user_id = $1"


async def person_zone(db: Database, user_id: str, now: datetime | None) -> tzinfo:
    async with db.acquire() as conn:
        name = await conn.fetchval(_ZONE, user_id)
    return zone_of(name, now)


def zone_of(name: str | None, now: datetime | None) -> tzinfo:
    """The zone named (an unknown name is ignored), else ``now``'s offset, else UTC."""
    if name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    if now is not None and now.tzinfo is not None:
        return now.tzinfo
    return UTC
