"""graph-hydrator latency at concurrency 1, through a real server, plus EXPLAIN of its queries.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/twin_bench uv run twin migrate
    DATABASE_URL=... uv run python bench/graph_hydrator.py [--requests 500] [--users 200]

Seeds ``--users`` users (the measured one plus noise, so the indexes matter) of 50 entities and
~200 facts each, starts ``twin serve graph-hydrator`` on ``--port``, sends ``--requests``
requests one after another over one keep-alive connection and prints p50/p95/p99; then times
the four store queries on one connection (sequential) against two connections (entities →
edges on one, foundation and todos on the other, concurrently); then prints EXPLAIN ANALYZE of
each query. Prints, never asserts: the numbers move with the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta

import asyncpg
import httpx

from services.core.stores import _init_connection
from services.graph_hydrator import store
from services.graph_hydrator.lists import FETCH_FACTOR, FOUNDATION_CAP, TODO_CAPS, WINS_WINDOW
from services.graph_hydrator.logic import lookup
from services.graph_hydrator.subgraph import CRITICAL_PREDICATES

USER = "bench-graph-hydrator"
AGENTS = ("deanna", "anaketa")
NOW = datetime(2026, 1, 3, 12, 0, tzinfo=UTC)
NAMES = [
    "Marta",
    "Marta",
    "Aunt Rosa",
    "Mom",
    "Dad",
    "Bob",
    "Ana",
    "Carl",
    "New York",
    "Berlin",
    "Acme",
    "Tomás",
    "Jean-Luc",
    "O'Brien",
    "Lena",
    "Kim",
    "Priya",
    "Omar",
    "Sofia",
    "Yuki",
    "Leo",
    "Nina",
    "Paul",
    "Rita",
    "Sam",
    "Tara",
    "Uma",
    "Victor",
    "Wendy",
    "Xavi",
    "Yara",
    "Zoe",
    "Porto",
    "Lisbon",
    "Oslo",
    "Rome",
    "Marathon",
    "Keto",
    "Guitar",
    "Piano",
    "Luna",
    "Max",
    "Gym",
    "Clinic",
    "School",
    "Office",
    "Garden",
    "Beach",
    "Cabin",
    "Alex",
]
PREDICATES = [
    "FRIEND_OF",
    "SISTER_OF",
    "WORKS_AT",
    "LIVES_IN",
    "LIKES",
    "KNOWS",
    "JOB",
    "BIRTHDAY",
    "ALLERGY",
    "MEDICATION",
    "DIET_PLAN",
    "TRAINING_PLAN",
    "HOBBY",
]
MESSAGES = [
    ("How is Marta doing with her new job?", False),
    ("Aunt Rosa and Mom are visiting New York next week", False),
    ("she said it was fine, but I'm not sure", True),
    ("what should I eat today? trying to stick to keto", False),
    ("Bob's birthday is tomorrow, remind me to call Ana", False),
    ("ok", True),
]


async def seed(dsn: str, users: int) -> dict[str, list[str]]:
    """Return the measured user's entity ids by name."""
    conn = await asyncpg.connect(dsn)
    await _init_connection(conn)
    rng = random.Random(7)
    try:
        await conn.execute("DELETE FROM users WHERE user_id LIKE 'bench-gh%' OR user_id = $1", USER)
        await conn.executemany(
            "INSERT INTO agents (agent_id) VALUES ($1) ON CONFLICT DO NOTHING",
            [(a,) for a in AGENTS],
        )
        ids: dict[str, list[str]] = {}
        for n in range(users):
            user = USER if n == 0 else f"bench-gh-{n}"
            await conn.execute("INSERT INTO users (user_id) VALUES ($1)", user)
            entities = []
            for index, name in enumerate(NAMES):
                entity_id = str(uuid.uuid4())
                seen = NOW - timedelta(hours=rng.randint(1, 500)) if index != 1 else None
                entities.append(
                    (
                        entity_id,
                        user,
                        name,
                        "Person",
                        seen,
                        {"relationship": "sister"} if index == 0 else {},
                    )
                )
                if n == 0:
                    ids.setdefault(name, []).append(entity_id)
            await conn.executemany(
                """INSERT INTO entities (entity_id, user_id, name, category, last_seen, attributes)
                   VALUES ($1, $2, $3, $4, $5, $6::jsonb)""",
                entities,
            )
            await conn.executemany(
                "INSERT INTO entity_aliases (user_id, entity_id, alias) VALUES ($1, $2, $3)",
                [
                    (user, entities[0][0], "family Marta"),
                    (user, entities[1][0], "work Marta"),
                    (user, entities[3][0], "Mother"),
                ],
            )
            facts = []
            for f in range(200):
                subject = entities[f % len(entities)][0]
                predicate = PREDICATES[rng.randrange(len(PREDICATES))]
                agent = "deanna" if f % 17 == 0 else ("anaketa" if f % 23 == 0 else None)
                as_edge = f % 2 == 0 and predicate not in CRITICAL_PREDICATES
                obj = entities[rng.randrange(len(entities))][0] if as_edge else None
                if obj == subject:
                    obj = None
                value = None if obj else f"value {f}"
                status = "ACTIVE" if f % 31 else "SUPERSEDED"
                facts.append(
                    (
                        str(uuid.uuid4()),
                        user,
                        "agent" if agent else "global",
                        agent,
                        subject,
                        f"{predicate}_{f}" if predicate not in CRITICAL_PREDICATES else predicate,
                        obj,
                        value,
                        round(rng.uniform(0.4, 1.0), 2),
                        f"fact number {f}",
                        3 if f % 20 == 0 else rng.randint(0, 2),
                        f % 40 == 0,
                        "seeded_profile" if f % 25 == 0 else "llm_plan",
                        status,
                        NOW - timedelta(hours=rng.randint(1, 2000)),
                    )
                )
            await conn.executemany(
                """INSERT INTO relations (rel_id, user_id, scope, agent_id, subject_id, predicate,
                       object_id, object_value, confidence, memory_type, text, importance,
                       pinned, source, status, updated_at)
                   VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, 'PEOPLE', $10,
                           CASE WHEN $12 THEN 3 ELSE $11 END, $12, $13, $14, $15)""",
                facts,
            )
            todos = []
            for t in range(30):
                kind = ("COMMITMENT", "THREAD", "FRICTION")[t % 3]
                done = t % 5 == 0 and kind == "COMMITMENT"
                todos.append(
                    (
                        user,
                        AGENTS[t % 2],
                        kind,
                        f"todo {t}",
                        "DONE" if done else "PENDING",
                        NOW - timedelta(hours=t) if done else None,
                    )
                )
            await conn.executemany(
                """INSERT INTO todos (user_id, agent_id, kind, text, status, completed_at)
                   VALUES ($1, $2, $3, $4, $5, $6)""",
                todos,
            )
        await conn.execute("VACUUM ANALYZE entities, entity_aliases, relations, todos")
        return ids
    finally:
        await conn.close()


