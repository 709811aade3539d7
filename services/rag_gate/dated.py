"""The sessions of the period a question names (:mod:`services.rag_gate.period`), read from
Postgres beside the query's embedding: the turn search among them alone is filtered by their
ids (the ``messages`` index's ``session_id`` payload)."""

from __future__ import annotations

from contracts.retrieve import RetrieveRequest
from services.core.deps import Connection, Database
from services.rag_gate import unnamed
from services.rag_gate.period import SESSIONS, Period

ACTIVE_IN = """
SELECT session_id::text FROM sessions
 WHERE user_id = $1 AND agent_id = $2 AND started_at < $4 AND last_activity_at >= $3
 ORDER BY started_at DESC
 LIMIT $5
"""


async def load_sessions(
    conn: Connection, user_id: str, agent_id: str, asked: Period | None
) -> list[str]:
    """This agent's sessions with the user active during ``asked``, the latest
    :data:`SESSIONS` (no period: no statement)."""
    if asked is None:
        return []
    rows = await conn.fetch(ACTIVE_IN, user_id, agent_id, asked.start, asked.end, SESSIONS)
    return [r[0] for r in rows]


async def names_and_sessions(
    db: Database, req: RetrieveRequest, asked: Period | None
) -> tuple[list[str], list[str]]:
    """The seed entities' names (:mod:`.unnamed`) and the named period's sessions, on one
    connection."""
    async with db.acquire() as conn:
        names = await unnamed.load_names(conn, req.user_id, req.entity_ids)
        return names, await load_sessions(conn, req.user_id, req.agent_id, asked)
