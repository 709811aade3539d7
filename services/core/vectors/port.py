"""The vector index port: what every node may ask of the index, whichever Qdrant serves it.

The index is never the truth: every point mirrors a Postgres row (its id is the row's UUID), and
losing the index loses nothing a reindex cannot rebuild. What the port guarantees, in both forms:

- every read and delete takes ``user_id`` and never returns or touches another user's points;
- upsert is idempotent by id (the same id twice is one point, the last write wins);
- a failing backend raises :class:`VectorIndexUnavailable` (the HTTP layer answers 503), while a
  caller's mistake (unknown collection, wrong dimension, non-UUID id) raises ``ValueError``;
- no plaintext reaches the index's files: a payload carries ids, kinds, numbers and times, never
  a text (``PLAINTEXT_KEYS`` are refused), and the BM25 vector holds hashed term ids. Readers
  take text from Postgres by the point's id. An append-only engine keeps a deleted point's
  bytes in its write-ahead log until the log rolls over (Qdrant Edge: 32 MiB segments, which
  no API compacts), so text in a payload would outlive a hard forget there.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from services.core.errors import DependencyUnavailable

COLLECTIONS: tuple[str, ...] = ("episodes", "knowledge", "facts", "messages")
# The owner (payload ``user_id``) of an agent's knowledge that all of its users may read. User
# ids cannot start with '@' (contracts.common.UserId), so no user can own or forget these.
SHARED_OWNER = "@shared"
SCOPES: frozenset[str] = frozenset({"global", "agent"})
REQUIRED_PAYLOAD: tuple[str, ...] = ("user_id", "agent_id", "scope", "entity_ids", "active")
# Payload keys that would hold what a person said or wrote; refused (see the module docstring).
PLAINTEXT_KEYS: frozenset[str] = frozenset(
    {
        "text",
        "title",
        "section",
        "speaker",
        "name",
        "reflection",
        "summary",
        "one_liner",
        "content",
        "snippet",
        "source_snippet",
        "value",
    }
)

Scope = Literal["global", "agent"]
PayloadValue = str | int | bool | Sequence[str] | Sequence[int]


class VectorIndexUnavailable(DependencyUnavailable):
    """The vector index did not answer (down, closed, or owned by another process)."""

    def __init__(self, detail: str = "") -> None:
        super().__init__("vectors", detail)


@dataclass(frozen=True, slots=True)
class VectorPoint:
    """One indexed row: its UUID, dense embedding, the text its BM25 vector is built from, and
    its payload.

    The payload must carry ``user_id`` (non-empty), ``agent_id`` (str, or None for a global
    point), ``scope`` ('global' | 'agent'; an agent point needs an ``agent_id``), ``entity_ids``
    (list of str) and ``active`` (bool); ``row_id`` defaults to the id. Any other JSON value may
    ride along (``ts``, ``day``, ``kind``, ``message_ids``...) except a text under one of
    ``PLAINTEXT_KEYS``. The text itself is never stored, only its vectors.
    Construction normalizes the id to its canonical UUID string and raises ``ValueError`` on a
    malformed point.
    """

    id: str
    dense: Sequence[float]
    text: str
    payload: Mapping[str, Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", canonical_id(self.id))
        object.__setattr__(self, "payload", _checked_payload(self.id, self.payload))


@dataclass(frozen=True, slots=True)
class VectorHit:
    """A search result. ``score`` orders hits (RRF when hybrid, cosine when dense-only, BM25
    when text-only); ``similarity`` is the cosine between the query and the point whenever the
    query had a dense vector (for relative cutoffs), else None; ``lexical`` is a hybrid hit's
    BM25 score when the lexical ranking held it (for score fusion), else None."""

    id: str
    score: float
    payload: dict[str, Any] = field(default_factory=dict)
    similarity: float | None = None
    lexical: float | None = None


class VectorIndex(Protocol):
    """The index over the ``episodes``, ``knowledge``, ``facts`` and ``messages``
    collections."""

    async def ensure_collections(self) -> None:
        """Create any missing collection and its payload indexes; safe to call at every start."""

    async def upsert(self, collection: str, points: Sequence[VectorPoint]) -> None:
        """Insert or replace points by id; visible to the next search once this returns."""

    async def search(
        self,
        collection: str,
        *,
        user_id: str,
        dense: Sequence[float] | None = None,
        text: str | None = None,
        agent_id: str | None = None,
        agent_only: bool = False,
        with_shared: bool = False,
        entity_ids: Sequence[str] | None = None,
        include_inactive: bool = False,
        limit: int = 8,
        extra_must: Mapping[str, PayloadValue] | None = None,
        payload: Sequence[str] | None = None,
        dense_head: int = 0,
    ) -> list[VectorHit]:
        """The user's best points for a dense vector, a text (BM25), or both fused by RRF.

        Visible: ``scope='global'`` plus, when ``agent_id`` is given, that agent's
        ``scope='agent'`` points (never another agent's); ``agent_only`` keeps just the agent's
        own points. ``with_shared`` adds the points owned by :data:`SHARED_OWNER` (an agent's
        shared knowledge) to the user's own in the same search, BM25 statistics over both;
        another user's points stay out. Only ``active`` points unless ``include_inactive``.
        ``entity_ids`` (non-empty) keeps points sharing at least one entity; ``extra_must``
        adds equality (or any-of, for a list) conditions on payload keys. ``payload`` names the
        payload keys each hit carries (None: all of them; empty: none); a caller that reads
        only ids asks for none, since turning a point's payload into Python objects costs more
        than finding the point. ``dense_head``: a hybrid search's hits hold the first points by
        cosine whatever their RRF (:func:`services.core.vectors.fusion.fuse`).
        """
        ...

    async def set_active(
        self, collection: str, *, user_id: str, ids: Sequence[str], active: bool
    ) -> int:
        """Soft forget (or restore) the user's points among ``ids``; returns how many matched."""
        ...

    async def delete(
        self,
        collection: str,
        *,
        user_id: str,
        ids: Sequence[str] | None = None,
        agent_id: str | None = None,
    ) -> int:
        """Hard forget; returns how many points went. ``ids`` limits it to those of the user's
        points; ``agent_id`` to that agent's agent-scoped points (global points stay); neither
        deletes every point of the user in the collection."""
        ...

    async def count(self, collection: str, *, user_id: str) -> int:
        """How many points the user has in the collection, active or not."""
        ...

    async def optimize(self) -> None:
        """Compact storage (drop deleted points). Edge blocks the process while it runs: call it
        from maintenance, never from a request. A no-op where the server optimizes itself."""

    async def purge(self, collection: str) -> bool:
        """Rewrite the collection's storage so no deleted point's vectors or term ids stay in
        any of its files; False where this process cannot (a server rewrites on its own
        schedule). Costs a copy of the whole collection: for hard forgets only."""
        ...

    async def ping(self) -> None:
        """Return when the index answers; raise :class:`VectorIndexUnavailable` otherwise."""

    async def close(self) -> None:
        """Flush and release; the index answers :class:`VectorIndexUnavailable` afterwards."""


def canonical_id(value: str) -> str:
    """The canonical lower-case UUID string for ``value``; ``ValueError`` if it is not one."""
    try:
        return str(uuid.UUID(str(value)))
    except ValueError:
        raise ValueError(f"point id must be a UUID, got {value!r}") from None


def check_collection(collection: str) -> None:
    if collection not in COLLECTIONS:
        raise ValueError(f"unknown collection {collection!r}; expected one of {COLLECTIONS}")


def _checked_payload(point_id: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    missing = [key for key in REQUIRED_PAYLOAD if key not in payload]
    if missing:
        raise ValueError(f"point {point_id}: payload lacks {missing}")
    plaintext = sorted(PLAINTEXT_KEYS.intersection(payload))
    if plaintext:
        raise ValueError(
            f"point {point_id}: payload keys {plaintext} would keep plaintext in "
            "the index files; read the text from Postgres by id"
        )
    user_id, agent_id, scope = payload["user_id"], payload["agent_id"], payload["scope"]
    if not isinstance(user_id, str) or not user_id:
        raise ValueError(f"point {point_id}: user_id must be a non-empty string")
    if scope not in SCOPES:
        raise ValueError(f"point {point_id}: scope must be 'global' or 'agent', got {scope!r}")
    if agent_id is not None and not isinstance(agent_id, str):
        raise ValueError(f"point {point_id}: agent_id must be a string or None")
    if scope == "agent" and not agent_id:
        raise ValueError(f"point {point_id}: an agent-scoped point needs an agent_id")
    entity_ids = payload["entity_ids"]
    if isinstance(entity_ids, str) or not all(isinstance(e, str) for e in entity_ids):
        raise ValueError(f"point {point_id}: entity_ids must be a list of strings")
    if not isinstance(payload["active"], bool):
        raise ValueError(f"point {point_id}: active must be a bool")
    checked = dict(payload)
    checked["entity_ids"] = list(entity_ids)
    checked.setdefault("row_id", point_id)
    return checked
