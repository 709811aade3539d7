"""bench.load's section of bench/RESULTS.md: each route against its floor, the cells, the floors."""

from __future__ import annotations

from bench.common import (
    machine_line,
    percentile,
    table,
)
from bench.load import seed as seeding
from bench.load.client import Cell
from bench.load.samples import FLOORS, PATH_OF, ROUTES


def p(cell: Cell | None, q: float) -> float:
    return percentile(cell.latencies_ms, q) if cell else float("nan")


def floor_of(route: str, at: dict[str, Cell]) -> float:
    """A route's floor at one concurrency: the framework floor (``GET /healthz``) plus the raw
    work its turn cannot avoid, each at p95."""
    f = p(at.get("healthz"), 95)
    redis, pg = p(at.get("redis_get"), 95), p(at.get("pg_query"), 95)
    pg_write = p(at.get("pg_write"), 95)
    vec, emb = p(at.get("vector_search"), 95), p(at.get("embed"), 95)
    return {
        "healthz": f,
        "pulse": f + redis,
        "hydrate": f + pg,
        "retrieve": f + emb + vec + pg,
        "envelope": f,
        "commit": f + pg_write + emb,
        "chain": 4 * f + redis + pg + emb + vec + pg,
        "turn": f + redis + pg + emb + vec + pg,
    }[route]


FLOOR_TEXT = {
    "healthz": "itself",
    "pulse": "healthz + Redis GET",
    "hydrate": "healthz + PG query",
    "retrieve": "healthz + embed + vector search + PG query",
    "envelope": "healthz",
    "commit": "healthz + PG write (one row, one commit) + embed",
    "chain": "4 × healthz + Redis GET + 2 × PG query + embed + vector search",
    "turn": "healthz + Redis GET + 2 × PG query + embed + vector search",
}


