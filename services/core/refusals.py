"""The framework's own refusals of a request as RFC 9457 problems, each saying what to do
instead: a body that does not match its contract (422, every field listed), is not JSON (400),
is too large (413), a route or method that does not exist (404, 405). :func:`exception_handlers`
is the whole map the app factory registers.
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.types import ExceptionHandlersMap

from contracts.common import TEXT_MAX
from services.core.errors import FieldError
from services.core.problems import (
    REFUSALS,
    TYPE_BASE,
    AnyRequest,
    Handler,
    Problem,
    ProblemError,
    handle_problem_error,
    handle_refused,
    invalid,
    make_unexpected_handler,
    malformed,
    problem_response,
    raw_body,
)
from services.core.settings import Settings
from services.core.validation import collect_errors


def exception_handlers(settings: Settings) -> ExceptionHandlersMap:
    """Every exception a node can raise, mapped to the handler that answers it."""
    return {
        ProblemError: handle_problem_error,
        **{kind: handle_refused for kind in REFUSALS},
        ValidationException: handle_validation,
        HTTPException: make_http_handler(settings.max_body_bytes),
        RecursionError: handle_undecodable,
        UnicodeDecodeError: handle_undecodable,
        Exception: make_unexpected_handler(settings.retry_after_s),
    }


def handle_validation(request: AnyRequest, exc: ValidationException) -> Response[bytes]:
    """422 listing every invalid field: re-check the cached body against the route's contract."""
    errors = _body_errors(request)
    if not errors:
        errors = [_from_litestar(item) for item in (exc.extra or []) if isinstance(item, dict)]
    if not errors:
        errors = [FieldError("$", exc.detail or "invalid request")]
    return problem_response(request, invalid(errors, "Invalid request", 422))


def make_http_handler(max_body_bytes: int) -> Handler:
    """The framework's own refusals as problems, each saying what to do instead."""

    def handle_http(request: AnyRequest, exc: HTTPException) -> Response[bytes]:
        status = exc.status_code
        title = _HTTP_TITLES.get(status, "HTTP error")
        detail = exc.detail if exc.detail and exc.detail.lower() != title.lower() else ""
        headers = dict(exc.headers or {})
        if status == 400 and _body_ismalformed(request):
            reason = f"malformed JSON body: {detail}" if detail else "malformed JSON body"
            return problem_response(request, malformed(FieldError("$", reason)))
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
            detail = _too_large(max_body_bytes)
        problem = Problem(TYPE_BASE + title.lower().replace(" ", "-"), title, status, detail)
        return problem_response(request, problem, headers)

    return handle_http


def _too_large(max_body_bytes: int) -> str:
    """The 413's detail: the body limit, and the field limit that applies below it."""
    return (
        f"the body is over the limit of {max_body_bytes} bytes (TWIN_MAX_BODY_BYTES, the "
        f"node's setting); below it each field has its own limit, named in a 422: a person's "
        f"message to /v1/pulse or /v1/turn holds at most {TEXT_MAX:,} characters, so a larger "
        "body only helps /v1/commit, /v1/knowledge and /v1/import"
    )


_HTTP_TITLES = {
    400: "Bad request",
    401: "Unauthorized",
    404: "Not found",
    405: "Method not allowed",
    413: "Request body too large",
}


def handle_undecodable(
    request: AnyRequest, exc: RecursionError | UnicodeDecodeError
) -> Response[bytes]:
    """Bodies msgspec cannot even read — JSON nested thousands deep (``[[[[…]]]]``), bytes that
    are not UTF-8 — are the body's fault: a 400 at ``$``, not a 500. The offset named is the
    first bad byte's in the body as sent (msgspec counts from the start of the string)."""
    if isinstance(exc, RecursionError):
        reason = "nested too deeply"
    else:
        reason = f"not UTF-8 (byte {_first_bad_byte(request, exc.start)})"
    problem = malformed(FieldError("$", f"malformed JSON body: {reason}"))
    return problem_response(request, problem)


def _first_bad_byte(request: AnyRequest, fallback: int) -> int:
    body = raw_body(request)
    if body is not None:
        try:
            body.decode("utf-8")
        except UnicodeDecodeError as exc:
            return exc.start
    return fallback


def _body_errors(request: AnyRequest) -> list[FieldError]:
    field = request.route_handler.parsed_fn_signature.parameters.get("data")
    body = raw_body(request)
    if field is None or body is None:
        return []
    try:
        value: Any = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return [FieldError("$", "malformed JSON body")]
    return collect_errors(value, field.annotation)


def _body_ismalformed(request: AnyRequest) -> bool:
    body = raw_body(request)
    if body is None:
        return False
    try:
        msgspec.json.decode(body)
    except msgspec.DecodeError:
        return True
    return False


def _from_litestar(item: dict[str, Any]) -> FieldError:
    key = item.get("key")
    return FieldError(f"$.{key}" if key else "$", str(item.get("message", "invalid")))
