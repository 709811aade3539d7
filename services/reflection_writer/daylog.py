"""The day log (002): one user's active episodes of one day, in order — a query, not a summary.

Without ``tz`` the day is the stored ``episodes.day`` (computed in the user's time zone when
the episode was written); with ``tz`` the day is the 24 h of that date in that zone, by ``ts``.
Pages are ordered by ``(ts, episode_id)``; ``next_cursor`` is the last item's key.
"""

from __future__ import annotations

import base64
from datetime import datetime, time, timedelta
from typing import TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import asyncpg
import msgspec

from contracts.reflection import DayLogEntry, DayLogRequest, DayLogResponse
from contracts.reflection_draft import Reflection, SessionSummary
from services.core.deps import Connection
from services.core.errors import FieldError, InvalidInput

DAY_LOG = """
SELECT episode_id::text, agent_id, chat_id, session_id::text, ts, day, importance::float8,
       summary, reflection, reflection_json, entity_ids, tags, linked_todo_ids,
       previous_episode_id::text, first_message_seq, last_message_seq
  FROM episodes
 WHERE user_id = $1 AND active AND ($2::text IS NULL OR agent_id = $2)
   AND ($3::date IS NULL OR day = $3)
   AND ($4::timestamptz IS NULL OR (ts >= $4 AND ts < $5))
   AND ($6::timestamptz IS NULL OR (ts, episode_id) > ($6, $7::uuid))
 ORDER BY ts, episode_id
 LIMIT $8
"""


S = TypeVar("S", bound=msgspec.Struct)


def encode_cursor(ts: datetime, episode_id: str) -> str:
    raw = msgspec.json.encode([ts.isoformat(), episode_id])
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        ts, episode_id = msgspec.json.decode(raw, type=tuple[datetime, str])
        return ts, episode_id
    except (ValueError, msgspec.DecodeError, msgspec.ValidationError):
        raise InvalidInput([FieldError("$.cursor", "not a next_cursor of this endpoint")]) from None


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidInput([FieldError("$.tz", f"unknown IANA time zone {name!r}")]) from None


async def day_log(conn: Connection, req: DayLogRequest) -> DayLogResponse:
    user_tz = await conn.fetchval("SELECT timezone FROM users WHERE user_id = $1", req.user_id)
    tz_name = req.tz or user_tz or "UTC"
    start = end = None
    if req.tz is not None:
        start = datetime.combine(req.day, time(0), tzinfo=zone(req.tz))
        end = datetime.combine(req.day + timedelta(days=1), time(0), tzinfo=zone(req.tz))
    after_ts, after_id = decode_cursor(req.cursor) if req.cursor else (None, None)
    rows = await conn.fetch(
        DAY_LOG,
        req.user_id,
        req.agent_id,
        req.day if req.tz is None else None,
        start,
        end,
        after_ts,
        after_id,
        req.limit + 1,
    )
    items = [_entry(r) for r in rows[: req.limit]]
    more = len(rows) > req.limit
    return DayLogResponse(
        user_id=req.user_id,
        day=req.day,
        tz=tz_name,
        items=items,
        next_cursor=encode_cursor(items[-1].ts, items[-1].episode_id) if more else None,
    )


def _entry(r: asyncpg.Record) -> DayLogEntry:
    return DayLogEntry(
        episode_id=r[0],
        agent_id=r[1],
        chat_id=r[2],
        session_id=r[3],
        ts=r[4],
        day=r[5],
        importance=r[6],
        summary=_as(r[7], SessionSummary),
        reflection=r[8],
        reflection_json=_as(r[9], Reflection),
        entity_ids=[str(x) for x in r[10]],
        tags=[str(x) for x in r[11]],
        linked_todo_ids=[str(x) for x in r[12]],
        previous_episode_id=r[13],
        first_message_seq=r[14],
        last_message_seq=r[15],
    )


def _as(value: object, typ: type[S]) -> S:
    try:
        return msgspec.convert(value or {}, typ)
    except msgspec.ValidationError:  # a row written by hand: show what is safe
        return typ()
