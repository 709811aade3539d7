"""A turn's todos, inside the commit's transaction: the plan's todos captured pending (one per
normalized text), and the pending one a "done" completes."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from services.memory_upserter.pg import Connection
from services.memory_upserter.turn import CapturedTodo, Completed, PendingTodo, TodoRow

ACTIONABLE = ("COMMITMENT", "REMINDER", "HABIT")  # what "done" can complete (or check in)
PENDING = """
SELECT todo_id::text, kind, text FROM todos
 WHERE user_id = $1 AND agent_id = $2 AND kind = ANY($3::text[]) AND status = 'PENDING'
   AND active
 ORDER BY created_at, todo_id
 LIMIT 20
"""
COMPLETE = """
UPDATE todos SET status = CASE WHEN kind = 'HABIT' THEN status ELSE 'DONE' END,
                 completed_at = CASE WHEN kind = 'HABIT' THEN NULL ELSE $3::timestamptz END,
                 updated_at = $3
 WHERE user_id = $1 AND todo_id = $2::uuid AND status = 'PENDING' AND active
RETURNING todo_id, kind, text
"""

CAPTURE = """
WITH input AS (
    SELECT * FROM unnest($6::uuid[], $7::text[], $8::text[], $9::timestamptz[], $10::text[],
                         $11::uuid[]) WITH ORDINALITY AS t(id, kind, text, due, snippet, msg, i)),
ins AS (
    INSERT INTO todos (todo_id, user_id, agent_id, kind, text, due_at, source_snippet,
                       source_message_id, chat_id, session_id, created_at, updated_at)
    SELECT id, $1, $2, kind, text, due, snippet, msg, $3, $4, $5, $5 FROM input
    ON CONFLICT (user_id, agent_id, kind, text_normalized) WHERE status = 'PENDING' AND active
    DO NOTHING
    RETURNING todo_id)
SELECT COALESCE(old.todo_id, input.id) AS todo_id, input.kind,
       COALESCE(old.text, input.text) AS text, COALESCE(old.due_at, input.due) AS due_at,
       COALESCE(old.source_snippet, input.snippet) AS source_snippet,
       input.id IN (SELECT todo_id FROM ins) AS created
  FROM input
  LEFT JOIN LATERAL (
      SELECT t.todo_id, t.text, t.due_at, t.source_snippet FROM todos t
       WHERE t.user_id = $1 AND t.agent_id = $2 AND t.kind = input.kind
         AND t.text_normalized = twin_normalize(input.text) AND t.status = 'PENDING'
         AND t.active) old ON true
 ORDER BY input.i
"""


async def pending_actionable(conn: Connection, user_id: str, agent_id: str) -> list[PendingTodo]:
    """This agent's pending commitments, reminders and habits."""
    rows = await conn.fetch(PENDING, user_id, agent_id, list(ACTIONABLE))
    return [PendingTodo(r["todo_id"], r["text"]) for r in rows]


async def complete_todo(
    conn: Connection, user_id: str, todo_id: str, now: datetime
) -> Completed | None:
    """Done (a habit: checked in, still pending)."""
    row = await conn.fetchrow(COMPLETE, user_id, todo_id, now)
    return Completed(row["todo_id"], row["kind"], row["text"]) if row else None


async def capture_todos(
    conn: Connection,
    user_id: str,
    agent_id: str,
    chat_id: str,
    session_id: UUID,
    now: datetime,
    todos: Sequence[TodoRow],
) -> list[CapturedTodo]:
    """Each todo stored pending, or the pending one with the same normalized text found; in
    input order."""
    rows = await conn.fetch(
        CAPTURE,
        user_id,
        agent_id,
        chat_id,
        session_id,
        now,
        [t.todo_id for t in todos],
        [t.kind for t in todos],
        [t.text for t in todos],
        [t.due_at for t in todos],
        [t.source_snippet for t in todos],
        [t.source_message_id for t in todos],
    )
    return [
        CapturedTodo(
            r["todo_id"], r["kind"], r["text"], r["due_at"], r["source_snippet"], r["created"]
        )
        for r in rows
    ]
