"""The Postgres adapter's failure contract: when the server cannot be reached, the error says so.

asyncpg reports a refused or lost socket as a bare ``OSError`` and a query over
``command_timeout`` as a bare ``TimeoutError``, which carry no hint of where they came from. The
pool opens its connections through :func:`connect` and hands out :class:`Connection`, which
turn exactly those into :class:`PostgresUnavailable` (a ``DependencyUnavailable`` naming
"postgres", so the answer is a 503 naming it). The pool itself is :class:`Pool`: a request that
finds every connection taken waits at most ``acquire_timeout_s`` for one, then is a 503 too
(:class:`PoolExhausted`) — never a hang behind clients that stopped reading (issue 31 §3).
Each is still a ``ConnectionError``: code that handles a dropped connection keeps handling it.
Errors the server reports (a constraint, a cancelled statement) stay asyncpg's own.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, TypeVar

import asyncpg

from services.core.errors import DependencySaturated, DependencyUnavailable

P = ParamSpec("P")
R = TypeVar("R")
C = TypeVar("C", bound=asyncpg.Connection)


class PostgresUnavailable(DependencyUnavailable, ConnectionError):
    """Postgres did not answer: the connection could not be opened, was lost, or timed out."""

    def __init__(self, cause: BaseException) -> None:
        name = type(cause).__name__
        super().__init__("postgres", f"{name}: {cause}" if str(cause) else name)


def _names_postgres(
    method: Callable[Concatenate[C, P], Coroutine[Any, Any, R]],
) -> Callable[Concatenate[C, P], Coroutine[Any, Any, R]]:
    @functools.wraps(method)
    async def call(self: C, /, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(self, *args, **kwargs)
        except (OSError, TimeoutError) as exc:
            raise PostgresUnavailable(exc) from exc

    return call


class Connection(asyncpg.Connection):
    """asyncpg's connection, whose round trips raise :class:`PostgresUnavailable` when the
    server does not answer (transactions go through ``execute``). The wrapper keeps every
    overload of ``fetch``/``fetchrow``/``fetchmany``/``prepare`` at run time; the type checker
    sees only one, hence their ignores."""

    execute = _names_postgres(asyncpg.Connection.execute)
    executemany = _names_postgres(asyncpg.Connection.executemany)
    fetch = _names_postgres(asyncpg.Connection.fetch)  # type: ignore[assignment]
    fetchrow = _names_postgres(asyncpg.Connection.fetchrow)  # type: ignore[assignment]
    fetchval = _names_postgres(asyncpg.Connection.fetchval)
    fetchmany = _names_postgres(asyncpg.Connection.fetchmany)  # type: ignore[assignment]
    prepare = _names_postgres(asyncpg.Connection.prepare)  # type: ignore[assignment]
    copy_records_to_table = _names_postgres(asyncpg.Connection.copy_records_to_table)
    set_type_codec = _names_postgres(asyncpg.Connection.set_type_codec)


class PoolExhausted(DependencySaturated, ConnectionError):
    """Every connection of the pool stayed taken for the whole acquire timeout."""

    def __init__(self, timeout_s: float, size: int) -> None:
        super().__init__(
            "postgres", f"no free connection of {size} within {timeout_s:g} s (pool exhausted)"
        )


class Pool(asyncpg.Pool):
    """asyncpg's pool whose ``acquire()`` waits at most ``acquire_timeout_s`` (when the caller
    gives no timeout of its own), then raises :class:`PoolExhausted`."""

    def __init__(self, *args: Any, acquire_timeout_s: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.acquire_timeout_s = acquire_timeout_s

    async def _acquire(self, timeout: float | None) -> Any:  # noqa: ASYNC109 - asyncpg's
        # asyncpg's one way in for both `async with pool.acquire()` and `await pool.acquire()`
        wait = self.acquire_timeout_s if timeout is None else timeout
        try:
            return await super()._acquire(wait)  # type: ignore[misc]
        except TimeoutError as exc:
            raise PoolExhausted(wait, self.get_max_size()) from exc


async def connect(*args: Any, **kwargs: Any) -> asyncpg.Connection:
    """The pool's ``connect``: :func:`asyncpg.connect`, naming Postgres when it cannot."""
    try:
        return await asyncpg.connect(*args, **kwargs)
    except (OSError, TimeoutError) as exc:
        raise PostgresUnavailable(exc) from exc