def bodies(ids: dict[str, list[str]]) -> list[dict]:
    out = []
    for message, with_active in MESSAGES:
        active = ids["Marta"][:1] + ids["Bob"] if with_active else []
        out.append(
            {
                "user_id": USER,
                "agent_id": "deanna",
                "chat_id": "tg:1",
                "message": message,
                "active_entity_ids": active,
                "now": NOW.isoformat(),
            }
        )
    return out


def percentiles(samples: list[float]) -> str:
    samples = sorted(samples)
    q = statistics.quantiles(samples, n=100)
    return (
        f"p50 {q[49]:.2f} ms  p95 {q[94]:.2f} ms  p99 {q[98]:.2f} ms  "
        f"mean {statistics.fmean(samples):.2f} ms  (n={len(samples)})"
    )


def run_http(port: int, requests: int, payloads: list[dict]) -> None:
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
        for _ in range(50):
            for body in payloads:
                client.post("/v1/hydrate", json=body).raise_for_status()
        samples = []
        for i in range(requests):
            body = payloads[i % len(payloads)]
            started = time.perf_counter()
            response = client.post("/v1/hydrate", json=body)
            samples.append((time.perf_counter() - started) * 1000)
            response.raise_for_status()
        sample = client.post("/v1/hydrate", json=payloads[0]).json()
        floor = []
        for _ in range(requests):
            started = time.perf_counter()
            client.get("/healthz").raise_for_status()
            floor.append((time.perf_counter() - started) * 1000)
    graph = sample["GRAPH"]
    print(f"HTTP POST /v1/hydrate, concurrency 1: {percentiles(samples)}")
    print(f"HTTP GET /healthz (stack floor):       {percentiles(floor)}")
    print(
        f"  sample answer: {len(graph['entities'])} entities, {len(graph['edges'])} edges, "
        f"{len(graph['foundation'])} foundation, question={graph['pending_question'] is not None}"
        f", mentions={[m['text'] for m in sample['mentions']]}"
    )


