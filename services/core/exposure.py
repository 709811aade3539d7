"""Who can reach a node: no open node beyond loopback, and no DNS rebinding (issue 31, item 7).

- :func:`exposure_refusal`: ``twin up`` / ``twin serve`` bound beyond loopback
  (``TWIN_HOST`` not ``127.0.0.1``, ``::1`` or ``localhost``) without ``TWIN_NODE_TOKEN``
  would serve every person's memory (``GET /v1/export``) to the network: the entry point
  refuses to start, unless ``TWIN_ALLOW_OPEN`` says so, and then logs a warning.
- :func:`host_check`: with no token, a web page can reach a laptop's nodes by DNS rebinding
  (its own name resolved to 127.0.0.1, so the browser sends that name as ``Host``). A request
  whose ``Host`` is not a loopback name, ``TWIN_HOST`` or one of ``TWIN_ALLOWED_HOSTS`` is
  answered 421. With a token set the check is off: the token already keeps a page out, and
  compose's nodes call each other by their service names.
"""

from __future__ import annotations

import msgspec
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Receive, Scope, Send

from services.core.problems import PROBLEM_JSON, TYPE_BASE
from services.core.settings import Settings

LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})


def exposure_refusal(settings: Settings) -> str | None:
    """Why the nodes must not start as configured, in one line; None when they may."""
    if settings.host in LOOPBACK or settings.node_token or settings.allow_open:
        return None
    return (
        f"TWIN_HOST={settings.host} serves every person's memory beyond this machine: "
        "set TWIN_NODE_TOKEN (or TWIN_ALLOW_OPEN=1 to serve it open anyway)"
    )


def is_open_beyond_loopback(settings: Settings) -> bool:
    """Bound beyond loopback with no token (only possible with ``TWIN_ALLOW_OPEN``)."""
    return settings.host not in LOOPBACK and not settings.node_token


def allowed_hosts(settings: Settings) -> frozenset[str] | None:
    """The ``Host`` names a request may carry; None when any will do (a token is set)."""
    if settings.node_token:
        return None
    extra = (name.strip().lower() for name in settings.allowed_hosts.split(","))
    return LOOPBACK | {settings.host.lower()} | {name for name in extra if name}


def host_name(header: bytes) -> str:
    """``Host`` without its port or IPv6 brackets, lowercased: ``[::1]:8101`` → ``::1``."""
    value = header.decode("latin-1").strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def host_check(settings: Settings, app: ASGIApp) -> ASGIApp:
    """``app`` behind the ``Host`` allow-list (``app`` itself when the check is off)."""
    allowed = allowed_hosts(settings)
    if allowed is None:
        return app

    async def checked(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == ScopeType.HTTP:
            given = next((v for k, v in scope["headers"] if k == b"host"), None)
            if given is not None and host_name(given) not in allowed:
                await _misdirected(send, host_name(given))
                return
        await app(scope, receive, send)

    return checked


async def _misdirected(send: Send, name: str) -> None:
    body = msgspec.json.encode(
        {
            "type": TYPE_BASE + "misdirected-request",
            "title": "Misdirected request",
            "status": 421,
            "detail": f"the Host header {name[:100]!r} is not this node's: use 127.0.0.1, "
            "localhost or TWIN_HOST, or add the name to TWIN_ALLOWED_HOSTS",
        }
    )
    await send(
        {
            "type": "http.response.start",
            "status": 421,
            "headers": [
                (b"content-type", PROBLEM_JSON.encode()),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body, "more_body": False})
