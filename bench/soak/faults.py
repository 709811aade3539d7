"""Faults injected on a schedule, into dependencies the soak owns — never the shared ones.

- ``redis-restart``: the soak's own ``redis-server`` (no persistence) is killed, stays down
  ``down_s``, and starts again empty: working memory is lost, nothing durable may be;
- ``pg-stall``: every byte between the server and Postgres is held back ``stall_delay_s`` for
  ``down_s`` (the server reaches Postgres through the soak's proxy): slow queries, timeouts;
- ``server-restart`` (opt-in: it resets the RSS series): a redeploy — SIGTERM to ``twin up``
  while traffic flows (it drains in-flight requests), then the same command again.

The servers are the reliability tests' throwaway helpers (``tests/reliability/servers.py``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.reliability.servers import DelayProxy, RedisServer

KINDS = ("redis-restart", "pg-stall")
ALL_KINDS = (*KINDS, "server-restart")


@dataclass
class Injected:
    t: float
    kind: str
    seconds: float


@dataclass
class Faults:
    redis: RedisServer
    proxy: DelayProxy
    restart: Callable[[], None] | None = None  # stops and starts the server, blocking
    down_s: float = 8.0
    stall_delay_s: float = 0.5
    log: list[Injected] = field(default_factory=list)

    async def inject(self, kind: str, t: float) -> None:
        if kind == "redis-restart":
            await asyncio.to_thread(self.redis.stop)
            await asyncio.sleep(self.down_s)
            await asyncio.to_thread(self.redis.start)
        elif kind == "pg-stall":
            self.proxy.delay_s = self.stall_delay_s
            await asyncio.sleep(self.down_s)
            self.proxy.delay_s = 0.0
        elif kind == "server-restart" and self.restart is not None:
            started = time.perf_counter()
            await asyncio.to_thread(self.restart)
            self.log.append(Injected(t, kind, time.perf_counter() - started))
            return
        else:
            raise ValueError(f"unknown fault {kind!r}; one of {ALL_KINDS}")
        self.log.append(Injected(t, kind, self.down_s))


async def schedule(
    faults: Faults, clock, every_s: float, seconds: float, kinds: tuple[str, ...] = KINDS
) -> None:
    """The first fault ``every_s`` after the start, then one every ``every_s``, cycling through
    ``kinds``; none in the last ``every_s / 2`` (the end measures recovery)."""
    n = 0
    while clock() + every_s + every_s / 2 < seconds:
        await asyncio.sleep(every_s)
        kind = kinds[n % len(kinds)]
        print(f"  [{clock():6.0f} s] fault: {kind}", flush=True)
        await faults.inject(kind, clock())
        n += 1
