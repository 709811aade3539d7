"""Shared building blocks of every contract: ids, scopes, provenance, the contract version.

Bump ``SLOT_CONTRACT_VERSION`` (and re-export the schemas) whenever a contract changes shape.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

import msgspec

# Every version a node still reads: blobs saved in Redis and bodies n8n sends may carry an older
# one. Each version only added optional fields; CHANGELOG.md says which.
ContractVersion = Literal[
    "1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10"
]

SLOT_CONTRACT_VERSION: Final[ContractVersion] = "1.10"

# Ids are opaque strings chosen by the caller: "tg:12345", "alice", "deanna", "tg:987".
UserId = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=128,
        pattern=r"^[^@\x00-\x1f\x7f][^\x00-\x1f\x7f]*$",
        description="The person's id, e.g. 'tg:12345' (Telegram) or 'alice'. "
        "Ids starting with '@' are reserved.",
    ),
]
AgentId = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9_.:-]+$",
        description="The persona's id, e.g. 'deanna'.",
    ),
]
ChatId = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=128,
        pattern=r"^[^\x00-\x1f\x7f]+$",
        description="The conversation's id, e.g. 'tg:987'.",
    ),
]
# Every list and map in a contract has a cap (tests/test_contracts.py walks them all): far above
# what a node produces, so what a node stored always decodes, and a bound on what a caller sends.
FEW: Final = 100  # a handful in practice: markers, tags, candidates, flags, a score's parts
MANY: Final = 1_000  # the rows a slot or a response lists
IDS: Final = 100_000  # the ids a forget or an import names (a whole chat's history)
RowId = Annotated[str, msgspec.Meta(min_length=1, max_length=64, description="A stored row's id.")]
TEXT_MAX: Final = 20_000  # the characters a stored message keeps
Text = Annotated[str, msgspec.Meta(max_length=TEXT_MAX)]
MessageText = Annotated[
    str,
    msgspec.Meta(
        max_length=1_000_000,
        description=f"Read whole; stored cut to its first {TEXT_MAX} characters, with a "
        "`message_cut` warning (a turn is never lost to its length).",
    ),
]
UserMessage = Annotated[
    Text,
    msgspec.Meta(description="The user's message as received ('' for a sticker or a photo)."),
]
ShortText = Annotated[str, msgspec.Meta(max_length=2_000)]
Confidence = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]
Importance = Annotated[int, msgspec.Meta(ge=0, le=3, description="0 trivial … 3 core identity.")]

Scope = Literal["global", "agent"]
Role = Literal["user", "assistant", "system"]
MemoryType = Literal["PROFILE", "PEOPLE", "PROJECT"]
TodoKind = Literal["COMMITMENT", "THREAD", "FRICTION", "HABIT", "REMINDER", "GOAL"]
TodoStatus = Literal["PENDING", "DONE", "DROPPED"]
Category = Literal[
    "Person",
    "Location",
    "Org",
    "Project",
    "Goal",
    "Food",
    "Habit",
    "Pet",
    "Thing",
    "Event",
    "Other",
]


class Struct(
    msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=False, frozen=True
):
    """Base of every contract: immutable once built (``msgspec.structs.replace`` makes a changed
    copy), keyword-only, unknown fields refused (typos surface as 422). A subclass repeats
    ``frozen=True`` so the type checker sees it too."""


class Provenance(Struct, kw_only=True, frozen=True):
    """Where a memory item comes from, so a designer can see why it is there."""

    row_id: RowId
    message_ids: Annotated[list[str], msgspec.Meta(max_length=MANY)] = []
    source: str | None = None


class Ids(Struct, kw_only=True, frozen=True):
    """Who is talking to whom, in which chat. Every node request starts with these."""

    user_id: UserId
    agent_id: AgentId
    chat_id: ChatId


class Health(Struct, kw_only=True, frozen=True):
    status: Literal["ok"]
    node: str


class Readiness(Struct, kw_only=True, frozen=True):
    status: Literal["ready", "unavailable"]
    node: str
    checks: Annotated[dict[str, str], msgspec.Meta(max_length=FEW)]
    # "embedded" (run by this process: Postgres, Redis, Qdrant Edge) or "external" (a URL)
    # for each store the node needs.
    modes: Annotated[dict[str, Literal["embedded", "external"]], msgspec.Meta(max_length=FEW)] = {}
    # route → the stores it is serving on without (1.5): still 200, with its own degraded
    # flags; a node is "unavailable" only when some route lacks a store it cannot do without.
    degraded: Annotated[
        dict[str, Annotated[list[str], msgspec.Meta(max_length=FEW)]], msgspec.Meta(max_length=MANY)
    ] = {}


class Version(Struct, kw_only=True, frozen=True):
    node: str
    version: str
    slot_contract_version: ContractVersion
    schema_version: str | None = None


EXPORTS = {"health": Health, "readiness": Readiness, "version": Version}
