"""The rows a commit's transaction hands to :mod:`.sql`'s statements, named: a field, not a
position, says which value is which, and each row's fields are declared in the order of its
statement's parameters (the comment names the ``$n``), so ``conn.fetch(sql.LOG, *row)`` passes
them; the callers build them by keyword.

Data only (pure, no driver imported).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple
from uuid import UUID


class LogRow(NamedTuple):
    """:data:`~.sql.LOG`: the session got or created, and every message of the turn (one
    array per message column)."""

    user_id: str  # $1
    agent_id: str  # $2
    chat_id: str  # $3
    new_session_id: UUID  # $4, used only when the chat has no open session
    now: datetime  # $5
    turn_count: int  # $6, the person's messages this turn (at least 1)
    turn_id: str  # $7
    message_ids: list[UUID]  # $8
    positions: list[int]  # $9
    roles: list[str]  # $10
    speakers: list[str | None]  # $11
    texts: list[str]  # $12
    external_ids: list[str | None]  # $13
    timestamps: list[datetime]  # $14


class SessionRow(NamedTuple):
    """What :data:`~.sql.LOG` returns: the turn's session (``SessionRow(*record)``)."""

    session_id: UUID
    created: bool
    last_seq: int | None


class CaptureRow(NamedTuple):
    """:data:`~.sql.CAPTURE`: the plan's todos, captured unless the same one is pending."""

    user_id: str  # $1
    agent_id: str  # $2
    chat_id: str  # $3
    session_id: UUID  # $4
    now: datetime  # $5
    todo_ids: list[UUID]  # $6
    kinds: list[str]  # $7
    texts: list[str]  # $8
    due_at: list[datetime | None]  # $9
    snippets: list[str | None]  # $10
    message_ids: list[UUID | None]  # $11


class FinishRow(NamedTuple):
    """:data:`~.sql.FINISH`: the answer under the turn's key, the session checkpoint, the
    counters, ``last_seen`` and the entities the turn named on its messages."""

    user_id: str  # $1
    agent_id: str  # $2
    key: str  # $3
    request_hash: str  # $4
    response: Any  # $5, the CommitResponse, encoded by the connection's codec
    now: datetime  # $6
    session_id: UUID  # $7
    last_seq: int | None  # $8
    message_count: int  # $9
    facts_new: int  # $10, facts created or superseding: counted toward the curator
    seen_ids: Sequence[UUID]  # $11, the request's active entities and those the turn named
    named_ids: Sequence[UUID]  # $12, entities the turn's messages name
    message_ids: Sequence[UUID]  # $13
    said: Sequence[str]  # $14, the person's words (and runs of 2-3): an active one said moves
