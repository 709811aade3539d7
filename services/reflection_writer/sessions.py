"""reflection-writer's SQL for the session sweep: which sessions are due, the lease, the turns
after the checkpoint and the checkpoint's move. Each function takes a connection; none commits
on its own (callers choose the transaction). Every statement is per session or per user.

The lease is ``sessions.locked_until / locked_by``, taken and compared on the **database
clock** (``clock_timestamp()``), not the request's ``now``: it guards real concurrent workers,
and an import running with a past ``now`` must neither steal a live lease nor leave one that
looks expired to everyone else.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import cast

from contracts.reflection import DueReason
from services.core.deps import Connection
from services.core.readout import is_readout
from services.reflection_writer.model import Message


@dataclass(frozen=True, slots=True)
class ClaimedSession:
    session_id: str
    user_id: str
    agent_id: str
    chat_id: str
    checkpoint: int  # seq of the last consolidated message (0: none)
    last_message_seq: int


DUE_SESSIONS = """
SELECT s.session_id::text,
       CASE WHEN s.flagged_for_consolidation THEN 'flagged'
            WHEN s.last_activity_at <= $3 THEN 'quiet' ELSE 'batch' END
  FROM sessions s
 WHERE s.needs_consolidation
   AND ($1::text IS NULL OR s.user_id = $1) AND ($2::text IS NULL OR s.agent_id = $2)
   AND (s.locked_until IS NULL OR s.locked_until < clock_timestamp())
   AND (s.flagged_for_consolidation OR s.last_activity_at <= $3
        OR (SELECT count(*) FROM (SELECT 1 FROM messages m
                                   WHERE m.user_id = s.user_id AND m.session_id = s.session_id
                                     AND m.seq > COALESCE(s.checkpoint_message_seq, 0)
                                   LIMIT $4) AS pending) >= $4)
 ORDER BY s.last_activity_at, s.session_id
 LIMIT $5
"""


async def due_sessions(
    conn: Connection,
    *,
    user_id: str | None,
    agent_id: str | None,
    cutoff: datetime,
    batch_size: int,
    limit: int,
) -> list[tuple[str, DueReason]]:
    """(session id, why it is due) of sessions with unconsolidated turns that are flagged,
    quiet since ``cutoff``, or hold ``batch_size`` unconsolidated messages; oldest first."""
    rows = await conn.fetch(DUE_SESSIONS, user_id, agent_id, cutoff, batch_size, limit)
    return [(r[0], cast(DueReason, r[1])) for r in rows]


@dataclass(frozen=True, slots=True)
class SessionRow:
    user_id: str
    needs_consolidation: bool


async def session_state(
    conn: Connection, session_id: str, user_id: str | None
) -> SessionRow | None:
    """The session (of this user, when given), or None when there is none."""
    row = await conn.fetchrow(
        "SELECT user_id, needs_consolidation FROM sessions"
        " WHERE session_id = $1::uuid AND ($2::text IS NULL OR user_id = $2)",
        session_id,
        user_id,
    )
    return SessionRow(*row) if row else None


async def claim(
    conn: Connection, session_id: str, worker: str, lease_s: float
) -> ClaimedSession | None:
    """Take the lease in one statement; None when someone holds it or nothing is new."""
    row = await conn.fetchrow(
        """UPDATE sessions
              SET locked_until = clock_timestamp() + make_interval(secs => $3), locked_by = $2
            WHERE session_id = $1::uuid AND needs_consolidation
              AND (locked_until IS NULL OR locked_until < clock_timestamp())
        RETURNING session_id::text, user_id, agent_id, chat_id,
                  COALESCE(checkpoint_message_seq, 0), last_message_seq""",
        session_id,
        worker,
        float(lease_s),
    )
    return ClaimedSession(*row) if row else None


async def release(conn: Connection, session_id: str, worker: str) -> None:
    await conn.execute(
        "UPDATE sessions SET locked_until = NULL, locked_by = NULL"
        " WHERE session_id = $1::uuid AND locked_by = $2",
        session_id,
        worker,
    )


async def advance(
    conn: Connection, session: ClaimedSession, through_seq: int, worker: str, now: datetime
) -> None:
    """Move the checkpoint to ``through_seq`` (never backwards) and release the lease."""
    await conn.execute(
        """UPDATE sessions
              SET checkpoint_message_seq = GREATEST(COALESCE(checkpoint_message_seq, 0), $2),
                  consolidated_at = $4, updated_at = $4,
                  flagged_for_consolidation = flagged_for_consolidation
                                              AND $2 < COALESCE(last_message_seq, 0),
                  locked_until = CASE WHEN locked_by = $3 THEN NULL ELSE locked_until END,
                  locked_by = CASE WHEN locked_by = $3 THEN NULL ELSE locked_by END
            WHERE session_id = $1::uuid""",
        session.session_id,
        through_seq,
        worker,
        now,
    )


async def load_messages(
    conn: Connection, session: ClaimedSession, limit: int
) -> tuple[list[Message], int]:
    """Active messages after the checkpoint (up to the session's last seq), and the seq the
    checkpoint may move to (forgotten messages are skipped but passed over). An offline readout
    (:mod:`services.core.readout`) is read with no text: it answered the person, but it is the
    product talking, so no episode, summary or psyche item quotes it."""
    rows = await conn.fetch(
        """SELECT message_id::text, seq, role, text, ts, speaker, active FROM messages
            WHERE user_id = $1 AND session_id = $2::uuid AND seq > $3 AND seq <= $4
            ORDER BY seq LIMIT $5""",
        session.user_id,
        session.session_id,
        session.checkpoint,
        session.last_message_seq,
        limit,
    )
    messages = [
        Message(r[0], r[1], r[2], "" if is_readout(r[3]) else r[3], r[4], r[5])
        for r in rows
        if r[6]
    ]
    return messages, (rows[-1][1] if rows else session.checkpoint)
