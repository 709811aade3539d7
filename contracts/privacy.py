"""The person's rights over their memory, on memory-upserter: forget (soft or hard, with a
deletion receipt), export everything held about them, and import such a document back."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from contracts.common import FEW, IDS, MANY, AgentId, ChatId, ContractVersion, RowId, Struct, UserId
from contracts.memory import Notice

# --- POST /v1/forget --------------------------------------------------------------------------


class ForgetTarget(Struct, kw_only=True, frozen=True):
    """Exactly one of: an entity (name, alias, ref or id), a fact/episode/todo/message id, or
    a text. A message (contract 1.6) goes with what memory learned only from it: the facts
    whose only evidence it was, the todos captured from it, the episodes and summary versions
    written from it, and the entities nothing else names."""

    entity: Annotated[str, msgspec.Meta(min_length=1, max_length=255)] | None = None
    fact_id: RowId | None = None
    episode_id: RowId | None = None
    todo_id: RowId | None = None
    message_id: RowId | None = None  # 1.6: the message and what was learned only from it
    text: (
        Annotated[
            str,
            msgspec.Meta(
                min_length=2,
                max_length=200,
                description="Forget what contains this (normalized substring of fact texts, todo "
                "texts, episode reflections, messages).",
            ),
        ]
        | None
    ) = None


class ForgetRequest(Struct, kw_only=True, frozen=True):
    """Intentional amnesia (003 §9). Soft by default; ``hard`` deletes and keeps only an audit."""

    user_id: UserId
    scope: Annotated[
        Literal["session", "chat", "agent", "global"],
        msgspec.Meta(
            description=(
                "session: the chat's working memory (and with include_history its session's "
                "messages and episodes, and what memory learned only from them); chat (contract "
                "1.6): the same for every session of the chat; agent: this agent's facts, todos "
                "and episodes; global: everything of the user, whichever agent holds it."
            )
        ),
    ]
    agent_id: AgentId | None = None
    chat_id: ChatId | None = None
    targets: Annotated[list[ForgetTarget], msgspec.Meta(max_length=50)] = []
    everything: Annotated[
        bool,
        msgspec.Meta(description="Forget all of the scope (needed when there are no targets)."),
    ] = False
    include_history: bool = False
    session_id: RowId | None = None
    hard: bool = False
    reason: (
        Annotated[
            str,
            msgspec.Meta(
                max_length=200,
                description="A label for the audit log; never quote what is forgotten.",
            ),
        ]
        | None
    ) = None


class Remnant(Struct, kw_only=True, frozen=True):
    """Something a forget cannot reach from here, and for how long it stays."""

    where: Annotated[
        str,
        msgspec.Meta(
            description=("postgres_wal, backups, forget_log, vector_index, soft_forgotten_rows, …")
        ),
    ]
    what: str
    until: str


class DeletionReceipt(Struct, kw_only=True, frozen=True):
    """What a forget removed from each store, and what may remain elsewhere (contract 1.3)."""

    hard: bool
    rows: Annotated[
        dict[str, int],
        msgspec.Meta(
            description=(
                "Postgres table → rows deleted (hard) or marked forgotten (soft); "
                "idempotency_keys: "
                "stored answers emptied; summary_spine and user_seeds: the summary versions and "
                "the "
                "seed text naming what was forgotten, dropped; todos also counts source snippets "
                "cleared."
            )
        ),
    ] = {}
    points: Annotated[
        dict[str, int],
        msgspec.Meta(
            description=("Vector collection → points deleted (hard) or made inactive (soft).")
        ),
    ] = {}
    redis_keys_deleted: int = 0
    redis_keys_rewritten: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Working-memory keys rewritten without the forgotten turns and entity ids."
            )
        ),
    ] = 0
    compacted: Annotated[
        list[str],
        msgspec.Meta(
            description=(
                "Postgres tables rewritten (VACUUM FULL) after a hard forget, so no deleted "
                "row's bytes remain in their files."
            )
        ),
    ] = []
    compaction_pending: Annotated[
        list[str],
        msgspec.Meta(
            description=(
                "Tables rewritten in the background right after the answer (larger than 64 MiB, or "
                "their lock was busy), retried for up to 60 s after the forget."
            )
        ),
    ] = []
    analyzed: Annotated[
        list[str],
        msgspec.Meta(
            description=(
                "Tables whose planner statistics were taken again after a hard forget (contract "
                "1.5), so no sample of a forgotten value stays in pg_statistic; the catalog "
                "table's old rows are rewritten away too unless `remains` names "
                "postgres_statistics."
            )
        ),
    ] = []
    vectors_rewritten: Annotated[
        list[str],
        msgspec.Meta(
            description=(
                "Vector collections rewritten from their live points after a hard forget "
                "(contract 1.5): no file of them keeps a deleted point's vectors or hashed term "
                "ids. A touched collection not listed is named in `remains` (vector_index)."
            )
        ),
    ] = []
    remains: Annotated[list[Remnant], msgspec.Meta(max_length=MANY)] = []


class ForgetResponse(Struct, kw_only=True, frozen=True):
    user_id: UserId
    scope: str
    hard: bool
    forget_ids: Annotated[list[RowId], msgspec.Meta(max_length=IDS)]
    counts: Annotated[dict[str, int], msgspec.Meta(max_length=FEW)]
    entity_ids: Annotated[list[RowId], msgspec.Meta(max_length=IDS)] = []
    warnings: Annotated[list[Notice], msgspec.Meta(max_length=IDS)] = []
    receipt: DeletionReceipt | None = None


# --- GET /v1/export, POST /v1/import ------------------------------------------------------------


class PersonDocument(Struct, kw_only=True, frozen=True):
    """Everything Twin Core holds about one person (``GET /v1/export``), and what
    ``POST /v1/import`` takes back (contract 1.3)."""

    user_id: UserId
    tables: Annotated[
        dict[str, list[dict[str, Any]]],
        msgspec.Meta(
            description=(
                "Every table with a user_id column → every row of the person's, all columns, as "
                "Postgres renders them to JSON."
            )
        ),
    ]
    working_memory: Annotated[
        list[dict[str, Any]],
        msgspec.Meta(
            description=(
                "Each conversation's live `session` and `affect` (export only; volatile, not "
                "imported)."
            )
        ),
    ] = []
    exported_at: str | None = None
    slot_contract_version: ContractVersion | None = None
    derived: str | None = None


class ImportResponse(Struct, kw_only=True, frozen=True):
    user_id: UserId
    inserted: Annotated[
        dict[str, int],
        msgspec.Meta(
            description=(
                "Table → rows written; a row already present (same key) is left as it is, so a "
                "second "
                "import of the same document writes nothing."
            )
        ),
    ]
    already_present: Annotated[dict[str, int], msgspec.Meta(max_length=FEW)] = {}
    facts_indexed: int = 0
    warnings: Annotated[list[Notice], msgspec.Meta(max_length=IDS)] = []


EXPORTS = {
    "forget-request": ForgetRequest,
    "forget-response": ForgetResponse,
    "person-document": PersonDocument,
    "import-response": ImportResponse,
}
