"""Slow and greedy clients meet a bound before they reach a node (issue 31 §4).

uvicorn reads a request's headers for as long as the client takes, and keeps every connection
it accepts: 1,100 half-sent requests to one node of ``twin up`` took all six down (the process
ran out of file descriptors). :func:`guarded_http` is uvicorn's httptools protocol with three
bounds, each per connection and before any node code runs:

- a request whose headers are not complete within ``header_timeout_s`` of its first byte (or
  of the connection opening) is answered ``408`` and its connection closed, and so is one whose
  body is not complete within ``body_timeout_s`` of its headers (unless the node answered);
- a node's port holds at most ``max_connections`` open connections: the next one is answered
  ``503`` with ``Retry-After`` and closed at once, so one node flooded never starves the
  other five of descriptors.

Keep-alive connections idle between requests are uvicorn's own ``timeout_keep_alive``.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

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


@dataclass(frozen=True)
class Bounds:
    """One server's bounds, its ready-made refusals, and its open connections per port."""

    header_timeout_s: float
    body_timeout_s: float
    slow_headers: bytes
    slow_body: bytes
    max_connections: int
    full: bytes
    open_per_port: Counter[int] = field(default_factory=Counter)


def guarded_http(
    *, header_timeout_s: float, body_timeout_s: float, max_connections: int, retry_after_s: int
) -> type[HttpToolsProtocol]:
    """uvicorn's ``http`` protocol class for one server, with the module's bounds."""
    bounds = Bounds(
        header_timeout_s=header_timeout_s,
        body_timeout_s=body_timeout_s,
        slow_headers=_answer(
            408,
            "Request Timeout",
            f"the request's headers took longer than {header_timeout_s:g} s "
            "(TWIN_HEADER_TIMEOUT_S)",
        ),
        slow_body=_answer(
            408,
            "Request Timeout",
            f"the request's body took longer than {body_timeout_s:g} s (TWIN_BODY_TIMEOUT_S)",
        ),
        max_connections=max_connections,
        full=_answer(
            503,
            "Service Unavailable",
            f"this node holds {max_connections} connections already (TWIN_MAX_CONNECTIONS); "
            f"retry after {retry_after_s} s",
            f"retry-after: {retry_after_s}\r\n",
        ),
    )
    return type("GuardedHttpToolsProtocol", (GuardedHttpToolsProtocol,), {"bounds": bounds})


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """The protocol :func:`guarded_http` makes a subclass of, with its ``bounds``."""

    bounds: ClassVar[Bounds]
    _port: int | None = None
    _timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        port = self.server[1] if self.server else None
        if port is not None and self.bounds.open_per_port[port] >= self.bounds.max_connections:
            structlog.get_logger("twin").warning("connection_refused", port=port)
            transport.write(self.bounds.full)
            transport.close()
            return
        if port is not None:
            self._port = port
            self.bounds.open_per_port[port] += 1
        self._arm(self.bounds.header_timeout_s, self._headers_late)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._port is not None:
            self.bounds.open_per_port[self._port] -= 1
            self._port = None
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm(self.bounds.header_timeout_s, self._headers_late)

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()
        # disarmed once the message is whole
        self._arm(self.bounds.body_timeout_s, self._body_late)

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def _arm(self, seconds: float, late: Callable[[], None]) -> None:
        if self._timer is None:
            self._timer = self.loop.call_later(seconds, late)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _headers_late(self) -> None:
        self._timer = None
        if self.cycle is not None and not self.cycle.response_complete:
            return  # a request is being answered; its headers came in time
        self._refuse(self.bounds.slow_headers)

    def _body_late(self) -> None:
        self._timer = None
        if self.cycle is not None and self.cycle.response_started:
            return  # the node answered without waiting for the rest
        self._refuse(self.bounds.slow_body)

    def _refuse(self, answer: bytes) -> None:
        if not self.transport.is_closing():
            self.transport.write(answer)
            self.transport.close()
