"""One cell of bench.load: a route driven in a closed loop at one concurrency, with the
server's CPU, and the chain run once per sample to build every route's body."""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from typing import Any

from bench.common import (
    Stack,
    cpu_seconds,
)
from bench.load.client import Cell, Connection, HttpError, closed_loop, encode_request
from bench.load.samples import (
    NODE_OF,
    PATH_OF,
    Sample,
    commit_body,
    decode_body,
    encode_body,
    envelope_body,
    hydrate_body,
    pick,
    pulse_body,
    retrieve_body,
    turn_body,
    unique,
)


async def call(
    conn: Connection, port: int, route: str, body: dict[str, Any] | bytes
) -> dict[str, Any]:
    raw = body if isinstance(body, bytes) else encode_body(body)
    status, data = await conn.request(encode_request("POST", PATH_OF[route], port, raw))
    if status != 200:
        raise HttpError(f"{route}: HTTP {status}: {data[:300]!r}")
    return decode_body(data)


async def prepare(stack: Stack, pool: list[Sample]) -> dict[str, Any]:
    """Run the chain once per sample (as n8n would) and keep each route's body; returns what
    the answers looked like (gate open share, items per slot)."""
    ports = {r: _port(stack, r) for r in PATH_OF}
    conns = {r: Connection(p) for r, p in ports.items()}
    shape: dict[str, list[float]] = {
        "gate_open": [],
        "edges": [],
        "episodes": [],
        "facts": [],
        "knowledge": [],
        "envelope_tokens": [],
    }
    try:
        for s in pool:
            pulse = await call(conns["pulse"], ports["pulse"], "pulse", pulse_body(s))
            hb = hydrate_body(s, pulse)
            hydrate = await call(conns["hydrate"], ports["hydrate"], "hydrate", hb)
            rb = retrieve_body(s, pulse, hydrate)
            retrieve = await call(conns["retrieve"], ports["retrieve"], "retrieve", rb)
            eb = envelope_body(s, pulse, hydrate, retrieve)
            envelope = await call(conns["envelope"], ports["envelope"], "envelope", eb)
            s.bodies = {
                "pulse": encode_body(pulse_body(s)),
                "hydrate": encode_body(hb),
                "retrieve": encode_body(rb),
                "envelope": encode_body(eb),
            }
            shape["gate_open"].append(float(retrieve["gate"]["open"]))
            shape["edges"].append(len(hydrate["GRAPH"].get("edges", [])))
            shape["episodes"].append(len(retrieve["EPISODE"].get("hits", [])))
            shape["facts"].append(len(retrieve["FACTS"].get("relevant_facts", [])))
            shape["knowledge"].append(len(retrieve["KNOWLEDGE"].get("hits", [])))
            text = " ".join(m.get("content", "") for m in envelope.get("messages", []))
            shape["envelope_tokens"].append(len(text.split()))
            for stage, ms in retrieve.get("timings", {}).items():
                shape.setdefault(f"retrieve_{stage}_ms", []).append(ms)
    finally:
        for c in conns.values():
            await c.close()
    return {k: statistics.fmean(v) if v else 0.0 for k, v in shape.items()}


def _port(stack: Stack, route: str) -> int:
    return int(stack.url(NODE_OF[route]).rsplit(":", 1)[1])