def report(
    args,
    info,
    manifest: seeding.Manifest,
    seed_s: float,
    shape: dict[str, float],
    cells: dict[int, dict[str, Cell]],
    rss: dict[str, float],
    wall: float,
    seeded_now: bool,
) -> str:
    levels = sorted(cells)
    command = "uv run python -m bench.load" + (" --quick" if args.quick else "")
    lines = [
        "## Node latency under load (`bench/load`)",
        "",
        f"`{command}` — {machine_line(info)} · whole run {wall / 60:.1f} min.",
        "",
        f"Memory: {manifest.counts.get('users')} users; "
        + ", ".join(f"{k} {v:,}" for k, v in manifest.counts.items() if k != "users")
        + f" (seeded {'in this run' if seeded_now else 'by an earlier run, reused'} in "
        f"{seed_s:.0f} s: "
        + ", ".join(f"{k} {v:.0f} s" for k, v in manifest.seconds.items())
        + "). "
        "Rows by COPY, vectors written into the Edge shard before `twin up` opened it, with "
        "the product's own adapter and point builders (bench/load/seed.py says why). "
        f"Each cell: {args.warmup:g} s warm-up, then {args.seconds:g} s closed loop at the "
        "given concurrency (one keep-alive connection per worker), requests spread over "
        f"{args.samples} (user, message) samples of random users. Server: `twin up` (one "
        "process, default settings, offline MiniLM embedder); RSS "
        + ", ".join(f"{k} {v:.0f} MiB" for k, v in rss.items())
        + ".",
        "",
        "What the turns looked like (per request, mean): "
        f"gate open {shape.get('gate_open', 0):.0%}, {shape.get('edges', 0):.1f} edges, "
        f"{shape.get('facts', 0):.1f} relevant facts, {shape.get('episodes', 0):.1f} episodes, "
        f"{shape.get('knowledge', 0):.1f} knowledge chunks, envelope "
        f"{shape.get('envelope_tokens', 0):.0f} words.",
        "",
        "### Headline: p95 over the floor",
        "",
        "Floor of a route = the framework floor (`GET /healthz` on the same server) + the raw "
        "work the route cannot avoid, each at its p95 at the same concurrency: "
        + "; ".join(f"{r}: {t}" for r, t in FLOOR_TEXT.items() if r != "healthz")
        + ".",
        "",
    ]
    rows = []
    for route in ROUTES[1:]:
        row = [route]
        for c in levels:
            floor = floor_of(route, cells[c])
            cell = cells[c].get(route)
            got = p(cell, 95)
            cpu = (
                f" · {cell.rate:.0f}/s, CPU {cell.server_cpu_s / cell.requests * 1000:.1f} ms"
                if cell and cell.server_cpu_s is not None and cell.requests
                else ""
            )
            row.append(
                f"{got:.1f} / {floor:.1f} = **{got / floor:.1f}×**{cpu}"
                if floor == floor and floor > 0
                else "–"
            )
        rows.append(row)
    lines += [
        table(
            [
                "route",
                *(f"c={c}: p95 / floor (ms) · req/s, server CPU per request" for c in levels),
            ],
            rows,
        )
    ]
    lines += [
        "",
        "### Routes",
        "",
        "*after*: once a cell ends, how long the server kept working on what it left behind "
        "(a commit's queued indexing) and the CPU that took, which the server CPU per request "
        "includes.",
        "",
    ]
    rows = []
    for route in ROUTES:
        for c in levels:
            cell = cells[c].get(route)
            if cell is None:
                continue
            cpu = (
                f"{cell.server_cpu_s / cell.requests * 1000:.2f}"
                if cell.server_cpu_s is not None and cell.requests
                else "–"
            )
            ccpu = (
                f"{cell.client_cpu_s / cell.requests * 1000:.2f}"
                if cell.client_cpu_s is not None and cell.requests
                else "–"
            )
            rows.append(
                [
                    route,
                    c,
                    f"{cell.rate:.0f}",
                    f"{p(cell, 50):.2f}",
                    f"{p(cell, 95):.2f}",
                    f"{p(cell, 99):.2f}",
                    cpu,
                    ccpu,
                    f"{cell.tail_s:.1f} · {cell.tail_cpu_s:.1f}",
                    f"{cell.errors}" + (f" ({cell.error_sample[:80]})" if cell.errors else ""),
                ]
            )
    lines += [
        table(
            [
                "route",
                "conc.",
                "req/s",
                "p50 ms",
                "p95 ms",
                "p99 ms",
                "server CPU ms/req",
                "client CPU ms/req",
                "after: s · CPU s",
                "errors",
            ],
            rows,
        )
    ]
    chain_parts = []
    for c in levels:
        cell = cells[c].get("chain")
        if cell and cell.parts_ms:
            chain_parts.append(
                [
                    c,
                    *(
                        f"{percentile(cell.parts_ms[k], 50):.2f} / "
                        f"{percentile(cell.parts_ms[k], 95):.2f}"
                        for k in PATH_OF
                    ),
                ]
            )
    if chain_parts:
        lines += [
            "",
            "Inside the chain, per step (p50 / p95 ms):",
            "",
            table(["conc.", *PATH_OF], chain_parts),
        ]
    lines += [
        "",
        "### Floors",
        "",
        "Redis GET of a 2 KB value (redis-py asyncio, pool of `conc.` connections) and "
        "one ~30-row indexed Postgres query (asyncpg pool of min(conc., 10), like the "
        "product's) and one single-row insert in its own transaction (one WAL fsync: "
        "the least a durable commit costs) from the bench process; one hybrid vector "
        "search (facts, user- and agent-filtered, 24 hits; synchronous in Edge, so "
        "measured at concurrency 1 and used at every level) and one MiniLM query "
        "embedding (one worker thread, so concurrent calls queue, as in the server) in "
        "the bench process before the server started (in `twin up` both run in the "
        "server's process).",
        "",
    ]
    rows = []
    for name in FLOORS:
        for c in levels:
            cell = cells[c].get(name)
            if cell is None:
                continue
            rows.append(
                [
                    name,
                    c,
                    f"{cell.rate:.0f}",
                    f"{p(cell, 50):.3f}",
                    f"{p(cell, 95):.3f}",
                    f"{p(cell, 99):.3f}",
                ]
            )
    lines += [table(["floor", "conc.", "ops/s", "p50 ms", "p95 ms", "p99 ms"], rows)]
    return "\n".join(lines)
