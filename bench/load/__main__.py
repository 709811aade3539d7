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
import os
import random
import shutil
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from bench.common import (
    OUT,
    Stack,
    cached_embedder,
    cpu_seconds,
    drop_database,
    dsn_for,
    forget_seed,
    machine,
    machine_line,
    percentile,
    ports_free,
    restore_seed,
    rss_mib,
    table,
    write_section,
)
from bench.load import seed as seeding
from bench.load.client import Cell, Connection, HttpError, closed_loop, encode_request

AGENT = "deanna"
# The chain before commit, and every cell after the server has gone quiet (``settle``): a
# commit cell leaves background indexing behind that the next cell would otherwise pay for.
ROUTES = ("healthz", "pulse", "hydrate", "retrieve", "envelope", "chain", "turn", "commit")
FLOORS = ("redis_get", "pg_query", "pg_write", "vector_search", "embed")
PERSONA = (
    "You are Deanna, a warm and practical nutrition and training coach. Keep answers "
    "short, ask one question at a time, and never invent facts about the user."
)
MESSAGES = (
    "How is {n} doing with the new job?",
    "remember what {n} said last time about the trip?",
    "{a} called me today, she sounds tired",
    "I ran 5k with {n} this morning and my knee is fine",
    "why do I keep snacking at night?",
    "she said it was fine, but I'm not sure",
    "what should I eat before the long run tomorrow?",
    "{n} and {m} are visiting next week, any ideas for dinner?",
)
PG_FLOOR_SQL = (
    "SELECT rel_id, predicate, text, importance, updated_at FROM relations "
    "WHERE user_id = $1 AND status = 'ACTIVE' ORDER BY updated_at DESC LIMIT 30"
)
NODE_OF = {
    "pulse": "pulse-decay",
    "hydrate": "graph-hydrator",
    "retrieve": "rag-gate",
    "envelope": "envelope-validator",
    "healthz": "rag-gate",
    "turn": "rag-gate",
    "commit": "memory-upserter",
}
PATH_OF = {
    "pulse": "/v1/pulse",
    "hydrate": "/v1/hydrate",
    "retrieve": "/v1/retrieve",
    "envelope": "/v1/envelope",
}


def unique(message: str, worker: int, n: int, run: str) -> str:
    """The message with a tag of letters no seeded text contains, different on every request,
    so no cache in the server (query embedding, gate, working memory) sees a repeat: a real
    user's messages do not repeat, the 200 samples would."""
    code, k = "", (n * 64 + worker) * 1000 + sum(map(ord, run)) % 1000
    while True:
        k, r = divmod(k, 26)
        code += chr(97 + r)
        if not k:
            break
    return f"{message} (zq{code})"


# Samples each worker cycles over at the highest concurrency. With 3 (200 samples at c=64),
# a worker whose samples all keep the gate closed (a quarter of them do) answered in ~2 ms and
# made most of the cell's requests (bench/RESULTS.md, fourth round); with 12 every worker
# holds the mix of open and closed turns.
PER_WORKER = 12