async def run_route(
    stack: Stack, route: str, concurrency: int, pool: list[Sample], seconds: float, warmup: float
) -> Cell:
    pid = stack.pid
    run = f"{time.time_ns():x}"

    async def make_worker(i: int):
        if route == "chain":
            conns = {r: Connection(_port(stack, r)) for r in PATH_OF}
            ports = {r: _port(stack, r) for r in PATH_OF}

            async def chain(worker: int, n: int) -> dict[str, float]:
                base = pick(pool, worker, n, concurrency)
                s = Sample(
                    base.user_id, base.chat_id, unique(base.message, worker, n, run), base.entities
                )
                t0 = time.perf_counter()
                pulse = await call(conns["pulse"], ports["pulse"], "pulse", pulse_body(s))
                t1 = time.perf_counter()
                hydrate = await call(
                    conns["hydrate"], ports["hydrate"], "hydrate", hydrate_body(s, pulse)
                )
                t2 = time.perf_counter()
                retrieve = await call(
                    conns["retrieve"],
                    ports["retrieve"],
                    "retrieve",
                    retrieve_body(s, pulse, hydrate),
                )
                t3 = time.perf_counter()
                await call(
                    conns["envelope"],
                    ports["envelope"],
                    "envelope",
                    envelope_body(s, pulse, hydrate, retrieve),
                )
                t4 = time.perf_counter()
                return {
                    "pulse": (t1 - t0) * 1000,
                    "hydrate": (t2 - t1) * 1000,
                    "retrieve": (t3 - t2) * 1000,
                    "envelope": (t4 - t3) * 1000,
                }

            return chain
        port = _port(stack, route)
        conn = Connection(port)
        if route == "healthz":
            raw = encode_request("GET", "/healthz", port)

            async def health(worker: int, n: int) -> None:
                status, data = await conn.request(raw)
                if status != 200:
                    raise HttpError(f"healthz: HTTP {status}")

            return health
        if route == "commit":  # every request a new turn (run, worker, n): no idempotent replays

            async def commit(worker: int, n: int) -> None:
                base = pick(pool, worker, n, concurrency)
                s = Sample(
                    base.user_id, base.chat_id, unique(base.message, worker, n, run), base.entities
                )
                body = commit_body(s, f"b{run}-{worker}-{n}", n)
                raw = encode_request("POST", "/v1/commit", port, encode_body(body))
                status, data = await conn.request(raw)
                if status != 200:
                    raise HttpError(f"commit: HTTP {status}: {data[:300]!r}")

            return commit
        if route == "turn":  # the chain in one call: every request a new message, like chain's

            async def turn(worker: int, n: int) -> None:
                base = pick(pool, worker, n, concurrency)
                s = Sample(
                    base.user_id, base.chat_id, unique(base.message, worker, n, run), base.entities
                )
                raw = encode_request("POST", "/v1/turn", port, encode_body(turn_body(s)))
                status, data = await conn.request(raw)
                if status != 200:
                    raise HttpError(f"turn: HTTP {status}: {data[:300]!r}")

            return turn
        bodies = [decode_body(s.bodies[route]) for s in pool]
        field_name = "user_message" if route == "envelope" else "message"

        async def post(worker: int, n: int) -> None:
            body = dict(pick(bodies, worker, n, concurrency))
            body[field_name] = unique(body[field_name], worker, n, run)
            raw = encode_request("POST", PATH_OF[route], port, encode_body(body))
            status, data = await conn.request(raw)
            if status != 200:
                raise HttpError(f"{route}: HTTP {status}: {data[:300]!r}")

        return post

    await settle(pid)
    cell = await closed_loop(
        route,
        concurrency,
        seconds,
        warmup,
        make_worker,
        cpu=lambda: cpu_seconds(pid),
        client_cpu=lambda: cpu_seconds(os.getpid()),
    )
    # What the cell left behind (a commit's queued indexing) is the cell's work: its CPU counts
    # in the cell's CPU per request, and how long the server took to finish it is reported.
    before = cpu_seconds(pid)
    cell.tail_s = await settle(pid)
    cell.tail_cpu_s = cpu_seconds(pid) - before
    if cell.server_cpu_s is not None:
        cell.server_cpu_s += cell.tail_cpu_s
    return cell


async def settle(pid: int, *, busy: float = 0.05, most: float = 120.0) -> float:
    """Wait until the server uses under ``busy`` of a core over half a second (its background
    work from the last cell done), at most ``most`` s; returns the seconds waited."""
    started = time.perf_counter()
    while time.perf_counter() - started < most:
        before = cpu_seconds(pid)
        await asyncio.sleep(0.5)
        if cpu_seconds(pid) - before < busy * 0.5:
            break
    return time.perf_counter() - started
