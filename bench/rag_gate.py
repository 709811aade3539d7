"""rag-gate latency at concurrency 1, gate open and closed, in one process.

    uv run python bench/rag_gate.py [--requests 300] [--users 10] [--mode both]

Creates (or reuses) the database ``DATABASE_URL`` (default ``twin_bench_rag_gate``) and a fresh
Qdrant Edge directory, seeds the measured user with 200 facts over 30 entities, 50 episodes,
an unconsolidated previous session, and 20 agent knowledge chunks, plus ``--users`` noise
users of the same size (so the payload filters matter), all embedded with MiniLM. Then sends
``--requests`` requests one after another, alternating messages, and prints p50/p95/p99 and
the median of each stage from the answer's ``timings``:

- ``asgi``: through the app in-process (httpx ASGITransport: litestar + msgspec, no socket);
- ``uvicorn``: through uvicorn on a local port, served by this same process (Qdrant Edge
  belongs to one process, so the server shares the seeded shard); client and server share
  one event loop, which adds the client's own cost to every figure.

Then times the vector searches of one open turn run concurrently (``asyncio.gather``, as the
node does) against one after another, interleaved, and prints EXPLAIN ANALYZE timings of the
three SQL statements. Prints, never asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import socket
import statistics
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta

import httpx
import uvicorn

from services.core.app import create_app
from services.core.deps import EMBEDDER, POSTGRES, VECTORS, Clients
from services.core.logs import configure_logging
from services.core.migrate import apply_migrations, ensure_database
from services.core.settings import Settings
from services.core.vectors import VectorPoint
from services.core.vectors.port import SHARED_OWNER
from services.rag_gate import continuity, search, store
from services.rag_gate.app import SPEC

USER, AGENT = "bench-rag-gate", "deanna"
NOW = datetime(2026, 1, 3, 12, 0, tzinfo=UTC)
NAMES = [
    "Marta",
    "Mom",
    "Dad",
    "Sam",
    "Priya",
    "Tom",
    "Zofia",
    "Luna",
    "Kowalski",
    "Ana",
    "Bob",
    "Carl",
    "Lena",
    "Omar",
    "Sofia",
    "Yuki",
    "Leo",
    "Nina",
    "Paul",
    "Rita",
    "Porto",
    "Lisbon",
    "Acme",
    "Gym",
    "Clinic",
    "Thesis",
    "Marathon",
    "Keto",
    "Guitar",
    "Garden",
]
FACT_TEMPLATES = [
    "{n} works night shifts at the hospital",
    "{n} lives in Porto",
    "{n} likes jazz",
    "{n} is training for a half marathon",
    "{n} has a weak left knee",
    "{n} is vegetarian",
    "{n} moved to Lisbon last spring",
    "{n} started a pottery studio",
    "{n} is allergic to nuts",
    "{n} calls every Sunday evening",
    "{n} is saving for a trip to Japan",
    "{n} prefers mornings for hard work",
    "{n} plays acoustic guitar",
    "{n} has a birthday on March 14",
    "{n} is writing a thesis on urban heat",
]
EPISODE_TOPICS = [
    (
        "Talked about {n}'s night shifts",
        "the user said {n} is exhausted after night shifts at the hospital and wants to visit",
    ),
    ("Running check-in with {n}", "the user ran 5k with {n} in 28 minutes; the knee felt fine"),
    (
        "Food log",
        "the user ate oatmeal for breakfast and a salad for lunch, then snacked late "
        "after talking to {n}",
    ),
    ("Bad sleep week", "the user slept five hours a night because of deadlines; {n} noticed"),
    ("Argument with {n}", "the user argued with {n} about chores and felt unheard"),
    ("Plan for the move", "the user and {n} listed flats in Alfama and Arroios"),
    ("Thesis progress", "the user sent chapter two to {n} and felt relieved"),
]
CHUNKS = [
    "Protein needs: about 1.2 to 1.6 g per kg of body weight per day for people who train.",
    "Hydration on long runs: 400 to 800 ml per hour, electrolytes in heat.",
    "Keto flu: tiredness in the first week; sodium, potassium and magnesium help.",
    "Tapering: cut running volume by 30 to 50 percent two weeks before a race.",
    "Runner's knee: reduce mileage, strengthen hips and quads.",
    "Sleep hygiene: fixed wake time, no screens an hour before bed, a cool dark room.",
    "Evening snacking: a protein-rich dinner reduces late-night cravings.",
    "Vegetarian protein: lentils, chickpeas, tofu, tempeh, eggs, Greek yogurt.",
    "Lactose intolerance: hard cheeses and lactose-free milk are usually fine.",
    "Long runs: easy conversational pace, 60 to 90 s per km slower than race pace.",
] * 2
OPEN = [
    ("remember what Marta said about the hospital?", ["Marta"]),
    ("how am I doing with my running plan?", []),
    ("I ate a salad for lunch again", []),
    ("why do I keep snacking at night?", []),
    ("did I call Mom on Sunday?", ["Mom"]),
]
CLOSED = ["ok thanks", "sounds good", "haha nice", "good night", "see you"]


async def seed(res: Clients, user: str, rng: random.Random) -> dict[str, str]:
    async with res.db.acquire() as conn:
        await conn.execute("DELETE FROM users WHERE user_id = $1", user)
        await conn.execute("INSERT INTO users (user_id) VALUES ($1)", user)
        await conn.execute(
            "INSERT INTO agents (agent_id) VALUES ($1) ON CONFLICT DO NOTHING", AGENT
        )
        entities = {name: str(uuid.uuid4()) for name in NAMES}
        await conn.executemany(
            "INSERT INTO entities (entity_id, user_id, name, category) VALUES ($1, $2, $3, $4)",
            [(eid, user, name, "Person") for name, eid in entities.items()],
        )
        facts = []
        for i in range(200):
            name = NAMES[i % len(NAMES)]
            facts.append(
                (
                    str(uuid.uuid4()),
                    user,
                    entities[name],
                    f"P_{i}",
                    rng.choice(FACT_TEMPLATES).format(n=name),
                    rng.randint(0, 3),
                    NOW - timedelta(days=rng.uniform(0, 120)),
                )
            )
        await conn.executemany(
            """INSERT INTO relations (rel_id, user_id, subject_id, predicate, object_value,
                   memory_type, text, importance, source, updated_at, created_at)
               VALUES ($1, $2, $3, $4, to_jsonb($5::text), 'PEOPLE', $5, $6, 'llm_plan', $7, $7)
            """,
            facts,
        )
        episodes = []
        for i in range(50):
            name = rng.choice(NAMES[:20])
            title, body = rng.choice(EPISODE_TOPICS)
            ts = NOW - timedelta(days=50 - i, hours=rng.randint(0, 12))
            episodes.append(
                (
                    str(uuid.uuid4()),
                    user,
                    title.format(n=name),
                    f"Observation: {body.format(n=name)}.",
                    [entities[name]],
                    ts,
                    1000 * (i + 1),
                )
            )
        await conn.executemany(
            """INSERT INTO episodes (episode_id, user_id, agent_id, ts, day, reflection, summary,
                   entity_ids, first_message_seq, last_message_seq)
               VALUES ($1, $2, 'deanna', $6, ($6::timestamptz AT TIME ZONE 'UTC')::date, $4,
                       jsonb_build_object('one_liner', $3::text), to_jsonb($5::text[]), $7, $7)
            """,
            episodes,
        )
        session = str(uuid.uuid4())
        await conn.execute(
            """INSERT INTO sessions (session_id, user_id, agent_id, chat_id, started_at,
                   last_activity_at) VALUES ($1, $2, 'deanna', 'tg:1', $3, $3)""",
            session,
            user,
            NOW - timedelta(hours=3),
        )
        await conn.executemany(
            """INSERT INTO messages (user_id, agent_id, chat_id, session_id, turn_id, position,
                   role, text, ts) VALUES ($1, 'deanna', 'tg:1', $2, $3, $4, $5, $6, $7)""",
            [
                (
                    user,
                    session,
                    f"t{i // 2}",
                    i % 2,
                    "user" if i % 2 == 0 else "assistant",
                    f"message {i} about the day",
                    NOW - timedelta(hours=3),
                )
                for i in range(12)
            ],
        )
        await conn.execute(
            """UPDATE sessions SET last_message_seq = (SELECT max(seq) FROM
                              messages WHERE session_id = $1) WHERE session_id = $1""",
            session,
        )
    fact_vectors = await res.embedder.embed([f[4] for f in facts])
    await res.vectors.upsert(
        "facts",
        [
            VectorPoint(
                f[0],
                v,
                f[4],
                {
                    "user_id": user,
                    "agent_id": None,
                    "scope": "global",
                    "entity_ids": [f[2]],
                    "active": True,
                    "memory_type": "PEOPLE",
                    "importance": f[5],
                    "pinned": False,
                    "ts": int(f[6].timestamp()),
                    "message_ids": [],
                },
            )
            for f, v in zip(facts, fact_vectors, strict=True)
        ],
    )
    texts = [f"{e[2]}\n{e[3]}" for e in episodes]
    episode_vectors = await res.embedder.embed(texts)
    await res.vectors.upsert(
        "episodes",
        [
            VectorPoint(
                e[0],
                v,
                t,
                {
                    "user_id": user,
                    "agent_id": AGENT,
                    "scope": "agent",
                    "entity_ids": e[4],
                    "active": True,
                    "ts": int(e[5].timestamp()),
                    "day": e[5].date().isoformat(),
                    "message_ids": [],
                },
            )
            for e, v, t in zip(episodes, episode_vectors, texts, strict=True)
        ],
    )
    return entities


async def seed_knowledge(res: Clients) -> None:
    async with res.db.acquire() as conn:
        await conn.execute("DELETE FROM knowledge_chunks WHERE agent_id = $1", AGENT)
        rows = [(str(uuid.uuid4()), text, i, uuid.uuid4().hex) for i, text in enumerate(CHUNKS)]
        await conn.executemany(
            """INSERT INTO knowledge_chunks (chunk_id, agent_id, doc_id, position, text,
                   content_hash) VALUES ($1, 'deanna', 'coach-guide', $3, $2, $4)""",
            rows,
        )
    vectors = await res.embedder.embed([r[1] for r in rows])
    await res.vectors.upsert(
        "knowledge",
        [
            VectorPoint(
                r[0],
                v,
                r[1],
                {
                    "user_id": SHARED_OWNER,
                    "agent_id": AGENT,
                    "scope": "agent",
                    "entity_ids": [],
                    "active": True,
                    "doc_id": "coach-guide",
                    "domain": "nutrition",
                },
            )
            for r, v in zip(rows, vectors, strict=True)
        ],
    )


def bodies(entities: dict[str, str], gate_open: bool) -> list[dict]:
    base = {"user_id": USER, "agent_id": AGENT, "chat_id": "tg:1", "now": NOW.isoformat()}
    if gate_open:
        return [
            {**base, "message": m, "entity_ids": [entities[n] for n in names]} for m, names in OPEN
        ]
    return [{**base, "message": m} for m in CLOSED]


def summary(samples: list[float]) -> str:
    q = statistics.quantiles(sorted(samples), n=100)
    return f"p50 {q[49]:6.2f} ms  p95 {q[94]:6.2f} ms  p99 {q[98]:6.2f} ms  (n={len(samples)})"


async def measure(
    client: httpx.AsyncClient, label: str, payloads: list[dict], requests: int
) -> None:
    for body in payloads * 4:  # warm up: pool connections, statement caches, model
        (await client.post("/v1/retrieve", json=body)).raise_for_status()
    samples: list[float] = []
    stages: dict[str, list[float]] = {}
    for i in range(requests):
        started = time.perf_counter()
        response = await client.post("/v1/retrieve", json=payloads[i % len(payloads)])
        samples.append((time.perf_counter() - started) * 1000)
        answer = response.raise_for_status().json()
        for stage, ms in answer["timings"].items():
            stages.setdefault(stage, []).append(ms)
    medians = ", ".join(f"{k} {statistics.median(v):.2f}" for k, v in stages.items())
    print(f"{label:28} {summary(samples)}\n{'':28} stage medians (ms): {medians}")
    print(
        f"{'':28} last answer: {len(answer['EPISODE']['hits'])} episodes, "
        f"{len(answer['KNOWLEDGE']['hits'])} chunks, "
        f"{len(answer['FACTS']['relevant_facts'])} facts, "
        f"{len(answer['FACTS']['entity_cards'])} cards, "
        f"{len(answer['EPISODE']['previous_session_tail'])} tail turns"
    )


async def compare_vector_concurrency(res: Clients, entities: dict[str, str], rounds: int) -> None:
    dense = await res.embedder.embed_query(OPEN[0][0])
    query = search.Query(
        user_id=USER,
        agent_id=AGENT,
        dense=dense,
        text=OPEN[0][0],
        entity_ids=[entities["Marta"]],
        episodes=8,
        knowledge=4,
        facts=24,
        turns=0,
    )

    async def sequential() -> None:
        q = {"dense": dense, "text": OPEN[0][0]}
        await res.vectors.search(
            "episodes", user_id=USER, agent_id=AGENT, entity_ids=[entities["Marta"]], limit=8, **q
        )
        await res.vectors.search(
            "knowledge",
            user_id=USER,
            agent_id=AGENT,
            agent_only=True,
            with_shared=True,
            limit=4,
            **q,
        )
        await res.vectors.search("facts", user_id=USER, agent_id=AGENT, limit=24, **q)

    variants = {
        "gather (as the node)": lambda: search.search(res.vectors, query),
        "one after another": sequential,
    }
    samples: dict[str, list[float]] = {k: [] for k in variants}
    for _ in range(rounds):
        for name, run in variants.items():
            started = time.perf_counter()
            await run()
            samples[name].append((time.perf_counter() - started) * 1000)
    for name, found in samples.items():
        print(f"vector searches, {name:22} {summary(found)}")


async def explain(res: Clients, entities: dict[str, str]) -> None:
    found = await search.search(
        res.vectors,
        search.Query(
            user_id=USER,
            agent_id=AGENT,
            dense=await res.embedder.embed_query(OPEN[0][0]),
            text=OPEN[0][0],
            entity_ids=[],
            episodes=8,
            knowledge=4,
            facts=24,
            turns=0,
        ),
    )
    ids = [[h.id for h in hits or ()] for hits in (found.episodes, found.knowledge, found.facts)]
    statements = {
        "load_rows": (store.LOAD_ROWS, USER, AGENT, NOW, *ids, [], False),
        "load_card_facts": (
            store.LOAD_CARD_FACTS,
            USER,
            AGENT,
            NOW,
            list(entities.values())[:6],
            ids[2][:8],
            3,
        ),
        "load_continuity": (
            continuity.LOAD_CONTINUITY,
            USER,
            AGENT,
            "tg:1",
            NOW,
            NOW - timedelta(minutes=30),
            10,
            [],
        ),
    }
    async with res.db.acquire() as conn:
        for name, (sql, *params) in statements.items():
            plan = await conn.fetch("EXPLAIN (ANALYZE, FORMAT TEXT) " + sql, *params)
            lines = [r[0] for r in plan]
            print(
                f"EXPLAIN ANALYZE {name}: "
                + "; ".join(line.strip() for line in lines if "Time:" in line)
            )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def run(res: Clients, settings: Settings, args: argparse.Namespace) -> None:
    started = time.perf_counter()
    entities = await seed(res, USER, random.Random(1))
    for n in range(args.users):
        await seed(res, f"{USER}-noise-{n}", random.Random(100 + n))
    await seed_knowledge(res)
    async with res.db.acquire() as conn:
        await conn.execute(
            "VACUUM ANALYZE relations, episodes, sessions, messages, knowledge_chunks, entities"
        )
    print(
        f"seeded {1 + args.users} users x (200 facts, 50 episodes) + 20 chunks in "
        f"{time.perf_counter() - started:.1f} s; embedder {res.embedder.name}"
    )
    app = create_app(SPEC, settings, res)
    if args.mode in ("asgi", "both"):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            await measure(client, "in-process, gate open", bodies(entities, True), args.requests)
            await measure(client, "in-process, gate closed", bodies(entities, False), args.requests)
    if args.mode in ("uvicorn", "both"):
        port = free_port()
        server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)
        )
        serving = asyncio.create_task(server.serve())
        for _ in range(200):  # up to 10 s
            if server.started:
                break
            await asyncio.sleep(0.05)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
            await measure(client, "uvicorn, gate open", bodies(entities, True), args.requests)
            await measure(client, "uvicorn, gate closed", bodies(entities, False), args.requests)
        server.should_exit = True
        await serving
    await compare_vector_concurrency(res, entities, args.requests)
    await explain(res, entities)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--users", type=int, default=10, help="noise users besides the one")
    parser.add_argument("--mode", choices=("asgi", "uvicorn", "both"), default="both")
    args = parser.parse_args()
    configure_logging(json=True, level=logging.WARNING)
    dsn = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/twin_bench_rag_gate")
    await ensure_database(dsn)
    await apply_migrations(dsn)
    with tempfile.TemporaryDirectory(prefix="rag-gate-") as qdrant:
        settings = Settings(database_url=dsn, qdrant_path=qdrant, log_json=True)
        res = await Clients.open(settings, {POSTGRES, VECTORS, EMBEDDER})
        try:
            await run(res, settings, args)
        finally:
            await res.close()


if __name__ == "__main__":
    asyncio.run(main())
