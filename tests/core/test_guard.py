"""Slow and greedy clients (issue 31 §4), against the real uvicorn server ``twin up`` runs, on
real sockets: headers that never finish get a 408, a node's port past its connection cap a 503
with Retry-After, and neither touches another port or an honest client."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest

from services.core.host import bind, server
from services.core.settings import Settings
from tests.e2e.processes import free_port

# free ports, chosen once for the module: runs and workers side by side never share one
PORTS = (free_port(), free_port())
SLOW_PORT = free_port()
CAP = 3
GET = b"GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n"


async def hello(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Any ASGI app: the bounds act before an app sees the request."""
    if scope["type"] == "lifespan":
        await receive()  # startup
        await send({"type": "lifespan.startup.complete"})
        await receive()  # shutdown
        await send({"type": "lifespan.shutdown.complete"})
        return
    while (await receive()).get("more_body"):  # the whole body first, as a node reads it
        pass
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


@contextmanager
def running(ports: tuple[int, ...], header_timeout_s: float) -> Iterator[None]:
    settings = Settings(
        header_timeout_s=header_timeout_s,
        body_timeout_s=header_timeout_s,
        max_connections=CAP,
        retry_after_s=4,
    )
    sockets = [bind("127.0.0.1", port) for port in ports]
    uv = server(hello, settings, graceful_s=1)
    thread = threading.Thread(target=uv.run, kwargs={"sockets": sockets}, daemon=True)
    thread.start()
    try:
        while not uv.started:
            threading.Event().wait(0.02)
        yield
    finally:
        uv.should_exit = True
        thread.join(timeout=10)
        for sock in sockets:
            sock.close()


def connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def answer(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection or the response is whole."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
        if b"\r\n\r\n" in data and data.endswith((b"ok", b"}")):
            break
    return data


@pytest.fixture(scope="module")
def impatient() -> Iterator[None]:
    """A node that waits half a second for headers."""
    with running((SLOW_PORT,), 0.5):
        yield


@pytest.fixture(scope="module")
def node() -> Iterator[None]:
    """Two nodes' ports with the default header wait (held connections stay held)."""
    with running(PORTS, Settings().header_timeout_s):
        yield


def test_headers_that_never_finish_get_a_408_and_the_connection_closes(impatient: None) -> None:
    with connect(SLOW_PORT) as slow:
        slow.sendall(b"GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: ")
        got = answer(slow)
        assert got.startswith(b"HTTP/1.1 408"), got
        assert b"TWIN_HEADER_TIMEOUT_S" in got
        assert slow.recv(1) == b""  # closed


def test_a_body_that_never_finishes_gets_a_408(impatient: None) -> None:
    with connect(SLOW_PORT) as slow:
        slow.sendall(
            b"POST /v1/commit HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
            b'content-length: 100\r\n\r\n{"user_id": '
        )
        got = answer(slow)
        assert got.startswith(b"HTTP/1.1 408") and b"TWIN_BODY_TIMEOUT_S" in got, got


def test_a_connection_that_sends_nothing_is_closed_too(impatient: None) -> None:
    with connect(SLOW_PORT) as idle:
        assert answer(idle).startswith(b"HTTP/1.1 408")


def test_past_the_cap_a_port_answers_503_and_the_other_port_still_serves(node: None) -> None:
    with ExitStack() as held:
        for _ in range(CAP):  # half-sent requests holding every slot of the first port
            sock = held.enter_context(connect(PORTS[0]))
            sock.sendall(b"GET /healthz HTTP/1.1\r\n")
        with connect(PORTS[0]) as extra:
            refused = answer(extra)
        assert refused.startswith(b"HTTP/1.1 503"), refused
        assert b"retry-after: 4" in refused.lower() and b"TWIN_MAX_CONNECTIONS" in refused
        with connect(PORTS[1]) as other:
            other.sendall(GET)
            assert answer(other).startswith(b"HTTP/1.1 200")
    assert served_once_freed(PORTS[0])  # the slots came back once those clients left


def served_once_freed(port: int) -> bool:
    """The server notices closed connections a moment later: ask a few times."""
    for _ in range(50):
        with connect(port) as sock:
            sock.sendall(GET)
            if answer(sock).startswith(b"HTTP/1.1 200"):
                return True
        threading.Event().wait(0.1)
    return False
