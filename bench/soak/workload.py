"""The soak's traffic: fast-brain turns at a steady rate, plus the slow brain and its readers.

A turn is what n8n's fast-brain workflow does for one Telegram message
(:mod:`bench.soak.flow`): pulse → hydrate → retrieve → envelope → commit, each step retried
like n8n's "Retry on fail" (3 tries, 1 s apart: n8n's defaults) — so the commit of a turn may
be sent more than once, and must be written once. A turn is *acknowledged* when its commit
answered 200. Beside the turns, on
their own clocks: the slow brain's consolidation sweep, day-log reads and the reindex sweep.

Every request is recorded (start time, route, outcome, milliseconds); outcomes are ``ok`` or an
error kind (``503``, ``409``, ``ConnectionRefusedError``…).
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bench.common import Stack
from bench.load.client import Connection, encode_request
from bench.load.samples import (
    AGENT,
    MESSAGES,
    Sample,
    decode_body,
    encode_body,
)

NAMES = ("Marta Silva", "Joao Costa", "Ana Lima", "Rui Pereira", "Ines Sousa")
ROUTES = {
    "pulse": ("pulse-decay", "/v1/pulse"),
    "hydrate": ("graph-hydrator", "/v1/hydrate"),
    "retrieve": ("rag-gate", "/v1/retrieve"),
    "envelope": ("envelope-validator", "/v1/envelope"),
    "commit": ("memory-upserter", "/v1/commit"),
    "reindex": ("memory-upserter", "/v1/reindex"),
    "consolidate": ("reflection-writer", "/v1/consolidate"),
    "day-log": ("reflection-writer", "/v1/day-log"),
}
TRIES, WAIT_S = 3, 1.0  # n8n's "Retry on fail" defaults: Max Tries 3, Wait Between Tries 1 s


@dataclass
class Record:
    t: float  # seconds since the soak started
    route: str
    outcome: str  # "ok" or the error kind
    ms: float


@dataclass
class Ledger:
    """Everything the soak saw: requests, turns sent and acknowledged, commit warnings."""

    started: float = field(default_factory=time.perf_counter)
    records: list[Record] = field(default_factory=list)
    turns_ms: list[tuple[float, float]] = field(default_factory=list)  # (t, ms) of whole turns
    sent: list[tuple[str, str, str]] = field(default_factory=list)  # (user, chat, turn_id)
    acked: list[tuple[str, str, str]] = field(default_factory=list)
    dropped: Counter = field(default_factory=Counter)  # turns lost, by step
    warnings: Counter = field(default_factory=Counter)  # commit warning codes
    shed: int = 0  # over the in-flight cap
    begun: list[tuple[str, str, str]] = field(default_factory=list)  # every turn started
    degraded: int = 0  # a memory read failed: the flow replied without memory, still committed
    later: int = 0  # the commit failed its retries and went to commit-later
    lost: int = 0  # commit-later gave up too

    def now(self) -> float:
        return time.perf_counter() - self.started


class Pools:
    """Keep-alive connections per node port, shared by the soak's tasks."""

    def __init__(self, stack: Stack) -> None:
        self._ports = {node: int(stack.url(node).rsplit(":", 1)[1]) for node, _ in ROUTES.values()}
        self._idle: dict[int, list[Connection]] = {p: [] for p in self._ports.values()}

    async def send(
        self, route: str, body: dict[str, Any] | None, query: str = ""
    ) -> tuple[int, bytes]:
        node, path = ROUTES[route]
        port = self._ports[node]
        conn = self._idle[port].pop() if self._idle[port] else Connection(port)
        raw = encode_body(body) if body is not None else None
        request = encode_request("POST" if raw is not None else "GET", path + query, port, raw)
        try:
            status, data = await conn.request(request)
        except BaseException:
            await conn.close()
            raise
        self._idle[port].append(conn)
        return status, data

    async def close(self) -> None:
        for conns in self._idle.values():
            for conn in conns:
                await conn.close()


async def call(
    pools: Pools, ledger: Ledger, route: str, body: dict[str, Any] | None, query: str = ""
) -> dict[str, Any] | None:
    """One step with n8n's retry on fail; the decoded answer, or None when every try failed."""
    for attempt in range(TRIES):
        t0 = time.perf_counter()
        try:
            status, data = await asyncio.wait_for(pools.send(route, body, query), 30)
            outcome = "ok" if status == 200 else str(status)
        except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as exc:
            status, data, outcome = 0, b"", type(exc).__name__
        ledger.records.append(
            Record(t0 - ledger.started, route, outcome, (time.perf_counter() - t0) * 1000)
        )
        if status == 200:
            return decode_body(data)
        if status and status < 500 and status != 429:
            return None  # the caller's mistake (a 409, a 422): retrying will not help
        if attempt < TRIES - 1:
            await asyncio.sleep(WAIT_S)
    return None


class Turns:
    """``users`` people, one chat each, sending turns; turn ids count per user."""

    def __init__(self, users: int, seed: int = 5) -> None:
        self.rng = random.Random(seed)
        self.users = [f"soak-{i:04d}" for i in range(users)]
        self.counts: Counter = Counter()
        self.turn_ids = itertools.count(1)

    def next(self) -> tuple[Sample, str, int]:
        user = self.rng.choice(self.users)
        self.counts[user] += 1
        n = self.counts[user]
        names = self.rng.sample(NAMES, 3)
        text = self.rng.choice(MESSAGES).format(n=names[0], m=names[1], a=names[2].split()[0])
        return Sample(user, f"soak:{user}", text, tuple(names)), f"{user}-t{n}", n


async def steady_turns(
    pools: Pools,
    ledger: Ledger,
    turns: Turns,
    rate: float,
    seconds: float,
    max_in_flight: int,
    turn: Callable[..., Awaitable[None]],
) -> None:
    """Open loop: a turn starts every 1/rate s whatever the server's speed (as Telegram
    traffic does); past ``max_in_flight`` unfinished turns, new ones are shed and counted."""
    in_flight: set[asyncio.Task] = set()
    interval = 1.0 / rate
    next_at = time.perf_counter()
    end = ledger.started + seconds
    while next_at < end:
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        next_at += interval
        if len(in_flight) >= max_in_flight:
            ledger.shed += 1
            continue
        task = asyncio.create_task(turn(pools, ledger, *turns.next()))
        in_flight.add(task)
        task.add_done_callback(in_flight.discard)
    if in_flight:
        await asyncio.wait(in_flight)


async def every(period: float, seconds: float, ledger: Ledger, job) -> None:
    """Run ``job()`` every ``period`` seconds until ``seconds`` after the start."""
    while ledger.now() + period < seconds:
        await asyncio.sleep(period)
        await job()


def slow_brain_jobs(pools: Pools, ledger: Ledger, turns: Turns) -> dict[str, Any]:
    """The scheduled callers: consolidation sweep, a day-log read, the reindex sweep."""

    async def consolidate() -> None:
        await call(pools, ledger, "consolidate", {"inactivity_minutes": 0.5, "max_sessions": 20})

    async def day_log() -> None:
        user = turns.rng.choice(turns.users)
        day = datetime.now(UTC).date().isoformat()
        await call(pools, ledger, "day-log", None, f"?user_id={user}&agent_id={AGENT}&day={day}")

    async def reindex() -> None:
        await call(pools, ledger, "reindex", {"limit": 500})

    return {"consolidate": consolidate, "day-log": day_log, "reindex": reindex}
