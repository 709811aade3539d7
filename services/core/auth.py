"""Bearer-token guard for ``/v1/*``; health, readiness, version and OpenAPI stay open."""

from __future__ import annotations

import hmac
from collections.abc import Callable

import msgspec
from litestar.enums import ScopeType
from litestar.types import (
    ASGIApp,
    HTTPResponseBodyEvent,
    HTTPResponseStartEvent,
    Receive,
    Scope,
    Send,
)

PROTECTED_PREFIX = "/v1/"


def bearer_auth_middleware(token: str | None) -> Callable[[ASGIApp], ASGIApp]:
    """Refuse ``/v1/*`` without ``Authorization: Bearer <token>`` when a token is configured.

    The comparison is constant-time; the token never reaches a log line.
    """
    expected = f"Bearer {token}".encode() if token else None

    def middleware(app: ASGIApp) -> ASGIApp:
        if expected is None:
            return app

        async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] == ScopeType.HTTP and scope["path"].startswith(PROTECTED_PREFIX):
                given = next((v for k, v in scope["headers"] if k == b"authorization"), b"")
                if not hmac.compare_digest(given, expected):
                    await _unauthorized(scope, send)
                    return
            await app(scope, receive, send)

        return guarded

    return middleware


async def _unauthorized(scope: Scope, send: Send) -> None:
    body = msgspec.json.encode(
        {
            "type": "https://twin-core.dev/problems/unauthorized",
            "title": "Unauthorized",
            "status": 401,
            "detail": "missing or wrong bearer token for /v1 routes",
            "instance": scope["path"],
            "request_id": scope.get("state", {}).get("request_id"),
        }
    )
    start: HTTPResponseStartEvent = {
        "type": "http.response.start",
        "status": 401,
        "headers": [
            (b"content-type", b"application/problem+json"),
            (b"www-authenticate", b'Bearer realm="twin-core"'),
            (b"content-length", str(len(body)).encode()),
        ],
    }
    await send(start)
    end: HTTPResponseBodyEvent = {"type": "http.response.body", "body": body, "more_body": False}
    await send(end)
