"""The rows a batch of fact writes sends to Postgres, one dataclass per statement of
:mod:`.facts`, named instead of positional: each one's fields are in the order of its
statement's ``unnest(...) AS x(...)`` columns, and :func:`columns` turns a list of them into
the statement's array parameters."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec


@dataclass(frozen=True)
class CloseRow:
    """A live row closed as superseded."""

    id: UUID
    by: UUID | None  # the existing row that replaces it (None: set by a LinkRow)
    at: datetime | None  # when it ended: the new fact's valid_from; None: now
    keep: bool = False  # ends later: stays ACTIVE until ``at``, giving up its memory key


@dataclass(frozen=True)
class UpdateRow:
    """A live row restated: its new words, key and scores, and the merged provenance."""

    id: UUID
    text: str
    importance: int
    pinned: bool
    confidence: float
    key: str | None
    memory_type: str
    fact_type: str
    prov: str  # JSON array of message ids
    changed: bool
    counted: int  # 1: the restatement counts as a reference
    vfrom: datetime | None
    vto: datetime | None


@dataclass(frozen=True)
class InsertRow:
    """A new row."""

    id: UUID
    scope: str
    agent: str
    subject: UUID
    predicate: str
    object: UUID | None
    value: str | None
    confidence: float
    memory_type: str
    fact_type: str
    key: str | None
    text: str
    importance: int
    pinned: bool
    source: str
    prov: str  # JSON array of message ids
    vfrom: datetime | None
    vto: datetime | None


@dataclass(frozen=True)
class LinkRow:
    """A row closed by a new one: points it at the new row's id."""

    old_id: UUID
    new_id: UUID


def columns(rows: Sequence[object], row_type: type) -> list[list[Any]]:
    """The rows as one list per field, in the dataclass's field order (one array parameter
    per ``unnest`` column)."""
    return [[getattr(row, f.name) for row in rows] for f in fields(row_type)]


def _json(value: object) -> str:
    """A JSON array as text: asyncpg would read a list inside an array parameter as another
    array dimension, so lists travel as text and are cast to jsonb in SQL."""
    return msgspec.json.encode(value).decode()
