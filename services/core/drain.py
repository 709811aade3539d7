"""A node's stop on SIGTERM (a redeploy, ``docker stop``, systemd), as a load balancer needs it.

Guarantees:

- on SIGTERM the node first answers ``/readyz`` with 503 (``X-Unready: draining``) while it
  keeps serving every other request for ``TWIN_DRAIN_S``, so a balancer stops sending before
  the port closes; then uvicorn's graceful shutdown closes the ports and lets in-flight
  requests finish; a second SIGTERM skips what is left of the drain;
- SIGTERM ends the process with status 0 once the stores are stopped, as cleanly as Ctrl-C
  (which keeps the shell's 130, and no drain: someone is waiting at the terminal).
"""

from __future__ import annotations

import signal
import threading
import time
from types import FrameType
from typing import Any, cast

import msgspec
import structlog
import uvicorn
from litestar.types import ASGIApp

from services.core.problems import PROBLEM_JSON, TYPE_BASE


class DrainingServer(uvicorn.Server):
    """uvicorn's server, with a drain phase before a SIGTERM's shutdown."""

    def __init__(self, config: uvicorn.Config, *, drain_s: float, draining: threading.Event):
        super().__init__(config)
        self.drain_s = drain_s
        self.draining = draining
        self._close_at: float | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if sig != signal.SIGTERM:
            super().handle_exit(sig, frame)
            return
        # Not captured: uvicorn would re-raise it after the shutdown and end the process by the
        # signal (143) before the stores are stopped.
        if self.draining.is_set() or self.drain_s <= 0:
            self.should_exit = True
            return
        self.draining.set()
        self._close_at = time.monotonic() + self.drain_s
        structlog.get_logger("twin").info("draining", seconds=self.drain_s)

    async def on_tick(self, counter: int) -> bool:
        if self._close_at is not None and time.monotonic() >= self._close_at:
            self.should_exit = True
        return await super().on_tick(counter)


class DrainAware:
    """``app`` (an ASGI app), whose ``/readyz`` answers 503 once ``draining`` is set."""

    def __init__(self, app: ASGIApp, draining: threading.Event, retry_after_s: int) -> None:
        self.app = app
        self.draining = draining
        self.body = msgspec.json.encode(
            {
                "type": TYPE_BASE + "draining",
                "title": "Draining",
                "status": 503,
                "detail": "the node is shutting down: send new requests to another",
            }
        )
        self.headers = [
            (b"content-type", PROBLEM_JSON.encode()),
            (b"content-length", str(len(self.body)).encode()),
            (b"retry-after", str(retry_after_s).encode()),
            (b"x-unready", b"draining"),
        ]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and self.draining.is_set() and scope["path"] == "/readyz":
            await send({"type": "http.response.start", "status": 503, "headers": self.headers})
            await send({"type": "http.response.body", "body": self.body})
            return
        await cast(Any, self.app)(scope, receive, send)
