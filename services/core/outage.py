"""Which dependency a failure says did not answer, decided by the exception's type: a domain
error (:class:`~services.core.errors.DependencyUnavailable`) names it, and so do the client
libraries' own connection errors. No HTTP here: a step that must tell an outage from a bug
(re-raise the one, log the other) asks :func:`dependency_of`; :mod:`services.core.problems`
turns the outage into its 503, once.
"""

from __future__ import annotations

import asyncpg
import redis.exceptions

from services.core.errors import DependencyUnavailable

# Client libraries' own error types, and the dependency each one names. A bare OSError or
# TimeoutError names nothing: the Postgres adapter (services.core.postgres) turns its own into
# DependencyUnavailable("postgres"); the other adapters raise DependencyUnavailable themselves.
_CLIENT_ERRORS: tuple[tuple[tuple[type[BaseException], ...], str], ...] = (
    ((redis.exceptions.ConnectionError, redis.exceptions.TimeoutError), "redis"),
    (
        (
            asyncpg.exceptions.PostgresConnectionError,
            asyncpg.exceptions.CannotConnectNowError,
            asyncpg.exceptions.TooManyConnectionsError,
            asyncpg.exceptions.AdminShutdownError,
            asyncpg.exceptions.QueryCanceledError,
            asyncpg.InterfaceError,
        ),
        "postgres",
    ),
)


def dependency_of(exc: BaseException) -> str | None:
    """The dependency an exception says did not answer, or None if it is not such a failure."""
    if isinstance(exc, DependencyUnavailable):
        return exc.dependency
    for types, dependency in _CLIENT_ERRORS:
        if isinstance(exc, types):
            return dependency
    return None
