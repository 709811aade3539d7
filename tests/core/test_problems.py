"""Which failure names which dependency, and which input error is which status: decided by the
exception's type, never by its message or a guess."""

from __future__ import annotations

import socket

import asyncpg
import pytest
import redis.exceptions

from services.core import postgres
from services.core.errors import DependencyUnavailable
from services.core.problems import dependency_of
from services.core.validation import FieldError, InvalidInput, MalformedJSON


def test_a_bare_os_error_or_timeout_names_no_dependency() -> None:
    assert dependency_of(OSError("disk full")) is None
    assert dependency_of(TimeoutError()) is None
    assert dependency_of(ValueError("bug")) is None


def test_each_client_error_names_its_own_dependency() -> None:
    assert dependency_of(DependencyUnavailable("vectors", "index closed")) == "vectors"
    assert dependency_of(redis.exceptions.ConnectionError()) == "redis"
    assert dependency_of(redis.exceptions.TimeoutError()) == "redis"
    assert dependency_of(asyncpg.exceptions.CannotConnectNowError()) == "postgres"
    assert dependency_of(asyncpg.exceptions.ConnectionDoesNotExistError()) == "postgres"


def test_the_postgres_adapter_names_postgres_and_stays_a_connection_error() -> None:
    exc = postgres.PostgresUnavailable(TimeoutError())
    assert dependency_of(exc) == "postgres"
    assert isinstance(exc, ConnectionError)  # code handling a dropped connection still does
    assert str(exc) == "postgres unavailable: TimeoutError"


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_a_refused_connection_raises_postgres_unavailable() -> None:
    dsn = f"postgresql://postgres@127.0.0.1:{_closed_port()}/postgres"
    with pytest.raises(postgres.PostgresUnavailable) as caught:
        await postgres.connect(dsn, timeout=2)
    assert isinstance(caught.value.__cause__, OSError)
    assert dependency_of(caught.value) == "postgres"


def test_the_status_of_an_input_error_is_its_type() -> None:
    errors = [FieldError("$", "malformed JSON body")]
    assert InvalidInput(errors).status == 422
    assert InvalidInput(errors, "Malformed JSON").status == 422  # a title decides nothing
    assert MalformedJSON(errors).status == 400
    assert MalformedJSON(errors).title == "Malformed JSON"
