"""RFC 9457 problem answers for every error a node can give.

Adapters raise plain domain exceptions (``DependencyUnavailable`` and friends); this module is
the one place that turns them, and the framework's own errors, into ``application/problem+json``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import msgspec
import redis.exceptions
import structlog
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from services.core.errors import DependencyUnavailable
from services.core.validation import FieldError, InvalidInput, collect_errors

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://twin-core.dev/problems/"


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


class ProblemError(Exception):
    """Raise from a handler to answer with a problem of the given status."""

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


class NotFound(ProblemError):
    def __init__(self, detail: str) -> None:
        super().__init__(404, "Not found", detail)


class Conflict(ProblemError):
    def __init__(self, detail: str) -> None:
        super().__init__(409, "Conflict", detail)


def dependency_of(exc: BaseException) -> str | None:
    """Name the dependency a low-level exception comes from, or None if it is not one."""
    if isinstance(exc, DependencyUnavailable):
        return exc.dependency
    if isinstance(exc, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError):
        return "redis"
    if isinstance(
        exc,
        asyncpg.exceptions.PostgresConnectionError
        | asyncpg.exceptions.CannotConnectNowError
        | asyncpg.exceptions.TooManyConnectionsError
        | asyncpg.exceptions.AdminShutdownError
        | asyncpg.exceptions.QueryCanceledError
        | asyncpg.InterfaceError
        | ConnectionError,
    ):
        return "postgres"
    if isinstance(exc, OSError | asyncio.TimeoutError | TimeoutError):
        return "postgres"  # asyncpg raises bare OSError/TimeoutError when it cannot connect
    return None


def problem_response(request: Request, problem: Problem, headers: dict[str, str] | None = None):
    problem.instance = problem.instance or request.url.path
    problem.request_id = request.scope.get("state", {}).get("request_id")
    return Response(
        content=msgspec.json.encode(problem),
        status_code=problem.status,
        media_type=PROBLEM_JSON,
        headers=headers or {},
    )


def handle_problem_error(request: Request, exc: ProblemError) -> Response:
    problem = Problem(
        type=TYPE_BASE + exc.slug,
        title=exc.title,
        status=exc.status,
        detail=exc.detail,
        errors=[e.as_dict() for e in exc.errors],
    )
    return problem_response(request, problem, exc.headers)


def handle_invalid_input(request: Request, exc: InvalidInput) -> Response:
    return problem_response(request, _invalid(exc.errors, exc.title))


def handle_validation(request: Request, exc: ValidationException) -> Response:
    """422 listing every invalid field: re-check the cached body against the route's contract."""
    errors = _body_errors(request)
    if not errors:
        errors = [_from_litestar(item) for item in (exc.extra or []) if isinstance(item, dict)]
    if not errors:
        errors = [FieldError("$", exc.detail or "invalid request")]
    return problem_response(request, _invalid(errors, "Invalid request"))


def make_http_handler(max_body_bytes: int):
    """The framework's own refusals as problems, each saying what to do instead."""

    def handle_http(request: Request, exc: HTTPException) -> Response:
        status = exc.status_code
        title = _HTTP_TITLES.get(status, "HTTP error")
        detail = exc.detail if exc.detail and exc.detail.lower() != title.lower() else ""
        headers = dict(exc.headers or {})
        if status == 400 and _body_is_malformed(request):
            reason = f"malformed JSON body: {detail}" if detail else "malformed JSON body"
            return problem_response(request, _invalid([FieldError("$", reason)], "Malformed JSON"))
        if status == 404 and not detail:
            detail = (
                f"no route {request.method} {request.url.path}; every route is listed "
                "at /schema/openapi.json"
            )
        elif status == 405 and not detail:
            allowed = headers.get("allow") or headers.get("Allow") or ""
            detail = f"{request.url.path} does not answer {request.method}" + (
                f"; it answers {allowed}" if allowed else ""
            )
        elif status == 413:
            detail = f"the body is over the limit of {max_body_bytes} bytes (TWIN_MAX_BODY_BYTES)"
        problem = Problem(TYPE_BASE + title.lower().replace(" ", "-"), title, status, detail)
        return problem_response(request, problem, headers)

    return handle_http


_HTTP_TITLES = {
    400: "Bad request",
    401: "Unauthorized",
    404: "Not found",
    405: "Method not allowed",
    413: "Request body too large",
}


def handle_undecodable(request: Request, exc: RecursionError | UnicodeDecodeError) -> Response:
    """Bodies msgspec cannot even read — JSON nested thousands deep (``[[[[…]]]]``), bytes that
    are not UTF-8 — are the body's fault: a 400 at ``$``, not a 500. The offset named is the
    first bad byte's in the body as sent (msgspec counts from the start of the string)."""
    if isinstance(exc, RecursionError):
        reason = "nested too deeply"
    else:
        reason = f"not UTF-8 (byte {_first_bad_byte(request, exc.start)})"
    problem = _invalid([FieldError("$", f"malformed JSON body: {reason}")], "Malformed JSON")
    return problem_response(request, problem)


def _first_bad_byte(request: Request, fallback: int) -> int:
    body = request._connection_state.body  # the body litestar already read and cached
    if isinstance(body, bytes):
        try:
            body.decode("utf-8")
        except UnicodeDecodeError as exc:
            return exc.start
    return fallback


def make_unexpected_handler(retry_after_s: int):
    """The last resort: dependency failures become 503 + Retry-After, the rest a 500."""

    def handle_unexpected(request: Request, exc: Exception) -> Response:
        dependency = dependency_of(exc)
        if dependency is not None:
            structlog.get_logger().warning(
                "dependency_unavailable", dependency=dependency, error=type(exc).__name__
            )
            problem = Problem(
                type=TYPE_BASE + "dependency-unavailable",
                title="Dependency unavailable",
                status=503,
                detail=f"{dependency} did not answer; retry after {retry_after_s} s",
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
                _invalid(
                    [
                        FieldError(
                            "$", f"a value is out of what the store accepts ({type(exc).__name__})"
                        )
                    ],
                    "Invalid input",
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


def _invalid(errors: list[FieldError], title: str) -> Problem:
    return Problem(
        type=TYPE_BASE + "invalid-input",
        title=title,
        status=422 if title != "Malformed JSON" else 400,
        detail="; ".join(f"{e.path}: {e.reason}" for e in errors[:5]),
        errors=[e.as_dict() for e in errors],
    )


def _body_errors(request: Request) -> list[FieldError]:
    field = request.route_handler.parsed_fn_signature.parameters.get("data")
    body = request._connection_state.body  # the body litestar already read and cached
    if field is None or not isinstance(body, bytes):
        return []
    try:
        value: Any = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return [FieldError("$", "malformed JSON body")]
    return collect_errors(value, field.annotation)


def _body_is_malformed(request: Request) -> bool:
    body = request._connection_state.body
    if not isinstance(body, bytes):
        return False
    try:
        msgspec.json.decode(body)
    except msgspec.DecodeError:
        return True
    return False


def _from_litestar(item: dict[str, Any]) -> FieldError:
    key = item.get("key")
    return FieldError(f"$.{key}" if key else "$", str(item.get("message", "invalid")))
