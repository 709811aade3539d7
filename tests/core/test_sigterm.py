"""SIGTERM (a redeploy, ``docker stop``) ends ``twin up`` as cleanly as Ctrl-C, after a drain
(issue 31 item 4): ``/readyz`` answers 503 first while other requests are still served, a
request in flight when the signal came is answered, then the ports close, the embedded stores
stop, and the process exits 0 leaving no server behind. The real command in a subprocess.
"""

from __future__ import annotations

import json
import signal
import socket
import time

import httpx

from services.core.settings import NODE_PORTS
from tests.core.test_embedded import TwinUp, _gone, _wait_for, workdir  # noqa: F401
from tests.core.test_store_supervision import port_offset
from tests.reliability.helpers import commit_body

DRAIN_S = 4.0


def _get(up: TwinUp, node: str, path: str) -> httpx.Response | None:
    try:
        return httpx.get(up.url(node, path), timeout=2)
    except httpx.TransportError:
        return None


def _refused(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return True
    return False


def _half_sent_commit(up: TwinUp, user_id: str) -> tuple[socket.socket, bytes]:
    """A commit whose headers and first half of the body are sent: in flight."""
    body = json.dumps(commit_body(user_id)).encode()
    sock = socket.create_connection(("127.0.0.1", NODE_PORTS["memory-upserter"] + up.offset))
    head = (
        "POST /v1/commit HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\n\r\n"
    ).encode()
    half = len(body) // 2
    sock.sendall(head + body[:half])
    return sock, body[half:]


def _answer(sock: socket.socket) -> bytes:
    sock.settimeout(30)
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
        if b"\r\n\r\n" in received and received.endswith(b"}"):
            break
    return received


def test_sigterm_drains_then_stops_the_stores_and_exits_0(workdir, user_id) -> None:  # noqa: F811
    up = TwinUp(workdir, offset=port_offset(), TWIN_DRAIN_S=str(DRAIN_S))
    assert up.ready()["status"] == "ready"
    postgres, redis = up.server_pids()
    in_flight, rest = _half_sent_commit(up, user_id)
    time.sleep(0.5)  # the headers are read: the request is the node's
    up.proc.send_signal(signal.SIGTERM)

    _wait_for(
        lambda: (r := _get(up, "graph-hydrator", "/readyz")) is not None and r.status_code == 503,
        "/readyz 503 on SIGTERM",
        limit_s=DRAIN_S,
    )
    draining = _get(up, "graph-hydrator", "/readyz")
    served = _get(up, "graph-hydrator", "/healthz")
    port = NODE_PORTS["graph-hydrator"] + up.offset
    _wait_for(lambda: _refused(port), "the port closing after the drain", limit_s=DRAIN_S + 10)
    in_flight.sendall(rest)  # the port is closed now; the request it took is still answered
    answer = _answer(in_flight)
    in_flight.close()
    output, _ = up.proc.communicate(timeout=60)

    assert draining is not None and draining.headers["x-unready"] == "draining", output
    assert "retry-after" in draining.headers
    assert served is not None and served.status_code == 200  # still serving while draining
    assert answer.startswith(b"HTTP/1.1 200"), (answer[:300], output)
    assert up.proc.returncode == 0, output
    assert "Traceback" not in output
    assert "embedded_postgres_stopped" in output and "embedded_redis_stopped" in output
    assert _gone(postgres) and _gone(redis), output
