"""Slow and greedy clients meet a bound before they reach a node (issue 31 §4).

uvicorn reads a request's headers for as long as the client takes, and keeps every connection
it accepts: 1,100 half-sent requests to one node of ``twin up`` took all six down (the process
ran out of file descriptors). :func:`guarded_http` is uvicorn's httptools protocol with two
bounds, both per connection and before any node code runs:

- a request whose headers are not complete within ``header_timeout_s`` of its first byte (or
  of the connection opening) is answered ``408`` and its connection closed;
- a node's port holds at most ``max_connections`` open connections: the next one is answered
  ``503`` with ``Retry-After`` and closed at once, so one node flooded never starves the
  other five of descriptors.

Keep-alive connections idle between requests are uvicorn's own ``timeout_keep_alive``.
"""

from __future__ import annotations

import asyncio
from collections import Counter

import msgspec
import structlog
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from services.core.problems import PROBLEM_JSON, TYPE_BASE


def _answer(status: int, title: str, detail: str, headers: str = "") -> bytes:
    """A whole HTTP/1.1 problem answer (RFC 9457) that closes the connection."""
    body = msgspec.json.encode(
        {
            "type": TYPE_BASE + title.lower().replace(" ", "-"),
            "title": title,
            "status": status,
            "detail": detail,
        }
    )
    head = (
        f"HTTP/1.1 {status} {title}\r\ncontent-type: {PROBLEM_JSON}\r\n"
        f"content-length: {len(body)}\r\n{headers}connection: close\r\n\r\n"
    )
    return head.encode() + body


def guarded_http(
    *, header_timeout_s: float, max_connections: int, retry_after_s: int
) -> type[HttpToolsProtocol]:
    """uvicorn's ``http`` protocol class for one server, with the module's two bounds."""
    open_per_port: Counter[int] = Counter()
    too_slow = _answer(
        408,
        "Request Timeout",
        f"the request's headers took longer than {header_timeout_s:g} s (TWIN_HEADER_TIMEOUT_S)",
    )
    full = _answer(
        503,
        "Service Unavailable",
        f"this node holds {max_connections} connections already (TWIN_MAX_CONNECTIONS); "
        f"retry after {retry_after_s} s",
        f"retry-after: {retry_after_s}\r\n",
    )

    class GuardedHttpToolsProtocol(HttpToolsProtocol):
        _port: int | None = None
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            port = self.server[1] if self.server else None
            if port is not None and open_per_port[port] >= max_connections:
                structlog.get_logger("twin").warning("connection_refused", port=port)
                transport.write(full)
                transport.close()
                return
            if port is not None:
                self._port = port
                open_per_port[port] += 1
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._port is not None:
                open_per_port[self._port] -= 1
                self._port = None
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def _arm(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(header_timeout_s, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if self.transport.is_closing():
                return
            if self.cycle is not None and not self.cycle.response_complete:
                return  # a request is being answered; its headers came in time
            self.transport.write(too_slow)
            self.transport.close()

    return GuardedHttpToolsProtocol
