"""Which failure names which dependency, and which input error is which status: decided by the
exception's type, never by its message or a guess."""

from __future__ import annotations

import socket

import asyncpg
import pytest
import redis.exceptions

from services.core import postgres
from services.core.errors import (
    Conflict,
    Contention,
    DependencyUnavailable,
    FieldError,
    InvalidInput,
    MalformedJSON,
    NotFound,
)
from services.core.outage import dependency_of
from services.core.problems import REFUSALS, refusal_of
from services.core.refusals import exception_handlers
from services.core.settings import Settings


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
    assert refusal_of(InvalidInput(errors)).status == 422
    assert refusal_of(InvalidInput(errors, "Malformed JSON")).status == 422  # a title decides
    assert refusal_of(MalformedJSON(errors)).status == 400  # nothing
    assert MalformedJSON(errors).title == "Malformed JSON"


def test_domain_errors_carry_no_status_and_each_has_one_refusal() -> None:
    """Statuses live in one table (``problems.REFUSALS``), never on the errors themselves."""
    samples = [
        InvalidInput([]),
        MalformedJSON([]),
        NotFound("no session s-1"),
        Conflict("turn t-1 was committed with another body"),
        Contention("this chat changed 5 times"),
    ]
    assert [refusal_of(e).status for e in samples] == [422, 400, 404, 409, 503]
    assert not [e for e in samples if hasattr(e, "status") or hasattr(e, "status_code")]
    assert refusal_of(Contention("x")).headers == {"Retry-After": "1"}
    with pytest.raises(LookupError):
        refusal_of(ValueError("a bug is no refusal"))


def test_every_refusal_is_registered_with_the_app() -> None:
    handlers = exception_handlers(Settings())
    assert set(REFUSALS) <= set(handlers)