async def run_store(dsn: str, payloads: list[dict], rounds: int) -> None:
    conns = [await asyncpg.connect(dsn) for _ in range(2)]
    for conn in conns:
        await _init_connection(conn)
    a, b = conns

    async def subject_part(conn, body):
        wanted = lookup(body["message"], body["active_entity_ids"])
        rows = await store.find_entities(conn, USER, "deanna", wanted.scan.keys, wanted.active_ids)
        ids = list(dict.fromkeys(r.entity_id for r in rows))
        if ids:
            await store.load_edges(conn, USER, "deanna", ids, NOW)

    async def lists_part(conn):
        await store.load_foundation(conn, USER, "deanna", NOW)
        await store.load_todos(conn, USER, "deanna", NOW)

    async def sequential(body):
        await subject_part(a, body)
        await lists_part(a)

    async def concurrent(body):
        await asyncio.gather(subject_part(a, body), lists_part(b))

    # Interleaved, so that the neighbours' load hits both alike.
    variants = {"sequential, 1 connection": sequential, "concurrent, 2 connections": concurrent}
    samples: dict[str, list[float]] = {name: [] for name in variants}
    for i in range(rounds):
        for name, fn in variants.items():
            started = time.perf_counter()
            await fn(payloads[i % len(payloads)])
            samples[name].append((time.perf_counter() - started) * 1000)
    for name, found in samples.items():
        print(f"store queries, {name}: {percentiles(found)}")
    wanted = lookup(payloads[1]["message"], [])
    rows = await store.find_entities(a, USER, "deanna", wanted.scan.keys, [])
    ids = [r.entity_id for r in rows]
    single = {
        "find_entities": lambda: store.find_entities(a, USER, "deanna", wanted.scan.keys, []),
        "load_edges": lambda: store.load_edges(a, USER, "deanna", ids, NOW),
        "load_foundation": lambda: store.load_foundation(a, USER, "deanna", NOW),
        "load_todos": lambda: store.load_todos(a, USER, "deanna", NOW),
        "SELECT 1": lambda: a.fetchval("SELECT 1"),
    }
    each: dict[str, list[float]] = {name: [] for name in single}
    for _ in range(rounds):
        for name, fn in single.items():
            started = time.perf_counter()
            await fn()
            each[name].append((time.perf_counter() - started) * 1000)
    for name, found in each.items():
        print(f"  {name:16s} {percentiles(found)}")
    for conn in conns:
        await conn.close()


async def explain(dsn: str, ids: dict[str, list[str]]) -> None:
    conn = await asyncpg.connect(dsn)
    await _init_connection(conn)
    wanted = lookup(MESSAGES[0][0] + " " + MESSAGES[1][0], [])
    seeds = [ids["Marta"][0], ids["Mom"][0], ids["Aunt Rosa"][0]]
    queries = [
        (
            "find_entities",
            store.FIND_ENTITIES,
            [USER, "deanna", list(wanted.scan.keys), [ids["Bob"][0]]],
        ),
        (
            "load_edges",
            store.LOAD_EDGES,
            [USER, "deanna", NOW, seeds, sorted(CRITICAL_PREDICATES), store.EDGE_ROWS_MAX],
        ),
        (
            "load_foundation",
            store.LOAD_FOUNDATION,
            [USER, "deanna", NOW, FOUNDATION_CAP * FETCH_FACTOR],
        ),
        (
            "load_todos",
            store.LOAD_TODOS,
            [USER, "deanna", NOW - WINS_WINDOW, NOW, max(TODO_CAPS.values()) * FETCH_FACTOR],
        ),
    ]
    print(
        f"\n{len(wanted.scan.keys)} lookup keys for a {len(MESSAGES[0][0] + MESSAGES[1][0])}"
        "-character message"
    )
    for name, sql, args in queries:
        for _ in range(5):  # let the plan settle (generic plans after 5 executions)
            await conn.fetch(sql, *args)
        plan = await conn.fetch(f"EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) {sql}", *args)
        print(f"\n--- {name}")
        print("\n".join(row[0] for row in plan))
    await conn.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--port", type=int, default=18102)
    args = parser.parse_args()
    dsn = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/twin_bench")
    ids = asyncio.run(seed(dsn, args.users))
    print(f"seeded {args.users} users x {len(NAMES)} entities / 200 facts / 30 todos")
    env = {**os.environ, "DATABASE_URL": dsn, "TWIN_LOG_JSON": "true"}
    server = subprocess.Popen(
        ["twin", "serve", "graph-hydrator", "--port", str(args.port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                if httpx.get(f"http://127.0.0.1:{args.port}/readyz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        run_http(args.port, args.requests, bodies(ids))
    finally:
        server.terminate()
        server.wait(timeout=10)
    asyncio.run(run_store(dsn, bodies(ids), args.requests))
    asyncio.run(explain(dsn, ids))
    return 0


if __name__ == "__main__":
    sys.exit(main())
