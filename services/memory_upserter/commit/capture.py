"""The todos a turn captures (001): new ones are inserted, a restatement updates the pending
todo it repeats.

People and models restate a todo in other words: the flow asks "which Marta?" and the offline
judge keeps "Send marta the q2 deck"; the next turn the model writes "Send the Q2 deck to Marta
Reis". Two pending todos for one errand would leave one open forever once the other is done.

**The restatement rule.** A plan todo restates a pending todo of the same agent (any kind but a
habit) when every content word of the shorter text is in the longer one (inflections aside,
:func:`todos.overlap`) and the shorter has at least two; among several, the one sharing the most
words, the oldest on a tie. A restatement keeps the pending todo's id and kind; it takes the
longer wording (the more specific) and the new due time when one is given. A todo whose text is
the same as a pending one's is not a restatement: ``sql.CAPTURE`` returns the pending one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from services.memory_upserter.commit import sql
from services.memory_upserter.commit.rows import CaptureRow
from services.memory_upserter.commit.todos import content_words, load_pending, overlap
from services.memory_upserter.commit.turn import CapturedTodo, PendingTodo, TodoRow, TurnPlan
from services.memory_upserter.text import fold

if TYPE_CHECKING:  # the statements run on the caller's connection; importing stays pure
    from uuid import UUID

    from services.core.deps import Connection

_MIN_WORDS = 2

RESTATE = """
UPDATE todos t
   SET text = CASE WHEN length($3) > length(t.text) AND NOT EXISTS (
                        SELECT 1 FROM todos o
                         WHERE o.user_id = t.user_id AND o.agent_id = t.agent_id
                           AND o.kind = t.kind AND o.status = 'PENDING' AND o.active
                           AND o.todo_id <> t.todo_id
                           AND o.text_normalized = twin_normalize($3))
                   THEN $3 ELSE t.text END,
       due_at = COALESCE($4::timestamptz, t.due_at),
       updated_at = $5
 WHERE t.user_id = $1 AND t.todo_id = $2::uuid AND t.status = 'PENDING' AND t.active
RETURNING t.todo_id, t.kind, t.text, t.due_at, t.source_snippet
"""


@dataclass(frozen=True)
class Where:
    """Where the turn's todos go: whose, which chat and session, when."""

    user_id: str
    agent_id: str
    chat_id: str
    session_id: UUID
    now: datetime


def restated(todo: TodoRow, pending: Sequence[PendingTodo]) -> PendingTodo | None:
    """The pending todo ``todo`` restates in other words (module docstring), if any."""
    mine = list(dict.fromkeys(content_words(todo.text)))
    best: tuple[int, PendingTodo] | None = None
    for p in pending:
        if p.kind == "HABIT" or fold(p.text) == fold(todo.text):
            continue
        theirs = list(dict.fromkeys(content_words(p.text)))
        shorter = min(len(mine), len(theirs))
        shared = overlap(mine, p.text) if len(mine) <= len(theirs) else overlap(theirs, todo.text)
        if shorter >= _MIN_WORDS and shared == shorter and (best is None or shared > best[0]):
            best = (shared, p)
    return best[1] if best else None


async def capture_turn(conn: Connection, plan: TurnPlan, session_id: UUID) -> list[CapturedTodo]:
    """The plan's todos, captured in the turn's session; a restatement updates the pending
    todo it repeats."""
    req = plan.turn.req
    where = Where(req.user_id, req.agent_id, req.chat_id, session_id, plan.turn.now)
    return await capture(conn, where, plan.todos)


async def capture(conn: Connection, where: Where, todos: Sequence[TodoRow]) -> list[CapturedTodo]:
    """Insert the plan's new todos and fold its restatements into the pending ones, in the
    plan's order."""
    if not todos:
        return []
    pending = await load_pending(conn, where.user_id, where.agent_id)
    repeats = {t.todo_id: restated(t, pending) for t in todos}
    fresh = [t for t in todos if repeats[t.todo_id] is None]
    inserted = await _insert(conn, where, fresh)  # in the order given
    out = {t.todo_id: c for t, c in zip(fresh, inserted, strict=True)}
    for todo in todos:
        old = repeats[todo.todo_id]
        if old is not None:
            out[todo.todo_id] = await _restate(conn, where, old, todo)
    return [out[t.todo_id] for t in todos if t.todo_id in out]


async def _restate(conn: Connection, where: Where, old: PendingTodo, todo: TodoRow) -> CapturedTodo:
    r = await conn.fetchrow(RESTATE, where.user_id, old.todo_id, todo.text, todo.due_at, where.now)
    if r is None:  # closed by this very turn: the restatement stands on its own
        return (await _insert(conn, where, [todo]))[0]
    return CapturedTodo(
        r["todo_id"], r["kind"], r["text"], r["due_at"], r["source_snippet"], created=False
    )


async def _insert(conn: Connection, where: Where, todos: Sequence[TodoRow]) -> list[CapturedTodo]:
    if not todos:
        return []
    row = CaptureRow(
        user_id=where.user_id,
        agent_id=where.agent_id,
        chat_id=where.chat_id,
        session_id=where.session_id,
        now=where.now,
        todo_ids=[d.todo_id for d in todos],
        kinds=[d.kind for d in todos],
        texts=[d.text for d in todos],
        due_at=[d.due_at for d in todos],
        snippets=[d.source_snippet for d in todos],
        message_ids=[d.source_message_id for d in todos],
    )
    rows = await conn.fetch(sql.CAPTURE, *row)
    return [
        CapturedTodo(
            r["todo_id"], r["kind"], r["text"], r["due_at"], r["source_snippet"], r["created"]
        )
        for r in rows
    ]
