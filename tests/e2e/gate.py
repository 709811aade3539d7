"""A port in front of a Twin Core node that the test opens and closes: ``hang`` accepts
connections and never answers (a hung node), ``forward`` passes them to the node (memory is
back). Connections made while hanging stay hung."""

from __future__ import annotations

import socket
import threading

from tests.e2e.n8n import N8N_PORTS
from tests.e2e.processes import free_port


class Gate:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.forwarding = False
        self.port = free_port(N8N_PORTS)
        self._server = socket.create_server(("127.0.0.1", self.port))
        self._held: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True, name="gate").start()

    def forward(self) -> None:
        self.forwarding = True

    def _accept(self) -> None:
        try:
            while True:
                conn = self._server.accept()[0]
                if not self.forwarding:
                    self._held.append(conn)
                    continue
                upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=10)
                upstream.settimeout(None)
                for a, b in ((conn, upstream), (upstream, conn)):
                    threading.Thread(target=_pipe, args=(a, b), daemon=True).start()
        except OSError:  # closed by stop()
            return

    def stop(self) -> None:
        self._server.close()
        for conn in self._held:
            conn.close()


def _pipe(source: socket.socket, sink: socket.socket) -> None:
    try:
        while chunk := source.recv(65536):
            sink.sendall(chunk)
    except OSError:
        pass
    finally:
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class Blackhole(Gate):
    """A port that accepts connections and never answers: a hung Twin Core node."""

    def __init__(self) -> None:
        super().__init__(target_port=0)  # never told to forward
