"""Soak: a mixed workload at steady load against a real ``twin up``, with faults on a schedule.

    uv run python -m bench.soak                  # 10 minutes, 4 turns/s (20 fast-brain req/s)
    uv run python -m bench.soak --minutes 2      # shorter
    uv run python -m bench.soak --quick          # 1 minute, prints only

1. Starts its own ``redis-server`` (no persistence) and a delaying proxy in front of Postgres,
   then ``twin up`` (all six nodes, one process, fresh database ``twin_bench_soak``, its own
   Qdrant Edge folder, ports 12101–12106) with ``REDIS_URL`` and ``DATABASE_URL`` pointing at
   them (:mod:`bench.soak.faults`). No model endpoint: the offline engines and MiniLM.
2. Drives, for ``--minutes``: fast-brain turns at ``--rate`` turns/s in an open loop (pulse →
   hydrate → retrieve → envelope → commit, n8n's retry on fail), the consolidation sweep every
   15 s, a day-log read every 10 s and the reindex sweep every 60 s
   (:mod:`bench.soak.workload`); samples the server's RSS every 10 s; injects a fault every
   ``--fault-every`` s, alternating a Redis restart and a Postgres stall.
3. Afterwards: one reindex and one consolidation sweep, then the consistency check — every
   acknowledged turn is in the message log exactly once (its two messages), no turn that was
   sent is there twice, no user message, fact or pending todo written twice, no person in two
   cities at once, no episode range twice, no session checkpoint past its last message; turns
   started against turns persisted (the flow replies degraded and commits later, as shipped:
   :mod:`bench.soak.flow`), and the facts the grounded plans wrote.
4. Reports requests, errors by kind, p50/p99 per minute, RSS over time; writes the ``soak``
   section of ``bench/RESULTS.md`` and ``bench/out/soak.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from dataclasses import asdict, dataclass
from urllib.parse import urlsplit

from bench.common import OUT, Stack, dsn_for, machine, rss_mib, write_section
from bench.soak.consistency import check
from bench.soak.faults import ALL_KINDS, KINDS, Faults, schedule
from bench.soak.flow import turn
from bench.soak.report import render
from bench.soak.workload import Ledger, Pools, Turns, every, slow_brain_jobs, steady_turns
from tests.reliability.servers import DelayProxy, RedisServer

DATABASE = "twin_bench_soak"
PORT_OFFSET = 4000  # ports 12101–12106


@dataclass
class SoakStack(Stack):
    """A ``twin up`` whose Redis is the soak's own (so ``prepare`` flushes only that one),
    and which can be restarted as a redeploy would: same database, index folder and Redis."""

    own_redis: str = ""

    @property
    def redis_url(self) -> str:
        return self.own_redis

    def prepare(self) -> None:
        if self.fresh:
            super().prepare()

    def restart(self) -> None:
        self.stop()  # SIGTERM: in-flight requests drain
        self.fresh = False
        self.start()


async def soak(stack: Stack, faults: Faults, args) -> tuple[Ledger, list[tuple[float, float]]]:
    seconds = args.minutes * 60
    ledger = Ledger()
    pools = Pools(stack)
    turns = Turns(args.users)
    rss: list[tuple[float, float]] = [(0.0, rss_mib(stack.pid))]
    jobs = slow_brain_jobs(pools, ledger, turns)

    async def sample_rss() -> None:
        try:
            rss.append((ledger.now(), rss_mib(stack.pid)))
        except OSError:  # between a server-restart's stop and start
            pass

    async def progress() -> None:
        done = [r for r in ledger.records if r.t > ledger.now() - 60]
        errors = sum(r.outcome != "ok" for r in done)
        print(
            f"  [{ledger.now():6.0f} s] {len(done)} requests in the last minute, {errors} "
            f"errors; acked turns {len(ledger.acked)}; RSS {rss[-1][1]:.0f} MiB",
            flush=True,
        )

    try:
        await asyncio.gather(
            steady_turns(pools, ledger, turns, args.rate, seconds, args.max_in_flight, turn),
            every(15, seconds, ledger, jobs["consolidate"]),
            every(10, seconds, ledger, jobs["day-log"]),
            every(60, seconds, ledger, jobs["reindex"]),
            every(10, seconds, ledger, sample_rss),
            every(60, seconds, ledger, progress),
            schedule(faults, ledger.now, args.fault_every, seconds, tuple(args.faults)),
        )
        rss.append((ledger.now(), rss_mib(stack.pid)))
        await jobs["reindex"]()  # the sweeps repair what the faults left unindexed
        await jobs["consolidate"]()
    finally:
        await pools.close()
    return ledger, rss


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.soak",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument(
        "--quick", action="store_true", help="1 minute, faults every 20 s, RESULTS.md untouched"
    )
    parser.add_argument("--rate", type=float, default=4.0, help="turns per second")
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--fault-every", type=float, default=75.0)
    parser.add_argument("--fault-down", type=float, default=8.0, help="seconds each fault lasts")
    parser.add_argument(
        "--faults",
        default=",".join(KINDS),
        help=f"fault kinds, in turn (of {', '.join(ALL_KINDS)})",
    )
    parser.add_argument("--max-in-flight", type=int, default=64)
    parser.add_argument("--database", default=DATABASE, help="dropped and created afresh")
    parser.add_argument("--port-offset", type=int, default=PORT_OFFSET)
    parser.add_argument("--no-write", action="store_true", help="leave bench/RESULTS.md alone")
    args = parser.parse_args(argv)
    args.faults = [k for k in args.faults.split(",") if k]
    if unknown := set(args.faults) - set(ALL_KINDS):
        parser.error(f"unknown fault kinds {sorted(unknown)}")
    if args.quick:
        args.minutes, args.fault_every, args.no_write = 1.0, 20.0, True
    info = machine()
    OUT.mkdir(parents=True, exist_ok=True)
    redis = RedisServer()
    redis.start()
    direct = urlsplit(dsn_for(args.database))
    proxy = DelayProxy(direct.port or 5432)
    proxy.start()
    login = direct.netloc.rpartition("@")[0]
    through_proxy = direct._replace(
        netloc=(login + "@" if login else "") + f"127.0.0.1:{proxy.port}"
    ).geturl()
    stack = SoakStack(
        args.database,
        0,
        args.port_offset,
        qdrant_path=str(OUT / "soak-qdrant"),
        own_redis=redis.url,
        env={"DATABASE_URL": through_proxy},
    )
    faults = Faults(redis, proxy, restart=stack.restart, down_s=args.fault_down)
    try:
        t0 = time.perf_counter()
        stack.start()
        print(
            f"twin up ready in {time.perf_counter() - t0:.1f} s (log {stack.log_path}); "
            f"soaking {args.minutes:g} min at {args.rate:g} turns/s",
            flush=True,
        )
        ledger, rss = asyncio.run(soak(stack, faults, args))
        consistency = asyncio.run(check(stack.dsn, ledger))
        server_alive = stack.process is not None and stack.process.poll() is None
    finally:
        stack.stop()
        proxy.stop()
        redis.stop()
    body = render(args, info, ledger, rss, faults.log, consistency, server_alive)
    print("\n" + body)
    (OUT / "soak.json").write_text(
        json.dumps(
            {
                "machine": info,
                "args": vars(args),
                "consistency": consistency,
                "faults": [asdict(f) for f in faults.log],
                "rss": rss,
                "records": len(ledger.records),
                "acked": len(ledger.acked),
                "dropped": dict(ledger.dropped),
                "warnings": dict(ledger.warnings),
            },
            indent=1,
        )
    )
    if not args.no_write:
        write_section("soak", body)
        print("\nwrote bench/RESULTS.md", flush=True)
    return 0 if consistency["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
