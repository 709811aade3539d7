"""Structured logging: configured once by the entry point, one canonical line per request.

The line is cheap because every request pays for it: JSON by msgspec straight to stdout's
bytes (one write), and a request id from a per-process random prefix and a counter instead of
a uuid4 per request.
"""

from __future__ import annotations

import asyncio
import atexit
import itertools
import logging
import secrets
import sys
import threading
import time
from collections.abc import Callable, MutableMapping
from typing import Any

import msgspec
import structlog
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from structlog.typing import Processor

REQUEST_ID_HEADER = b"x-request-id"
_MAX_REQUEST_ID = 128


class StdoutLines:
    """A structlog logger writing rendered lines (bytes) to the current ``sys.stdout``.

    Lines logged while an event loop runs go out together at the loop's next turn, in one
    write for all of that turn's requests (a write is a system call; under load a turn ends
    many requests); lines logged elsewhere go out at once.
    """

    def __init__(self) -> None:
        self._pending: list[bytes] = []
        self._lock = threading.Lock()

    def msg(self, message: bytes) -> None:
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        with self._lock:
            if loop is not None and not self._pending:
                loop.call_soon(self.flush)
            self._pending.append(message)
        if loop is None:
            self.flush()

    log = debug = info = warn = warning = error = critical = exception = fatal = msg

    def flush(self) -> None:
        with self._lock:
            lines, self._pending = self._pending, []
        if lines:
            out = sys.stdout
            out.flush()  # anything printed as text before these lines stays before them
            out.buffer.write(b"\n".join(lines) + b"\n")
            out.buffer.flush()


def configure_logging(*, json: bool | None = None, level: int = logging.INFO) -> None:
    """Set up structlog's processor pipeline; JSON lines unless stdout is a terminal."""
    if json is None:
        json = not sys.stdout.isatty()
    encoder = msgspec.json.Encoder(enc_hook=repr)

    def json_bytes(event: Any, **_: Any) -> bytes:
        return encoder.encode(event)

    def json_text(event: Any, **_: Any) -> str:
        return encoder.encode(event).decode()

    renderer: Processor = (
        structlog.processors.JSONRenderer(serializer=json_bytes)
        if json
        else structlog.dev.ConsoleRenderer()
    )
    shared: list[Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    lines = StdoutLines()
    atexit.register(lines.flush)  # a line logged in the loop's last turn
    factory: Callable[..., Any] = (lambda *_: lines) if json else structlog.PrintLoggerFactory()
    structlog.configure(
        processors=[*shared, structlog.processors.format_exc_info, drop_error_details, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=factory,
        cache_logger_on_first_use=True,
    )
    text_renderer: Processor = (
        structlog.processors.JSONRenderer(serializer=json_text)
        if json
        else structlog.dev.ConsoleRenderer()
    )
    # uvicorn and libraries log through the stdlib: render their lines the same way.
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.format_exc_info,
                drop_error_details,
                text_renderer,
            ],
            foreign_pre_chain=[*shared, structlog.stdlib.add_logger_name],
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for noisy in ("httpx", "httpcore", "uvicorn.access"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def drop_error_details(
    _: Any, __: str, event: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    """A logged traceback keeps a database error without its ``DETAIL:`` line: Postgres
    quotes the row's values there (a relative's name in a unique-key race, issue 31 item 8),
    and asyncpg puts it in the error's text."""
    text = event.get("exception")
    if isinstance(text, str) and "DETAIL:" in text:
        event["exception"] = "\n".join(
            line for line in text.splitlines() if not line.lstrip().startswith("DETAIL:")
        )
    return event


def bind_ids(*, user_id: str | None = None, agent_id: str | None = None, **extra: Any) -> None:
    """Handlers call this so the request's log line names whose memory it touched."""
    structlog.contextvars.bind_contextvars(user_id=user_id, agent_id=agent_id, **extra)


def request_ids() -> Callable[[], str]:
    """Fresh request ids: a random prefix for this process (48 bits) and a counter."""
    prefix, counter = secrets.token_hex(6), itertools.count(1)
    return lambda: f"{prefix}-{next(counter):x}"


def request_log_middleware(node: str) -> Callable[[ASGIApp], ASGIApp]:
    """ASGI middleware: request id (from ``X-Request-Id`` or new), echoed back, one log line."""

    def middleware(app: ASGIApp) -> ASGIApp:
        log = structlog.get_logger("twin.request")
        fresh_id = request_ids()

        async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http":  # type: ignore[comparison-overlap]  # lifespan too
                await app(scope, receive, send)
                return
            request_id = _request_id(scope) or fresh_id()
            scope.setdefault("state", {})["request_id"] = request_id
            structlog.contextvars.clear_contextvars()
            structlog.contextvars.bind_contextvars(request_id=request_id, node=node)
            status = 500
            started = time.perf_counter()

            async def send_with_id(message: Message) -> None:
                nonlocal status
                if message["type"] == "http.response.start":
                    status = message["status"]
                    message["headers"] = [
                        *message.get("headers", []),
                        (REQUEST_ID_HEADER, request_id.encode()),
                    ]
                await send(message)

            try:
                await app(scope, receive, send_with_id)
            finally:
                route = scope.get("path_template") or scope.get("path", "")
                log.info(
                    "request",
                    **structlog.contextvars.get_contextvars(),
                    method=scope.get("method"),
                    route=route,
                    status=status,
                    duration_ms=round((time.perf_counter() - started) * 1000, 3),
                )
                structlog.contextvars.clear_contextvars()

        return wrapped

    return middleware


def _request_id(scope: Scope) -> str | None:
    """The caller's ``X-Request-Id`` when it is a usable one."""
    for name, value in scope.get("headers", []):
        if name == REQUEST_ID_HEADER:
            text = value.decode("latin-1").strip()
            if text and len(text) <= _MAX_REQUEST_ID and text.isprintable():
                return text
    return None
