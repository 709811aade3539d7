"""What a query function of this node takes: a connection, or a pool's proxy of one (the
stubs tell them apart). Switches to ``services.core.deps.Connection`` once that lands."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias, Union

if TYPE_CHECKING:
    import asyncpg
    from asyncpg.pool import PoolConnectionProxy

Connection: TypeAlias = Union[  # noqa: UP007 - forward references, never evaluated
    "asyncpg.Connection[asyncpg.Record]", "PoolConnectionProxy[asyncpg.Record]"
]
Database: TypeAlias = "asyncpg.Pool[asyncpg.Record]"
