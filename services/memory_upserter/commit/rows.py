"""The rows a commit's transaction hands to :mod:`.sql`'s statements, named: a field, not a
position, says which ``$n`` a value fills; :meth:`args` is the one place that knows the order.

Data only (pure, no driver imported): the transaction (:mod:`.transaction`) builds them and
passes ``row.args()`` to the statement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from services.memory_upserter.commit.turn import MessageRow, TodoRow


@dataclass(frozen=True)
class LogRow:
    """:data:`~.sql.LOG`: the session got or created, and every message of the turn."""

    user_id: str
    agent_id: str
    chat_id: str
    new_session_id: UUID  # used only when the chat has no open session
    now: datetime
    turn_count: int  # the person's messages this turn (at least 1)
    turn_id: str
    messages: Sequence[MessageRow]

    def args(self) -> tuple[Any, ...]:
        m = self.messages
        return (
            self.user_id,  # $1
            self.agent_id,  # $2
            self.chat_id,  # $3
            self.new_session_id,  # $4
            self.now,  # $5
            self.turn_count,  # $6
            self.turn_id,  # $7
            [r.message_id for r in m],  # $8
            [r.position for r in m],  # $9
            [r.role for r in m],  # $10
            [r.speaker for r in m],  # $11
            [r.text for r in m],  # $12
            [r.external_id for r in m],  # $13
            [r.ts for r in m],  # $14
        )


@dataclass(frozen=True)
class SessionRow:
    """What :data:`~.sql.LOG` returns: the turn's session."""

    session_id: UUID
    created: bool
    last_seq: int | None

    @classmethod
    def of(cls, record: Any) -> SessionRow:
        return cls(record["session_id"], record["created"], record["last_seq"])


@dataclass(frozen=True)
class CaptureRow:
    """:data:`~.sql.CAPTURE`: the plan's todos, captured unless the same one is pending."""

    user_id: str
    agent_id: str
    chat_id: str
    session_id: UUID
    now: datetime
    todos: Sequence[TodoRow]

    def args(self) -> tuple[Any, ...]:
        t = self.todos
        return (
            self.user_id,  # $1
            self.agent_id,  # $2
            self.chat_id,  # $3
            self.session_id,  # $4
            self.now,  # $5
            [d.todo_id for d in t],  # $6
            [d.kind for d in t],  # $7
            [d.text for d in t],  # $8
            [d.due_at for d in t],  # $9
            [d.source_snippet for d in t],  # $10
            [d.source_message_id for d in t],  # $11
        )


@dataclass(frozen=True)
class FinishRow:
    """:data:`~.sql.FINISH`: the answer under the turn's key, the session checkpoint, the
    counters, ``last_seen`` and the entities the turn named on its messages."""

    user_id: str
    agent_id: str
    key: str
    request_hash: str
    response: Any  # the CommitResponse, encoded by the connection's codec
    now: datetime
    session_id: UUID
    last_seq: int | None
    message_count: int
    facts_new: int  # facts created or superseding: counted toward the curator
    seen_ids: Sequence[UUID]  # entities whose last_seen moves to now
    named_ids: Sequence[UUID]  # entities the turn's messages name
    message_ids: Sequence[UUID]

    def args(self) -> tuple[Any, ...]:
        return (
            self.user_id,  # $1
            self.agent_id,  # $2
            self.key,  # $3
            self.request_hash,  # $4
            self.response,  # $5
            self.now,  # $6
            self.session_id,  # $7
            self.last_seq,  # $8
            self.message_count,  # $9
            self.facts_new,  # $10
            list(self.seen_ids),  # $11
            list(self.named_ids),  # $12
            list(self.message_ids),  # $13
        )
