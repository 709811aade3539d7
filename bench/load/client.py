"""A small HTTP/1.1 keep-alive client over asyncio streams, and a closed-loop load runner.

Why not httpx: at concurrency 64 on 2 cores the load generator shares the CPU with the server,
and httpx spends ~0.3 ms of CPU per request; this client sends pre-encoded bytes and parses
only the status line and ``Content-Length`` (~20 µs), so the server gets the cores.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field


class HttpError(Exception):
    pass


def encode_request(method: str, path: str, port: int, body: bytes | None = None) -> bytes:
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return (head + "\r\n").encode() + (body or b"")


class Connection:
    """One keep-alive connection; ``request`` sends raw bytes and returns (status, body)."""

    def __init__(self, port: int, host: str = "127.0.0.1") -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.reconnects = 0

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def request(self, raw: bytes) -> tuple[int, bytes]:
        """Send one request, read its response. A reused connection the server closed while
        it sat idle (uvicorn's keep-alive timeout is 5 s: a chain's later steps can wait that
        long at concurrency 64) is reopened and the request sent again, once, as browsers
        and httpx do; any other failure raises."""
        reused = self.writer is not None
        if not reused:
            await self.open()
        try:
            return await self._exchange(raw)
        except (asyncio.IncompleteReadError, ConnectionResetError, BrokenPipeError) as exc:
            if not reused or (isinstance(exc, asyncio.IncompleteReadError) and exc.partial):
                raise
            await self.close()
            await self.open()
            self.reconnects += 1
            return await self._exchange(raw)

    async def _exchange(self, raw: bytes) -> tuple[int, bytes]:
        assert self.reader is not None and self.writer is not None
        self.writer.write(raw)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length = None
        chunked = False
        close = False
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            key = name.strip().lower()
            if key == b"content-length":
                length = int(value)
            elif key == b"transfer-encoding" and b"chunked" in value.lower():
                chunked = True
            elif key == b"connection" and b"close" in value.lower():
                close = True
        if chunked:
            body = bytearray()
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                body += chunk[:-2]
            data = bytes(body)
        else:
            data = await self.reader.readexactly(length or 0)
        if close:
            await self.close()
        return status, data

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except (ConnectionError, OSError):
                pass
        self.reader = self.writer = None


@dataclass
class Cell:
    """What one (target, concurrency) run measured."""

    name: str
    concurrency: int
    seconds: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0
    error_sample: str = ""
    server_cpu_s: float | None = None
    client_cpu_s: float | None = None
    parts_ms: dict[str, list[float]] = field(default_factory=dict)  # chain: per step
    # After the cell: how long the server kept working on what the cell left (a commit's
    # queued indexing), and the CPU that took (counted in the cell's CPU per request)
    tail_s: float = 0.0
    tail_cpu_s: float = 0.0

    @property
    def requests(self) -> int:
        return len(self.latencies_ms)

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


# One operation of a worker: returns None, or a dict of sub-timings (ms) for a chain.
Operation = Callable[[int, int], Awaitable[dict[str, float] | None]]


async def closed_loop(
    name: str,
    concurrency: int,
    seconds: float,
    warmup: float,
    make_worker: Callable[[int], Awaitable[Operation]],
    cpu: Callable[[], float] | None = None,
    client_cpu: Callable[[], float] | None = None,
) -> Cell:
    """``concurrency`` workers, each doing one operation after another for ``warmup`` (not
    recorded) then ``seconds``; latencies of operations that *started* in the window count.

    ``make_worker(i)`` sets up worker i (its connection) and returns its operation, called as
    ``op(worker, n)`` with the worker's running count. ``cpu()`` reads the server's CPU
    seconds at the window's edges."""
    cell = Cell(name, concurrency)
    ops = [await make_worker(i) for i in range(concurrency)]
    started = time.perf_counter()
    window = [started + warmup, started + warmup + seconds]
    marks: dict[str, float] = {}

    async def mark_window() -> None:
        await asyncio.sleep(max(0.0, window[0] - time.perf_counter()))
        marks["cpu0"] = cpu() if cpu else 0.0
        marks["ccpu0"] = client_cpu() if client_cpu else 0.0
        marks["t0"] = time.perf_counter()
        await asyncio.sleep(max(0.0, window[1] - time.perf_counter()))
        marks["cpu1"] = cpu() if cpu else 0.0
        marks["ccpu1"] = client_cpu() if client_cpu else 0.0
        marks["t1"] = time.perf_counter()

    async def worker(i: int) -> None:
        op = ops[i]
        n = 0
        while True:
            t0 = time.perf_counter()
            if t0 >= window[1]:
                return
            try:
                parts = await op(i, n)
            except (HttpError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
                cell.errors += 1
                cell.error_sample = cell.error_sample or f"{type(exc).__name__}: {exc}"[:300]
                await asyncio.sleep(0.01)
                n += 1
                continue
            t1 = time.perf_counter()
            if window[0] <= t0 < window[1]:
                cell.latencies_ms.append((t1 - t0) * 1000)
                for key, ms in (parts or {}).items():
                    cell.parts_ms.setdefault(key, []).append(ms)
            n += 1

    await asyncio.gather(mark_window(), *(worker(i) for i in range(concurrency)))
    cell.seconds = marks["t1"] - marks["t0"]
    if cpu:
        cell.server_cpu_s = marks["cpu1"] - marks["cpu0"]
    if client_cpu:
        cell.client_cpu_s = marks["ccpu1"] - marks["ccpu0"]
    return cell
