"""memory-upserter's commit of a turn, and the pieces its other answers share (``Notice``,
what was written). Ingest knowledge, seed a profile, reindex: ``contracts.memory_admin``;
forget, export and import: ``contracts.privacy``. Every write is idempotent: a retried request
changes nothing more."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec

from contracts.common import (
    FEW,
    MANY,
    SLOT_CONTRACT_VERSION,
    AgentId,
    Category,
    ChatId,
    ContractVersion,
    MessageText,
    RowId,
    Scope,
    ShortText,
    Struct,
    Text,
    TodoKind,
    UserId,
)
from contracts.slots import Scratch

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=120)]
TurnId = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=128,
        pattern=r"^[^\x00-\x1f\x7f]+$",
        description="The turn's idempotency key, e.g. the Telegram update id or n8n's execution "
        "id. "
        "The same turn_id with the same body is answered from the first commit.",
    ),
]
Timestamp = Annotated[datetime, msgspec.Meta(tz=True)]
Predicate = Annotated[
    str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[A-Za-z][A-Za-z0-9_]*$")
]


class Notice(Struct, kw_only=True, frozen=True):
    """Something the designer should know that did not stop the request."""

    code: Annotated[
        str,
        msgspec.Meta(
            description=(
                "plan_repaired, plan_field_dropped, plan_part_dropped, plan_not_read, "
                "answer_not_json, answer_without_reply (each detail starts with the JSON path), "
                "judge_fallback, vectors_unindexed, working_memory_not_updated, "
                "affect_not_promoted, "
                "affect_fact_dropped, commitment_not_completed, due_not_understood, "
                "unknown_active_entity, plan_forget_applied, plan_forget_dropped, "
                "message_not_found, message_cut, …"
            )
        ),
    ]
    detail: str


# --- POST /v1/commit --------------------------------------------------------------------------


class CommitMessage(Struct, kw_only=True, frozen=True):
    role: Literal["user", "assistant"]
    text: MessageText
    speaker: (
        Annotated[
            Name,
            msgspec.Meta(
                description="Who said it, for imports with several speakers (LoCoMo: "
                "'Caroline'). A user "
                "message whose speaker is not the user attaches its facts to that speaker."
            ),
        ]
        | None
    ) = None
    external_id: (
        Annotated[
            str,
            msgspec.Meta(
                min_length=1,
                max_length=128,
                description="The source's id: a Telegram message id, a LoCoMo turn id 'D1:3'.",
            ),
        ]
        | None
    ) = None
    ts: (
        Annotated[
            Timestamp, msgspec.Meta(description="When it was said (default: the turn's time).")
        ]
        | None
    ) = None


class CommitRequest(Struct, kw_only=True, frozen=True):
    """One turn, after the LLM answered: the messages to log, and what to remember.

    ``plan`` is the memory-write plan; omit it (and ``answer``) to have the shadow judge
    extract one from the user's messages. ``scratch``, when given, replaces the session's.
    """

    user_id: UserId
    agent_id: AgentId
    chat_id: ChatId
    turn_id: TurnId
    messages: Annotated[
        list[CommitMessage],
        msgspec.Meta(
            min_length=1,
            max_length=200,
            description="Normally the user message and the assistant reply; one user message "
            "alone, "
            "or many (a chat export, a benchmark import), are accepted.",
        ),
    ]
    plan: (
        Annotated[
            dict[str, Any],
            msgspec.Meta(
                description="The memory-write plan (schema `memory-write-plan`, the model's "
                "`response_format`). Read part by part, never refused: an entity, fact, todo or "
                "field that does not validate is dropped with a warning naming its path, or "
                "repaired when it has one reading ('PERSONAL' → PROFILE, 'lives in' → lives_in); "
                "the turn and the rest of the plan are stored."
            ),
        ]
        | None
    ) = None
    answer: (
        Annotated[
            str,
            msgspec.Meta(
                max_length=1_000_000,
                description="The LLM's raw answer (an LLMAnswer JSON string, e.g. n8n's "
                "`choices[0].message.content`): its reply becomes the assistant message "
                "when `messages` has none, its plan is read as `plan` is. An answer that is "
                "not JSON is the reply itself (the shadow judge reads the turn).",
            ),
        ]
        | None
    ) = None
    active_entity_ids: Annotated[
        list[RowId],
        msgspec.Meta(
            max_length=50,
            description="graph-hydrator's active entities, kept in the session and marked seen.",
        ),
    ] = []
    scratch: Scratch | None = None
    now: (
        Annotated[
            Timestamp,
            msgspec.Meta(
                description="The turn's time; default: the newest message ts, else the server "
                "clock.",
            ),
        ]
        | None
    ) = None


EntityOutcome = Literal["created", "updated", "unchanged"]


class EntityWritten(Struct, kw_only=True, frozen=True):
    entity_id: RowId
    name: str
    category: Category
    entity_ref: str | None = None
    outcome: EntityOutcome


class FactWritten(Struct, kw_only=True, frozen=True):
    fact_id: RowId
    text: str
    predicate: str
    memory_type: str
    scope: Scope
    memory_key: str | None = None
    outcome: Annotated[
        Literal["created", "updated", "unchanged", "superseded_previous", "ended"],
        msgspec.Meta(
            description="ended: the user said it no longer holds; the "
            "row's valid_to is set (since 1.3)."
        ),
    ]
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    replaced_id: (
        Annotated[
            RowId,
            msgspec.Meta(
                description="The fact this one closed (contradiction): status SUPERSEDED, "
                "valid_to set, "
                "superseded_by = fact_id."
            ),
        ]
        | None
    ) = None


class TodoWritten(Struct, kw_only=True, frozen=True):
    todo_id: RowId
    kind: TodoKind
    text: str
    due_at: datetime | None = None
    source_snippet: ShortText | None = None
    outcome: Literal["created", "unchanged"]


class Completion(Struct, kw_only=True, frozen=True):
    todo_id: RowId
    text: str
    outcome: Annotated[
        Literal["completed", "checked_in", "dropped"],
        msgspec.Meta(
            description="checked_in: a habit's check-in; the habit stays pending (since 1.3). "
            "dropped: the person no longer wants it (plan.dropped, since 1.5)."
        ),
    ] = "completed"
    kind: TodoKind | None = None


class CommitResponse(Struct, kw_only=True, frozen=True):
    """What the turn wrote; a retry of the same turn answers this again."""

    slot_contract_version: ContractVersion = SLOT_CONTRACT_VERSION
    user_id: UserId
    agent_id: AgentId
    chat_id: ChatId
    turn_id: TurnId
    session_id: RowId
    new_session: bool
    message_ids: Annotated[list[RowId], msgspec.Meta(max_length=MANY)]
    reply: (
        Annotated[
            Text, msgspec.Meta(description="The assistant's text, for the node that sends it.")
        ]
        | None
    ) = None
    plan_source: Literal["request", "answer", "llm_judge", "offline_extractor"]
    entities: Annotated[list[EntityWritten], msgspec.Meta(max_length=MANY)] = []
    facts: Annotated[list[FactWritten], msgspec.Meta(max_length=MANY)] = []
    todos: Annotated[list[TodoWritten], msgspec.Meta(max_length=MANY)] = []
    completions: Annotated[list[Completion], msgspec.Meta(max_length=MANY)] = []
    forgotten: Annotated[dict[str, int], msgspec.Meta(max_length=FEW)] = {}
    warnings: Annotated[list[Notice], msgspec.Meta(max_length=MANY)] = []
    confirmations: Annotated[
        list[str],
        msgspec.Meta(
            description="What the reply confirms to the person of what they asked memory "
            "this turn (contract 1.6): a forget (or that it matched nothing) and each fact "
            "their words ended, one line each."
        ),
    ] = []
    questions: Annotated[
        list[ShortText],
        msgspec.Meta(
            description="The product's own questions this turn left open, for the person (since "
            "1.6): which of several people a name means, which pending todo is done. Each is "
            "also the session's `scratch.pending_questions`, so a short answer next turn "
            "settles it. Empty in the answer to a retried turn."
        ),
    ] = []


EXPORTS = {"commit-request": CommitRequest, "commit-response": CommitResponse}
