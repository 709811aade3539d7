"""reflection-writer's requests and answers: the consolidation request/answer and the day log
view (what the model drafts for a session, reflection, summary and psyche:
``contracts.reflection_draft``).

One consolidated session range is one episode (002 "Episode = Session"); its reflection and
summary live in the ``episodes`` row and are what the day log returns.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

import msgspec

from contracts.common import (
    FEW,
    MANY,
    SLOT_CONTRACT_VERSION,
    AgentId,
    ChatId,
    ContractVersion,
    RowId,
    Struct,
    UserId,
)
from contracts.reflection_draft import Reflection, SessionSummary

Uuid = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$",
        description="A row's UUID.",
    ),
]
Engine = Literal["llm", "offline", "offline_fallback"]


# --- POST /v1/consolidate -------------------------------------------------------------------------


class ConsolidateRequest(Struct, kw_only=True, frozen=True):
    """Sweep for sessions to consolidate, or consolidate one ``session_id``.

    A session is due when it has turns after its checkpoint and is quiet (no activity for
    ``inactivity_minutes``), flagged for consolidation, or holds ``batch_size`` unconsolidated
    messages.
    """

    session_id: (
        Annotated[
            Uuid,
            msgspec.Meta(
                description="Consolidate this session now (if it has unconsolidated turns), "
                "quiet or "
                "not."
            ),
        ]
        | None
    ) = None
    user_id: (
        Annotated[
            UserId,
            msgspec.Meta(
                description="Only this user's sessions (and only this user's maintenance)."
            ),
        ]
        | None
    ) = None
    agent_id: Annotated[AgentId, msgspec.Meta(description="Only this agent's sessions.")] | None = (
        None
    )
    inactivity_minutes: Annotated[
        float,
        msgspec.Meta(ge=0, le=10_080, description="How long a session must be quiet to be due."),
    ] = 10
    batch_size: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=10_000,
            description="Unconsolidated messages that make a session due even while it is active.",
        ),
    ] = 40
    max_sessions: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=200,
            description="Most sessions consolidated by this call (a long session "
            "gives one episode per 80 messages).",
        ),
    ] = 20
    now: (
        Annotated[
            datetime,
            msgspec.Meta(
                tz=True,
                description="The clock for this run (quiet window, curator period, spine); "
                "defaults to the server clock. Imports and benchmarks set it.",
            ),
        ]
        | None
    ) = None


DueReason = Literal["requested", "flagged", "quiet", "batch"]
SkipReason = Literal[
    "locked", "nothing_new", "model_unavailable", "dependency_unavailable", "failed"
]


class ConsolidatedSession(Struct, kw_only=True, frozen=True):
    session_id: RowId
    user_id: UserId
    agent_id: AgentId
    chat_id: ChatId
    reason: DueReason
    episode_id: RowId
    status: Annotated[
        Literal["created", "existing"],
        msgspec.Meta(
            description="existing: a retry found the episode of this range already written."
        ),
    ]
    engine: Annotated[
        Engine,
        msgspec.Meta(
            description="llm: the model wrote it; offline: no model configured; offline_fallback: "
            "the model answered unusably, the offline engine wrote it."
        ),
    ]
    day: date
    importance: float
    first_message_seq: int
    last_message_seq: int
    turns: int
    evidence_kept: int
    evidence_dropped: int
    psyche_items: int
    linked_todos: int
    facts_referenced: int
    indexed: bool
    more_pending: Annotated[
        bool,
        msgspec.Meta(
            description="The range was capped at 80 messages; the session's next range follows as "
            "another episode."
        ),
    ] = False


class SkippedSession(Struct, kw_only=True, frozen=True):
    session_id: RowId
    reason: SkipReason
    detail: str = ""


class CuratorReport(Struct, kw_only=True, frozen=True):
    archived_duplicates: int = 0
    folded_groups: int = 0
    folded_facts: int = 0
    superseded: int = 0


class UserMaintenance(Struct, kw_only=True, frozen=True):
    user_id: UserId
    spine_version: (
        Annotated[
            int,
            msgspec.Meta(description="The spine version written now; null under 20 new messages."),
        ]
        | None
    ) = None
    curator: (
        Annotated[
            CuratorReport,
            msgspec.Meta(description="What the curator did; null when it was not due."),
        ]
        | None
    ) = None


class ConsolidateTotals(Struct, kw_only=True, frozen=True):
    sessions: int = 0
    episodes_created: int = 0
    episodes_existing: int = 0
    skipped: int = 0
    turns: int = 0
    evidence_kept: int = 0
    evidence_dropped: int = 0
    psyche_items: int = 0
    linked_todos: int = 0
    reindexed: Annotated[
        int, msgspec.Meta(description="Episodes whose missing vector this call wrote.")
    ] = 0


class ConsolidateResponse(Struct, kw_only=True, frozen=True):
    slot_contract_version: ContractVersion = SLOT_CONTRACT_VERSION
    sessions: Annotated[list[ConsolidatedSession], msgspec.Meta(max_length=MANY)] = []
    skipped: Annotated[list[SkippedSession], msgspec.Meta(max_length=MANY)] = []
    maintenance: Annotated[list[UserMaintenance], msgspec.Meta(max_length=MANY)] = []
    totals: ConsolidateTotals = msgspec.field(default_factory=ConsolidateTotals)


# --- GET /v1/day-log --------------------------------------------------------------------------


class DayLogRequest(Struct, kw_only=True, frozen=True):
    """The day log (002): a query view over one day's episodes, not a second summary."""

    user_id: UserId
    day: date
    agent_id: AgentId | None = None
    tz: (
        Annotated[
            str,
            msgspec.Meta(
                min_length=1,
                max_length=64,
                description="IANA time zone the day is read in; defaults to the user's.",
            ),
        ]
        | None
    ) = None
    limit: Annotated[int, msgspec.Meta(ge=1, le=200)] = 50
    cursor: Annotated[str, msgspec.Meta(max_length=200)] | None = None


class DayLogEntry(Struct, kw_only=True, frozen=True):
    episode_id: RowId
    agent_id: AgentId
    chat_id: str | None = None
    session_id: RowId | None = None
    ts: datetime
    day: date
    importance: float
    summary: SessionSummary
    reflection: str
    reflection_json: Reflection
    entity_ids: Annotated[list[RowId], msgspec.Meta(max_length=MANY)] = []
    tags: Annotated[list[str], msgspec.Meta(max_length=FEW)] = []
    linked_todo_ids: Annotated[list[RowId], msgspec.Meta(max_length=MANY)] = []
    previous_episode_id: RowId | None = None
    first_message_seq: int
    last_message_seq: int


class DayLogResponse(Struct, kw_only=True, frozen=True):
    slot_contract_version: ContractVersion = SLOT_CONTRACT_VERSION
    user_id: UserId
    day: date
    tz: str
    items: Annotated[list[DayLogEntry], msgspec.Meta(max_length=MANY)] = []
    next_cursor: str | None = None


EXPORTS = {
    "consolidate-request": ConsolidateRequest,
    "consolidate-response": ConsolidateResponse,
    "day-log-request": DayLogRequest,
    "day-log-response": DayLogResponse,
}
