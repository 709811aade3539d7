"""The ``messages`` vector collection: one point per logged message, so rag-gate can recall the
raw turn that said something — with its speaker and date — and not only what extraction and
consolidation made of it. Never the truth: ``messages`` rows are.

Point id = ``message_id`` (a retried commit upserts the same point, never a second one).
The dense vector is of :func:`embedding_text` (``speaker: text``); the BM25 vector of
:func:`index_text`, the same preceded by the message before it in the same session (a question
usually echoes the turn that raised the topic, while the answer is in the reply: on LoCoMo,
BM25 of the pair lifts raw-turn R@10 by ~0.04, while a dense vector of the pair loses ~0.05, so
only the lexical half gets the context). Payload: ``user_id``,
``agent_id``, ``scope`` (``agent``: a conversation with one persona is that persona's, like its
episodes), ``entity_ids`` (the entities the turn named: the row's, which the commit wrote
with the turn, so a point the sweep writes later carries them too), ``active``, ``chat_id``,
``session_id``, ``role``, ``ts`` (epoch seconds), ``row_id``, and ``standing: "yes"`` on a
person's standing instruction (:mod:`services.core.standing`; rag-gate searches them apart) —
no text or speaker (the index holds no plaintext; readers take them from ``messages`` by id).

What a message's point is made of, shared by the commit's indexing and the sweep
(:mod:`services.memory_upserter.commit.index`), the clean-up after a forget and the load
benchmark's seed.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from services.core.deps import Connection
from services.core.standing import is_standing
from services.core.vectors import VectorPoint

MESSAGES = "messages"
STANDING = "standing"  # payload key of a standing instruction's point
CONTEXT_CHARS = 600  # of the previous message, in the indexed text


@dataclass(frozen=True)
class MessageIndexRow:
    message_id: UUID
    agent_id: str
    chat_id: str
    session_id: UUID
    role: str
    speaker: str | None
    text: str
    ts: datetime
    active: bool
    previous: str | None  # the message before it in the session ("speaker: text"), if any
    entity_ids: Sequence[UUID] = ()  # the entities its turn named


_ROWS = """
SELECT m.message_id, m.agent_id, m.chat_id, m.session_id, m.role, m.speaker, m.text, m.ts,
       m.active,
       (SELECT COALESCE(p.speaker || ': ', '') || left(p.text, $4)
          FROM messages p
         WHERE p.user_id = m.user_id AND p.session_id = m.session_id AND p.seq < m.seq
           AND p.active
         ORDER BY p.seq DESC LIMIT 1) AS previous,
       m.entity_ids
  FROM messages m
 WHERE m.user_id = $1 AND m.message_id = ANY($2::uuid[]) AND (NOT $3 OR m.indexed_at IS NULL)
 ORDER BY m.seq
"""


async def load_message_rows(
    conn: Connection,
    user_id: str,
    message_ids: Sequence[UUID | str],
    *,
    unindexed_only: bool = False,
) -> list[MessageIndexRow]:
    rows = await conn.fetch(
        _ROWS, user_id, [uuid.UUID(str(i)) for i in message_ids], unindexed_only, CONTEXT_CHARS
    )
    return [MessageIndexRow(*r) for r in rows]


def said(speaker: str | None, text: str) -> str:
    return f"{speaker}: {text}" if speaker else text


def embedding_text(row: MessageIndexRow) -> str:
    """What the message's dense vector is of: ``speaker: text``."""
    return said(row.speaker, row.text)


def index_text(row: MessageIndexRow) -> str:
    """What its BM25 vector is of: the previous message, then ``speaker: text``."""
    this = said(row.speaker, row.text)
    return f"{row.previous}\n{this}" if row.previous else this


def message_point(user_id: str, row: MessageIndexRow, dense: Sequence[float]) -> VectorPoint:
    return VectorPoint(
        id=str(row.message_id),
        dense=dense,
        text=index_text(row),
        payload={
            "user_id": user_id,
            "agent_id": row.agent_id,
            "scope": "agent",
            "entity_ids": [str(e) for e in row.entity_ids],
            "active": row.active,
            "chat_id": row.chat_id,
            "session_id": str(row.session_id),
            "role": row.role,
            "ts": int(row.ts.timestamp()),
            "row_id": str(row.message_id),
            **({STANDING: "yes"} if is_standing(row.role, row.text) else {}),
        },
    )


async def mark_messages(conn: Connection, ids: Sequence[UUID]) -> None:
    """Stamp ``indexed_at`` (derived data: ``synchronous_commit = off``, as for facts)."""
    if not ids:
        return
    async with conn.transaction():
        await conn.execute("SET LOCAL synchronous_commit = off")
        await conn.execute(
            "UPDATE messages SET indexed_at = now() "
            "WHERE message_id = ANY($1::uuid[]) AND indexed_at IS NULL",
            list(ids),
        )


async def unmark_messages(conn: Connection, ids: Sequence[UUID]) -> None:
    """Clear ``indexed_at``: the points of these rows are stale and the sweep rewrites them."""
    if ids:
        await conn.execute(
            "UPDATE messages SET indexed_at = NULL WHERE message_id = ANY($1::uuid[])", list(ids)
        )
