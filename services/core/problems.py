"""RFC 9457 problem answers for every error a node can give.

Steps, stores and adapters raise domain errors (:mod:`services.core.errors`), which carry no
HTTP status; :data:`REFUSALS` maps each to its status and title, once, and this module turns
them into ``application/problem+json``; so do failures of a dependency (503, naming it) and the
unexpected (500). The framework's own refusals (a route that does not exist, a body too large)
arrive with their status: ``services.core.refusals``, which also holds the map of handlers the
app factory registers. Answers that quote the body read it from :func:`raw_body`, which
:class:`BodyKeepingRequest`, the nodes' request class, fills in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import asyncpg
import msgspec
import structlog
from litestar import Request, Response

from services.core.errors import (
    Conflict,
    Contention,
    DependencySaturated,
    FieldError,
    InvalidInput,
    MalformedJSON,
    NotFound,
)
from services.core.outage import dependency_of

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://twin-core.dev/problems/"
_BODY = "twin.raw_body"  # where BodyKeepingRequest leaves the body, in the ASGI scope's state

AnyRequest: TypeAlias = Request[Any, Any, Any]
Handler: TypeAlias = Callable[[AnyRequest, Any], Response[bytes]]


class BodyKeepingRequest(Request[Any, Any, Any]):
    """The nodes' request class: the body it reads stays in the scope's state, where an error
    answer (built synchronously, after the handler failed) can quote it."""

    async def body(self) -> bytes:
        body = await super().body()
        self.scope.setdefault("state", {})[_BODY] = body
        return body


def raw_body(request: AnyRequest) -> bytes | None:
    """The body the framework already read for this request, or None if it read none."""
    body = request.scope.get("state", {}).get(_BODY)
    return body if isinstance(body, bytes) else None


class Problem(msgspec.Struct, omit_defaults=True):
    """The body of every error answer (RFC 9457), with ``errors`` for field problems."""

    type: str
    title: str
    status: int
    detail: str = ""
    instance: str = ""
    errors: list[dict[str, str]] = []
    dependency: str | None = None
    request_id: str | None = None


@dataclass(frozen=True, slots=True)
class Refusal:
    """How a domain error is answered: its status, its title (when the error names none), and
    the headers that say when to retry."""

    status: int
    title: str
    headers: Mapping[str, str] = field(default_factory=dict)


# Every domain error's status, in one place (a subclass before its base: the first match wins).
REFUSALS: dict[type[Exception], Refusal] = {
    MalformedJSON: Refusal(400, "Malformed JSON"),
    InvalidInput: Refusal(422, "Invalid input"),
    NotFound: Refusal(404, "Not found"),
    Conflict: Refusal(409, "Conflict"),
    Contention: Refusal(503, "Concurrent update", {"Retry-After": "1"}),
}


def refusal_of(exc: Exception) -> Refusal:
    """The refusal of a domain error listed in :data:`REFUSALS` (by type, then its bases)."""
    for kind, refusal in REFUSALS.items():
        if isinstance(exc, kind):
            return refusal
    raise LookupError(f"{type(exc).__name__} is not a domain error with a status")


class ProblemError(Exception):
    """The HTTP layer's own refusal with a status (the app factory's screening of a body that
    is not JSON: 415). Steps never raise it: they raise domain errors."""

    def __init__(
        self,
        status: int,
        title: str,
        detail: str = "",
        *,
        slug: str | None = None,
        errors: list[FieldError] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail or title)
        self.status = status
        self.title = title
        self.detail = detail
        self.slug = slug or title.lower().replace(" ", "-")
        self.errors = errors or []
        self.headers = headers or {}


def problem_response(
    request: AnyRequest, problem: Problem, headers: dict[str, str] | None = None
) -> Response[bytes]:
    problem.instance = problem.instance or request.url.path
    problem.request_id = request.scope.get("state", {}).get("request_id")
    return Response(
        content=msgspec.json.encode(problem),
        status_code=problem.status,
        media_type=PROBLEM_JSON,
        headers=headers or {},
    )


def handle_problem_error(request: AnyRequest, exc: ProblemError) -> Response[bytes]:
    problem = Problem(
        type=TYPE_BASE + exc.slug,
        title=exc.title,
        status=exc.status,
        detail=exc.detail,
        errors=[e.as_dict() for e in exc.errors],
    )
    return problem_response(request, problem, exc.headers)


def handle_invalid_input(request: AnyRequest, exc: InvalidInput) -> Response[bytes]:
    """Every invalid field listed: 422, or 400 when the body is not JSON at all."""
    return problem_response(request, invalid(exc.errors, exc.title, refusal_of(exc).status))


def handle_refused(request: AnyRequest, exc: Exception) -> Response[bytes]:
    """A domain error answered as :data:`REFUSALS` says (fields listed for invalid input)."""
    if isinstance(exc, InvalidInput):
        return handle_invalid_input(request, exc)
    refusal = refusal_of(exc)
    problem = Problem(
        type=TYPE_BASE + refusal.title.lower().replace(" ", "-"),
        title=refusal.title,
        status=refusal.status,
        detail=getattr(exc, "detail", "") or str(exc),
    )
    return problem_response(request, problem, dict(refusal.headers))


def make_unexpected_handler(retry_after_s: int) -> Handler:
    """The last resort: dependency failures become 503 + Retry-After, the rest a 500."""

    def handle_unexpected(request: AnyRequest, exc: Exception) -> Response[bytes]:
        dependency = dependency_of(exc)
        if dependency is not None:
            structlog.get_logger().warning(
                "dependency_unavailable", dependency=dependency, error=type(exc).__name__
            )
            problem = Problem(
                type=TYPE_BASE + "dependency-unavailable",
                title="Dependency unavailable",
                status=503,
                detail=f"{_what_failed(exc, dependency)}; retry after {retry_after_s} s",
                dependency=dependency,
            )
            return problem_response(request, problem, {"Retry-After": str(retry_after_s)})
        if isinstance(exc, asyncpg.exceptions.CheckViolationError | asyncpg.exceptions.DataError):
            # the contract let through a value the schema refuses: still the input's fault
            structlog.get_logger().warning(
                "input_refused_by_store",
                error=type(exc).__name__,
                constraint=getattr(exc, "constraint_name", None),
            )
            return problem_response(
                request,
                invalid(
                    [
                        FieldError(
                            "$", f"a value is out of what the store accepts ({type(exc).__name__})"
                        )
                    ],
                    REFUSALS[InvalidInput].title,
                    REFUSALS[InvalidInput].status,
                ),
            )
        structlog.get_logger().exception("unhandled_error", error=type(exc).__name__)
        problem = Problem(
            TYPE_BASE + "internal-error",
            "Internal error",
            500,
            "the node failed unexpectedly; the request id is in the log",
        )
        return problem_response(request, problem)

    return handle_unexpected


def _what_failed(exc: BaseException, dependency: str) -> str:
    """What the answer says of a dependency: that it is saturated and what ran out, or only
    that it did not answer (a driver's own message may quote data, so it is never shown)."""
    if isinstance(exc, DependencySaturated):
        return f"{dependency} is saturated: {exc.detail}"
    return f"{dependency} did not answer"


def malformed(error: FieldError) -> Problem:
    """400: the body is not JSON, reported at ``error.path``."""
    return invalid([error], REFUSALS[MalformedJSON].title, REFUSALS[MalformedJSON].status)


def invalid(errors: list[FieldError], title: str, status: int) -> Problem:
    """The body's fields that do not match its contract, all listed."""
    return Problem(
        type=TYPE_BASE + "invalid-input",
        title=title,
        status=status,
        detail="; ".join(f"{e.path}: {e.reason}" for e in errors[:5]),
        errors=[e.as_dict() for e in errors],
    )