def pick(pool: Sequence[Any], worker: int, n: int, concurrency: int) -> Any:
    """Worker ``worker``'s ``n``-th sample: workers take disjoint residues of the pool."""
    per = max(1, len(pool) // concurrency)
    return pool[(worker + concurrency * (n % per)) % len(pool)]


@dataclass
class Sample:
    user_id: str
    chat_id: str
    message: str
    entities: tuple[str, ...] = ()
    bodies: dict[str, bytes] = field(default_factory=dict)  # route → request body


def samples(manifest: seeding.Manifest, n: int, rng: random.Random) -> list[Sample]:
    """``n`` (user, message) samples, each of a different user while there are enough users
    (so concurrent workers, which take disjoint samples, never write one user's session blob
    at the same time: one person's turns do not arrive 64 at once)."""
    out = []
    users = rng.sample(manifest.users, min(n, len(manifest.users)))
    for i in range(n):
        user = users[i % len(users)]
        names = list(user.entities)
        aliased = [a for v in user.aliases.values() for a in v] or names
        # a random template, not i % 8: workers take samples at a stride of the concurrency,
        # and a stride that is a multiple of 8 would give each worker one template only
        text = rng.choice(MESSAGES).format(
            n=rng.choice(names), m=rng.choice(names), a=rng.choice(aliased)
        )
        out.append(Sample(user.user_id, user.chat_id, text, tuple(names)))
    return out


def ids(s: Sample) -> dict[str, Any]:
    return {"user_id": s.user_id, "agent_id": AGENT, "chat_id": s.chat_id}


def pulse_body(s: Sample) -> dict[str, Any]:
    return {**ids(s), "message": s.message}


def hydrate_body(s: Sample, pulse: dict[str, Any]) -> dict[str, Any]:
    session = pulse["session"]
    return {
        **ids(s),
        "message": s.message,
        "active_entity_ids": session.get("active_entity_ids", []),
        "topic_focus": session.get("scratch", {}).get("topic_focus"),
    }


def turn_body(s: Sample) -> dict[str, Any]:
    """The chain's four bodies in one: what /v1/turn needs to build them itself."""
    return {**ids(s), "message": s.message, "persona_prompt": PERSONA}


def retrieve_body(s: Sample, pulse: dict[str, Any], hydrate: dict[str, Any]) -> dict[str, Any]:
    return {
        **ids(s),
        "message": s.message,
        "entity_ids": hydrate.get("active_entity_ids", []),
        "scratch": pulse["session"].get("scratch"),
    }


def envelope_body(
    s: Sample, pulse: dict[str, Any], hydrate: dict[str, Any], retrieve: dict[str, Any]
) -> dict[str, Any]:
    return {
        **ids(s),
        "AFFECT": pulse["AFFECT"],
        "GRAPH": hydrate["GRAPH"],
        "EPISODE": retrieve["EPISODE"],
        "KNOWLEDGE": retrieve["KNOWLEDGE"],
        "FACTS": retrieve["FACTS"],
        "persona_prompt": PERSONA,
        "conversation_summary": pulse["session"].get("summary") or "",
        "recent_turns": pulse["session"].get("turns", []),
        "user_message": s.message,
    }


def commit_body(s: Sample, turn_id: str, n: int) -> dict[str, Any]:
    """A turn after the LLM with a ~10-item plan (2 entities, 6 facts, 1 todo): the names are
    the user's seeded ones (alias merge, same-key updates), the values change every turn (so
    some facts are contradicted and replaced), as a chatty user's turns would."""
    names = sorted(s.entities)
    a, b = names[n % len(names)], names[(n + 1) % len(names)]
    facts = [
        ("PEOPLE", a, "LIVES_IN", f"city {n % 7}", f"{a} lives in city {n % 7}"),
        ("PEOPLE", a, "WORKS_AS", "nurse", f"{a} works as a nurse"),
        ("PEOPLE", b, "BIRTHDAY", f"{n % 28 + 1} May", f"{b}'s birthday is {n % 28 + 1} May"),
        ("PROFILE", "user", "LIKES", f"tea {n % 5}", f"I like tea {n % 5}"),
        ("PROFILE", "user", "TRAINS_FOR", "a half marathon", "I train for a half marathon"),
        (
            "PROJECT",
            "Garden shed",
            "STATUS",
            f"step {n % 4}",
            f"The garden shed is at step {n % 4}",
        ),
    ]
    plan = {
        "entities": [
            {"name": a, "category": "Person", "aliases": [a.split()[0]]},
            {"name": "Garden shed", "category": "Project"},
        ],
        "facts": [
            {"memory_type": t, "subject": subj, "predicate": pred, "value": value, "text": text}
            for t, subj, pred, value, text in facts
        ],
        "todos": [
            {
                "kind": "COMMITMENT",
                "text": f"call {a} about step {n % 4}",
                "source_snippet": s.message[:120],
            }
        ],
    }
    return {
        **ids(s),
        "turn_id": turn_id,
        "plan": plan,
        "messages": [
            {"role": "user", "text": s.message},
            {"role": "assistant", "text": "Noted. How did it go?"},
        ],
    }


_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode


async def call(
    conn: Connection, port: int, route: str, body: dict[str, Any] | bytes
) -> dict[str, Any]:
    raw = body if isinstance(body, bytes) else _encode(body)
    status, data = await conn.request(encode_request("POST", PATH_OF[route], port, raw))
    if status != 200:
        raise HttpError(f"{route}: HTTP {status}: {data[:300]!r}")
    return _decode(data)


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
                "pulse": _encode(pulse_body(s)),
                "hydrate": _encode(hb),
                "retrieve": _encode(rb),
                "envelope": _encode(eb),
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
                raw = encode_request("POST", "/v1/commit", port, _encode(body))
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
                raw = encode_request("POST", "/v1/turn", port, _encode(turn_body(s)))
                status, data = await conn.request(raw)
                if status != 200:
                    raise HttpError(f"turn: HTTP {status}: {data[:300]!r}")

            return turn
        bodies = [_decode(s.bodies[route]) for s in pool]
        field_name = "user_message" if route == "envelope" else "message"

        async def post(worker: int, n: int) -> None:
            body = dict(pick(bodies, worker, n, concurrency))
            body[field_name] = unique(body[field_name], worker, n, run)
            raw = encode_request("POST", PATH_OF[route], port, _encode(body))
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


async def run_store_floors(
    stack: Stack, manifest: seeding.Manifest, concurrency: int, seconds: float, warmup: float
) -> list[Cell]:
    import asyncpg
    import redis.asyncio as aioredis

    users = [u.user_id for u in manifest.users]
    client = aioredis.Redis.from_url(stack.redis_url, max_connections=max(1, concurrency))
    await client.set("bench:floor", b"x" * 2048)

    async def make_redis(i: int):
        async def get(worker: int, n: int) -> None:
            await client.get("bench:floor")

        return get

    pool = await asyncpg.create_pool(
        stack.dsn, min_size=min(concurrency, 10), max_size=min(concurrency, 10)
    )
    await pool.execute(
        "CREATE TABLE IF NOT EXISTS bench_floor_writes (id bigserial PRIMARY KEY,"
        " user_id text NOT NULL, body jsonb NOT NULL)"
    )

    async def make_pg(i: int):
        async def query(worker: int, n: int) -> None:
            async with pool.acquire() as conn:
                await conn.fetch(PG_FLOOR_SQL, users[(worker * 7919 + n) % len(users)])

        return query

    async def make_pg_write(i: int):
        async def write(worker: int, n: int) -> None:  # one row, one commit: one WAL fsync
            await pool.execute(
                "INSERT INTO bench_floor_writes (user_id, body) VALUES ($1, $2)",
                users[(worker * 7919 + n) % len(users)],
                '{"text": "x"}',
            )

        return write

    try:
        cells = [
            await closed_loop(
                "redis_get",
                concurrency,
                seconds,
                warmup,
                make_redis,
                client_cpu=lambda: cpu_seconds(os.getpid()),
            ),
            await closed_loop(
                "pg_query",
                concurrency,
                seconds,
                warmup,
                make_pg,
                client_cpu=lambda: cpu_seconds(os.getpid()),
            ),
            await closed_loop(
                "pg_write",
                concurrency,
                seconds,
                warmup,
                make_pg_write,
                client_cpu=lambda: cpu_seconds(os.getpid()),
            ),
        ]
    finally:
        await pool.close()
        await client.aclose()
    return cells


async def run_shard_floors(
    qdrant_path: str,
    manifest: seeding.Manifest,
    pool: list[Sample],
    levels: Sequence[int],
    seconds: float,
    warmup: float,
) -> list[Cell]:
    """One hybrid search of the facts collection (rag-gate's widest: 24 candidates, user- and
    agent-filtered) and one MiniLM query embedding, in this process, while no server holds the
    shard. Both serialise inside one process (Edge under its lock, MiniLM on its one worker
    thread), as they do in ``twin up``."""
    from services.core.embedder import MiniLMEmbedder
    from services.core.vectors.edge import EdgeVectorIndex

    embedder = MiniLMEmbedder(threads=1)
    index = EdgeVectorIndex(qdrant_path, dim=384)
    await index.ensure_collections()
    queries = [(s.user_id, s.message) for s in pool]
    dense = await embedder.embed([q for _, q in queries])
    cells = []
    try:

        async def make_vector(i: int):
            async def search(worker: int, n: int) -> None:
                k = (worker * 7919 + n) % len(queries)
                await index.search(
                    "facts",
                    user_id=queries[k][0],
                    agent_id=AGENT,
                    dense=dense[k],
                    text=queries[k][1],
                    limit=24,
                    payload=(),  # as rag-gate asks: ids only (it reads the rows from Postgres)
                )
                await asyncio.sleep(0)  # Edge is synchronous: let the window timer run

            return search

        # A search holds the GIL and the index lock for its whole duration (in `twin up` it
        # blocks the event loop): its floor is its own time, so it is measured once, at
        # concurrency 1, and used at every level.
        vector = await closed_loop(
            "vector_search", 1, seconds, warmup, make_vector, cpu=lambda: cpu_seconds(os.getpid())
        )
        for c in levels:

            async def make_embed(i: int):
                async def embed(worker: int, n: int) -> None:
                    await embedder.embed_query(queries[(worker * 7919 + n) % len(queries)][1])

                return embed

            cells.append(
                Cell(
                    "vector_search",
                    c,
                    vector.seconds,
                    vector.latencies_ms,
                    vector.errors,
                    vector.error_sample,
                    vector.server_cpu_s,
                )
            )
            cells.append(
                await closed_loop(
                    "embed", c, seconds, warmup, make_embed, cpu=lambda: cpu_seconds(os.getpid())
                )
            )
            print(
                f"  c={c}: vector search p95 {percentile(cells[-2].latencies_ms, 95):.2f} ms, "
                f"embed p95 {percentile(cells[-1].latencies_ms, 95):.2f} ms",
                flush=True,
            )
    finally:
        await index.close()
        await embedder.close()
    return cells


# --- the report -------------------------------------------------------------------------------


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


# --- main -------------------------------------------------------------------------------------


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
