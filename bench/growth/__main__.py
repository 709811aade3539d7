"""How latency and memory grow with one user's size and with the number of users.

    uv run --with matplotlib python -m bench.growth            # every size and user step
    uv run --with matplotlib python -m bench.growth --quick

(``--with matplotlib`` only for the plot: without it the table is still written.)

A. One user's size: a fresh memory per step with 20 ordinary users (200 facts, 50 episodes
   each) and one big user of 100 → 10,000 facts and 10 → 5,000 episodes; ``twin up`` is
   started on it and hydrate, retrieve and the whole chain are timed at concurrency 1 for the
   big user.
B. Number of users: one memory grown step by step (10 → 100 → 1,000 ordinary users), ``twin
   up`` restarted on it at each step, the same three timed for random users.

Seeding as in ``bench/load`` (rows by COPY, vectors into the Edge shard before ``twin up``
opens it). Writes its section of ``bench/RESULTS.md``, ``bench/growth.png`` and
``bench/out/growth.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sys
import time
from pathlib import Path

from bench.common import (
    OUT,
    ROOT,
    Stack,
    cached_embedder,
    drop_database,
    dsn_for,
    machine,
    machine_line,
    percentile,
    rss_mib,
    table,
    write_section,
)
from bench.load import seed as seeding
from bench.load.cells import prepare, run_route
from bench.load.samples import samples

ROUTES = ("hydrate", "retrieve", "chain")
USER_STEPS = (10, 100, 1000)
SIZE_STEPS = ((100, 10), (1000, 100), (3000, 1000), (10000, 5000))
PLOT = ROOT / "bench" / "growth.png"


def du_mib(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 2**20


async def db_mib(dsn: str) -> float:
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        return await conn.fetchval("SELECT pg_database_size(current_database())") / 2**20
    finally:
        await conn.close()


def measure(stack: Stack, manifest: seeding.Manifest, args, qdrant: Path) -> dict:
    pool = samples(manifest, args.samples, random.Random(3))
    t0 = time.perf_counter()
    stack.start()
    started_s = time.perf_counter() - t0
    row: dict = {"start_s": started_s}
    try:
        shape = asyncio.run(prepare(stack, pool))
        row["shape"] = shape
        for route in ROUTES:
            cell = asyncio.run(run_route(stack, route, 1, pool, args.seconds, args.warmup))
            row[route] = {
                "p50": percentile(cell.latencies_ms, 50),
                "p95": percentile(cell.latencies_ms, 95),
                "n": cell.requests,
                "errors": cell.errors,
                "cpu_ms": (cell.server_cpu_s or 0) / max(1, cell.requests) * 1000,
            }
        row["rss_mib"] = rss_mib(stack.pid)
    finally:
        stack.stop()
    row["db_mib"] = asyncio.run(db_mib(stack.dsn))
    row["qdrant_mib"] = du_mib(qdrant)
    return row


def fresh(database: str, qdrant: Path) -> None:
    asyncio.run(drop_database(database))
    shutil.rmtree(qdrant, ignore_errors=True)
    qdrant.mkdir(parents=True)


def by_size(args, embed) -> list[dict]:
    qdrant = OUT / "growth-qdrant"
    rows = []
    for facts, episodes in args.size_steps:
        fresh(args.database, qdrant)
        dsn = dsn_for(args.database)
        t0 = time.perf_counter()
        seeding.run(dsn, str(qdrant), args.background, embed, prefix="bg")
        big = seeding.run(dsn, str(qdrant), 1, embed, prefix="big", facts=facts, episodes=episodes)
        seed_s = time.perf_counter() - t0
        stack = Stack(
            args.database, args.redis_db, args.port_offset, qdrant_path=str(qdrant), fresh=False
        )
        row = {
            "facts": facts,
            "episodes": episodes,
            "seed_s": seed_s,
            **measure(stack, big, args, qdrant),
        }
        rows.append(row)
        print(f"  {facts:>6} facts {episodes:>5} episodes: " + _line(row), flush=True)
    return rows


def by_users(args, embed) -> list[dict]:
    qdrant = OUT / "growth-qdrant"
    fresh(args.database, qdrant)
    dsn = dsn_for(args.database)
    rows = []
    have = 0
    manifest = seeding.Manifest()
    for target in args.user_steps:
        t0 = time.perf_counter()
        added = seeding.run(dsn, str(qdrant), target - have, embed, first=have)
        manifest.users += added.users
        have = target
        seed_s = time.perf_counter() - t0
        stack = Stack(
            args.database, args.redis_db, args.port_offset, qdrant_path=str(qdrant), fresh=False
        )
        row = {"users": target, "seed_s": seed_s, **measure(stack, manifest, args, qdrant)}
        rows.append(row)
        print(f"  {target:>6} users: " + _line(row), flush=True)
    return rows


def _line(row: dict) -> str:
    return (
        "  ".join(f"{r} p50 {row[r]['p50']:.1f} p95 {row[r]['p95']:.1f} ms" for r in ROUTES)
        + f"  RSS {row['rss_mib']:.0f} MiB"
    )


def _cells(row: dict) -> list[str]:
    stages = row.get("shape", {})
    return [
        *(f"{row[r]['p50']:.1f} / {row[r]['p95']:.1f}" for r in ROUTES),
        f"{stages.get('retrieve_vectors_ms', float('nan')):.1f}",
        f"{stages.get('retrieve_sql_rows_ms', float('nan')):.1f}",
        f"{row['rss_mib']:.0f}",
        f"{row['db_mib']:.0f}",
        f"{row['qdrant_mib']:.0f}",
        f"{row['seed_s']:.0f}",
    ]


HEAD = [
    "hydrate p50 / p95 ms",
    "retrieve p50 / p95 ms",
    "chain p50 / p95 ms",
    "retrieve: vectors ms",
    "retrieve: sql_rows ms",
    "server RSS MiB",
    "Postgres MiB",
    "Qdrant MiB",
    "seed s",
]


def plot(size_rows: list[dict], user_rows: list[dict]) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot (run with `uv run --with matplotlib`)")
        return False
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, rows, key, label in (
        (axes[0], size_rows, "facts", "facts of one user (episodes grow alongside: 10 → 5,000)"),
        (axes[1], user_rows, "users", "users (200 facts, 50 episodes each)"),
    ):
        xs = [r[key] for r in rows]
        for route, style, color in zip(
            ROUTES, ("o-", "s-", "^-"), ("tab:blue", "tab:green", "tab:purple"), strict=True
        ):
            ax.plot(xs, [r[route]["p95"] for r in rows], style, color=color, label=f"{route} p95")
            ax.plot(
                xs,
                [r[route]["p50"] for r in rows],
                style[0] + ":",
                color=color,
                alpha=0.5,
                label=f"{route} p50",
            )
        ax.set_xscale("log")
        ax.set_xlabel(label)
        ax.set_ylabel("ms at concurrency 1")
        ax.grid(True, which="both", alpha=0.3)
        ax.set_ylim(bottom=0)
    axes[0].legend(fontsize=8)
    fig.suptitle("Twin Core: latency against memory size (twin up, loopback, 2 cores)")
    fig.tight_layout()
    fig.savefig(PLOT, dpi=110)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.growth",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--samples", type=int, default=64)
    parser.add_argument("--background", type=int, default=20)
    parser.add_argument("--database", default="twin_bench_growth")
    parser.add_argument("--redis-db", type=int, default=15)
    parser.add_argument("--port-offset", type=int, default=3000)
    parser.add_argument(
        "--no-write",
        action="store_true",
        help="leave bench/RESULTS.md alone (--quick never writes it)",
    )
    args = parser.parse_args(argv)
    args.seconds = args.seconds or (3.0 if args.quick else 6.0)
    args.size_steps = SIZE_STEPS[:3] if args.quick else SIZE_STEPS
    args.user_steps = (10, 100, 300) if args.quick else USER_STEPS
    started = time.perf_counter()
    info = machine()
    embed = cached_embedder()
    print("A. one user's size", flush=True)
    size_rows = by_size(args, embed)
    print("B. number of users", flush=True)
    user_rows = by_users(args, embed)
    plotted = plot(size_rows, user_rows)
    wall = time.perf_counter() - started
    command = "uv run --with matplotlib python -m bench.growth" + (" --quick" if args.quick else "")
    body = "\n".join(
        [
            "## Growth (`bench/growth`)",
            "",
            f"`{command}` — {machine_line(info)} · whole run {wall / 60:.1f} min.",
            "",
            f"Concurrency 1, {args.seconds:g} s per route after {args.warmup:g} s warm-up, "
            f"{args.samples} (user, message) samples; `twin up` restarted on each step's memory "
            "(seeded as in bench/load). *retrieve: vectors / sql_rows* are the medians of "
            "rag-gate's own stage timings.",
            "",
            f"A. One user's size (plus {args.background} ordinary users):",
            "",
            table(
                ["facts", "episodes", *HEAD],
                [[f"{r['facts']:,}", f"{r['episodes']:,}", *_cells(r)] for r in size_rows],
            ),
            "",
            "B. Number of users (each 200 facts, 50 episodes, 20 chunks; seed s = the users "
            "added at that step):",
            "",
            table(["users", *HEAD], [[f"{r['users']:,}", *_cells(r)] for r in user_rows]),
            "",
            "![latency against memory size](growth.png)"
            if plotted
            else "(No plot: matplotlib was not available.)",
        ]
    )
    print("\n" + body)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "growth.json").write_text(
        json.dumps({"machine": info, "by_size": size_rows, "by_users": user_rows}, indent=1)
    )
    if not args.no_write and not args.quick and not getattr(args, "selected_subset", False):
        write_section("growth", body)
        print("\nwrote bench/RESULTS.md", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
