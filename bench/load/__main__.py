"""Node latency under load: each fast-brain route and the whole chain against their floors.

    uv run python -m bench.load            # 1,000 users, 10 s per cell, concurrency 1/16/64
    uv run python -m bench.load --quick    # 100 users, 3 s per cell
    uv run python -m bench.load --reuse    # the last seeded memory, restored as it was seeded

1. Seeds a memory (``bench/load/seed.py``: N users × 30 entities with aliases, 200 facts, 50
   episodes, 20 knowledge chunks, 10 todos, one unconsolidated session) into a fresh database
   ``twin_bench_load`` and a Qdrant Edge folder ``bench/out/load-qdrant``.
2. Times the floors that need the shard (one hybrid vector search, one MiniLM query
   embedding) in this process, at each concurrency, before ``twin up`` owns the shard.
3. Starts ``twin up`` (all six nodes, one process, Redis db 15, ports 11101-11106) and drives
   from this process, over loopback keep-alive connections, for a fixed time per cell and at
   each concurrency: ``GET /healthz`` (the framework floor), pulse, hydrate, retrieve,
   envelope, commit (memory-upserter, a new turn every request with a ~10-item plan), the
   whole chain (pulse → hydrate → retrieve → envelope, with the bodies n8n's fast-brain
   workflow sends), the same chain in one call (``/v1/turn``), and the raw store round trips
   (Redis GET of 2 KB, one ~30-row indexed Postgres query through an asyncpg pool, one
   single-row durable insert).
4. Writes its section of ``bench/RESULTS.md`` and ``bench/out/load.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sys
import time

from bench.common import (
    OUT,
    Stack,
    cached_embedder,
    drop_database,
    dsn_for,
    forget_seed,
    machine,
    ports_free,
    restore_seed,
    rss_mib,
    write_section,
)
from bench.load import seed as seeding
from bench.load.cells import prepare, run_route
from bench.load.client import Cell
from bench.load.floors import run_shard_floors, run_store_floors
from bench.load.report import p, report
from bench.load.samples import PER_WORKER, ROUTES, samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.load",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--quick", action="store_true", help="100 users, 3 s cells, 1 s warm-up")
    parser.add_argument("--users", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--warmup", type=float, default=None)
    parser.add_argument("--concurrency", default="1,16,64")
    parser.add_argument("--routes", default=",".join(ROUTES))
    parser.add_argument(
        "--samples",
        type=int,
        default=None,
        help=f"(user, message) samples; default: {PER_WORKER} per worker at the highest "
        "concurrency, at least 200, at most one per user",
    )
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="reuse the memory seeded by the last run with the same --users",
    )
    parser.add_argument("--database", default="twin_bench_load")
    parser.add_argument("--redis-db", type=int, default=15)
    parser.add_argument("--port-offset", type=int, default=3000)
    parser.add_argument(
        "--model-threads",
        type=int,
        default=None,
        help="TWIN_MODEL_THREADS for the server (default: the product's)",
    )
    parser.add_argument(
        "--no-write",
        action="store_true",
        help="leave bench/RESULTS.md alone (--quick never writes it)",
    )
    args = parser.parse_args(argv)
    args.users = args.users or (100 if args.quick else 1000)
    args.seconds = args.seconds or (3.0 if args.quick else 10.0)
    args.warmup = args.warmup if args.warmup is not None else (1.0 if args.quick else 2.0)
    levels = [int(c) for c in args.concurrency.split(",") if c]
    args.samples = args.samples or max(200, min(args.users, PER_WORKER * max(levels)))
    routes = [r for r in args.routes.split(",") if r]
    started = time.perf_counter()
    ports_free(args.port_offset)  # before seeding drops the database a stale server may hold
    info = machine()
    OUT.mkdir(parents=True, exist_ok=True)
    qdrant = OUT / "load-qdrant"
    manifest_path = OUT / "load-seed.json"

    seeded_now = True
    t0 = time.perf_counter()
    if args.reuse and manifest_path.exists() and qdrant.exists():
        manifest = seeding.Manifest.load(manifest_path)
        if (
            manifest.params.get("users") != args.users
            or manifest.params.get("database") != args.database
        ):
            raise SystemExit(
                f"--reuse: the seed in {manifest_path} is for "
                f"{manifest.params}, not {args.users} users in {args.database}"
            )
        seeded_now = False
        restored = restore_seed(args.database, qdrant)
        print(f"reusing the seeded memory, restored in {restored:.0f} s ({manifest.counts})")
    else:
        print(f"seeding {args.users} users ...", flush=True)
        forget_seed(args.database, qdrant)
        asyncio.run(drop_database(args.database))
        shutil.rmtree(qdrant, ignore_errors=True)
        qdrant.mkdir(parents=True)
        manifest_path.unlink(missing_ok=True)
        manifest = seeding.run(dsn_for(args.database), str(qdrant), args.users, cached_embedder())
        manifest.params["database"] = args.database
        manifest.save(manifest_path)
        restore_seed(args.database, qdrant)  # saves it, for the next --reuse
    seed_s = sum(manifest.seconds.values()) if not seeded_now else time.perf_counter() - t0
    print(f"memory ready: {manifest.counts}", flush=True)

    rng = random.Random(11)
    pool = samples(manifest, args.samples, rng)
    cells: dict[int, dict[str, Cell]] = {c: {} for c in levels}
    print("floors in this process (vector search, embed) ...", flush=True)
    for cell in asyncio.run(
        run_shard_floors(str(qdrant), manifest, pool, levels, args.seconds, args.warmup)
    ):
        cells[cell.concurrency][cell.name] = cell

    stack = Stack(
        args.database,
        args.redis_db,
        args.port_offset,
        qdrant_path=str(qdrant),
        fresh=False,
        env=({"TWIN_MODEL_THREADS": str(args.model_threads)} if args.model_threads else {}),
    )
    t0 = time.perf_counter()
    stack.start()
    print(f"twin up ready in {time.perf_counter() - t0:.1f} s (log {stack.log_path})", flush=True)
    rss: dict[str, float] = {
        "after start": rss_mib(stack.pid),
        "anonymous after start": rss_mib(stack.pid, "RssAnon"),
    }
    try:
        shape = asyncio.run(prepare(stack, pool))
        print(f"prepared {len(pool)} samples: {shape}", flush=True)
        for c in levels:
            for route in routes:
                cell = asyncio.run(run_route(stack, route, c, pool, args.seconds, args.warmup))
                cells[c][route] = cell
                print(
                    f"  c={c:<3} {route:9} {cell.rate:7.0f}/s  p50 {p(cell, 50):7.2f}  "
                    f"p95 {p(cell, 95):7.2f}  p99 {p(cell, 99):7.2f} ms  errors "
                    f"{cell.errors} {cell.error_sample[:120]}",
                    flush=True,
                )
            for cell in asyncio.run(
                run_store_floors(stack, manifest, c, args.seconds, args.warmup)
            ):
                cells[c][cell.name] = cell
                print(
                    f"  c={c:<3} {cell.name:9} {cell.rate:7.0f}/s  p50 {p(cell, 50):7.3f}  "
                    f"p95 {p(cell, 95):7.3f} ms",
                    flush=True,
                )
        rss["after the run"] = rss_mib(stack.pid)
        rss["anonymous after the run"] = rss_mib(stack.pid, "RssAnon")
    finally:
        stack.stop()
    wall = time.perf_counter() - started
    body = report(args, info, manifest, seed_s, shape, cells, rss, wall, seeded_now)
    print("\n" + body)
    (OUT / "load.json").write_text(
        json.dumps(
            {
                "machine": info,
                "counts": manifest.counts,
                "seed_seconds": manifest.seconds,
                "shape": shape,
                "rss": rss,
                "cells": {
                    str(c): {
                        name: {
                            "rate": cell.rate,
                            "p50": p(cell, 50),
                            "p95": p(cell, 95),
                            "p99": p(cell, 99),
                            "errors": cell.errors,
                            "server_cpu_s": cell.server_cpu_s,
                            "tail_s": cell.tail_s,
                            "tail_cpu_s": cell.tail_cpu_s,
                            "client_cpu_s": cell.client_cpu_s,
                            "requests": cell.requests,
                        }
                        for name, cell in at.items()
                    }
                    for c, at in cells.items()
                },
            },
            indent=1,
        )
    )
    if not args.no_write and not args.quick and not getattr(args, "selected_subset", False):
        write_section("load", body)
        print("\nwrote bench/RESULTS.md", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
