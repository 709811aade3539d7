"""Serve nodes with uvicorn: one node on its port, or all six in one process (``twin up``).

``twin up`` binds one socket per node and serves them from a single uvicorn server, routing
each connection by the local port it arrived on. One process, so the embedded Qdrant Edge shard
and every pool are opened once and shared. SIGTERM makes ``/readyz`` 503 for a drain phase,
then closes the ports and lets in-flight requests finish (services.core.drain).
"""

from __future__ import annotations

import errno
import socket
import threading
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from contextlib import AsyncExitStack
from typing import Any, TypeAlias, cast

import structlog
import uvicorn
from litestar import Litestar
from litestar.types import ASGIApp

from services.core.deps import Clients
from services.core.drain import DrainAware, DrainingServer
from services.core.exposure import host_check
from services.core.guard import guarded_http
from services.core.settings import Settings

# Plain ASGI (litestar's own types leave out the lifespan scope this router answers).
Scope: TypeAlias = MutableMapping[str, Any]
Message: TypeAlias = MutableMapping[str, Any]
Receive: TypeAlias = Callable[[], Awaitable[Message]]
Send: TypeAlias = Callable[[Message], Awaitable[None]]


class PortRouter:
    """An ASGI app dispatching to one node app per local port, sharing one lifespan."""

    def __init__(
        self,
        apps: Mapping[int, Litestar],
        settings: Settings,
        needs: frozenset[str],
        on_ready: Callable[[], None] | None = None,
    ) -> None:
        self._apps = dict(apps)
        self._settings = settings
        self._needs = needs
        self._on_ready = on_ready  # called once every node has started (models built)
        self.clients: Clients | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        port: int = (scope.get("server") or ("", 0))[1]
        app = self._apps.get(port)
        if app is None:  # pragma: no cover - only the bound ports reach us
            raise RuntimeError(f"no node on port {port}")
        await cast(Any, app)(scope, receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        async with AsyncExitStack() as stack:
            message = await receive()
            assert message["type"] == "lifespan.startup"
            try:
                self.clients = await Clients.open(self._settings, self._needs)
                stack.push_async_callback(self.clients.close)
                for app in self._apps.values():
                    app.state.clients = self.clients
                    await stack.enter_async_context(app.lifespan())
            except Exception as exc:
                await send({"type": "lifespan.startup.failed", "message": repr(exc)})
                raise
            await send({"type": "lifespan.startup.complete"})
            if self._on_ready is not None:
                self._on_ready()
            message = await receive()
            assert message["type"] == "lifespan.shutdown"
        await send({"type": "lifespan.shutdown.complete"})


class PortInUse(RuntimeError):
    """A node's port is taken; the message says by what it may be and what to do."""


def bind(host: str, port: int, name: str = "") -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno != errno.EADDRINUSE:
            raise
        node = f" ({name}'s port)" if name else ""
        raise PortInUse(
            f"{host}:{port}{node} is already in use, by another `twin up` or another program: "
            "stop it, or run this one beside it at another offset "
            "(e.g. `TWIN_PORT_OFFSET=100 uv run twin up`, then the same offset for `twin chat`)"
        ) from None
    sock.set_inheritable(True)
    return sock


def serve(
    app: ASGIApp | PortRouter,
    sockets: list[socket.socket],
    settings: Settings,
    *,
    graceful_s: int = 20,
) -> None:
    """Run uvicorn on pre-bound sockets until SIGINT/SIGTERM; in-flight requests finish."""
    structlog.get_logger("twin").info("serving", ports=[s.getsockname()[1] for s in sockets])
    server(app, settings, graceful_s=graceful_s).run(sockets=sockets)


def server(
    app: ASGIApp | PortRouter, settings: Settings, *, graceful_s: int = 20
) -> uvicorn.Server:
    """The uvicorn server of a node or of ``twin up``: slow and greedy clients meet the bounds
    of :mod:`services.core.guard` before any node code runs, and a request whose ``Host`` is
    not this node's meets :func:`services.core.exposure.host_check`; SIGTERM drains first
    (:mod:`services.core.drain`)."""
    draining = threading.Event()
    config = uvicorn.Config(
        DrainAware(host_check(settings, cast(ASGIApp, app)), draining, settings.retry_after_s),
        lifespan="on",
        log_config=None,
        access_log=False,
        loop="uvloop",
        http=guarded_http(
            header_timeout_s=settings.header_timeout_s,
            body_timeout_s=settings.body_timeout_s,
            max_connections=settings.max_connections,
            retry_after_s=settings.retry_after_s,
        ),
        timeout_graceful_shutdown=graceful_s,
        server_header=False,
    )
    return DrainingServer(config, drain_s=settings.drain_s, draining=draining)
