"""CPU per retrieve of rag-gate's raw-turn recall, before and after issue 33's third round
(its second: ``--round 2``; its fourth, the named period's search and lift: ``--round 4``),
interleaved in one process on one memory (so load and caches are
the same for both).

    uv run python -m bench.recall.cpu [--conversation conv-26] [--rounds 2] [--round 3]

Writes one LoCoMo conversation's turns as one user's logged messages (Postgres, then the
``messages`` index as memory-upserter writes it, MiniLM), then asks each of its questions
through :func:`services.rag_gate.pipeline.retrieve` (gate forced open), alternating *before*
and *after* (the shipped defaults). Round 2's before: 32 candidates, the 0.3 cutoff margin, no
session context, no spread. Round 3's before: no standing search and the turn query as asked
(:mod:`services.rag_gate.standing`, :mod:`services.rag_gate.unnamed`). Round 4's before:
no named period (:mod:`services.rag_gate.period`: no sessions read, no search, no lift). The
speakers are Person entities and a question gets those it names as ``entity_ids``, as
graph-hydrator gives them. Round 5's before (``--round 5``): the unnamed query as main
``6741912`` ran it, names in a statement of their own and a second embedding call
(:mod:`bench.recall.cpu_unnamed`). Round 6's before (``--round 6``): no question is read
as one across sessions (:mod:`services.rag_gate.across`). Process CPU time per retrieve
(``time.process_time``: every thread, the query embedding included) and wall time; medians
and means. Database ``twin_recall_cpu`` (dropped at the end; ``--database``), Redis db 5
(``--redis-db``), a temporary Qdrant Edge folder. Prints, never asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
import uuid
from datetime import timedelta

import asyncpg
import msgspec

from bench.recall import cpu_unnamed, data
from contracts.retrieve import RetrieveRequest
from services.core.deps import STORES, Clients
from services.core.memory_store import EntityWrite, ensure_user_and_agent, upsert_entities
from services.core.migrate import apply_migrations
from services.core.settings import Settings
from services.memory_upserter.commit.index import sync_message_vectors
from services.rag_gate import across, fusion, period, pipeline, spread, standing, unnamed

ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
DATABASE = "twin_recall_cpu"
REDIS = ["redis://127.0.0.1:6379/5"]
USER, AGENT, CHAT = "cpu-user", "cpu-agent", "cpu-chat"
BEFORE = {"turns": {"candidates": 32, "margin": 0.3}}
AFTER: dict = {}  # the shipped defaults, or ``--after`` (JSON limits) to split the cost


async def write(res: Clients, conversation: data.Conversation) -> dict[str, str]:
    """The conversation as logged messages; returns its speakers' entity ids by first name."""
    async with res.db.acquire() as conn:
        await ensure_user_and_agent(conn, USER, AGENT)
        people = await upsert_entities(
            conn,
            USER,
            [EntityWrite(s, "Person") for s in conversation.speakers],
            now=conversation.sessions[0].start,
        )
        ids: list[str] = []
        for session in conversation.sessions:
            sid = str(uuid.uuid4())
            await conn.execute(
                "INSERT INTO sessions (session_id, user_id, agent_id, chat_id, started_at, "
                "last_activity_at, ended_at, turn_count) VALUES ($1,$2,$3,$4,$5,$6,$6,$7)",
                sid, USER, AGENT, CHAT, session.start, session.end, len(session.turns),
            )  # fmt: skip
            for i, turn in enumerate(session.turns):
                mid = str(uuid.uuid4())
                ids.append(mid)
                await conn.execute(
                    "INSERT INTO messages (message_id, user_id, agent_id, chat_id, session_id, "
                    "turn_id, position, role, speaker, text, ts) "
                    "VALUES ($1,$2,$3,$4,$5,$6,0,'user',$7,$8,$9)",
                    mid, USER, AGENT, CHAT, sid, f"{sid[:8]}-{i}", turn.speaker,
                    turn.content, turn.ts,
                )  # fmt: skip
    for start in range(0, len(ids), 64):
        warning = await sync_message_vectors(
            res.db, res.vectors, res.embedder, USER, ids[start : start + 64]
        )
        assert warning is None, warning
    return {
        s.split()[0].lower(): str(p.entity_id)
        for s, p in zip(conversation.speakers, people, strict=True)
    }


def request(question: str, now: str, limits: dict | None, entity_ids: list[str]) -> RetrieveRequest:
    body = {"user_id": USER, "agent_id": AGENT, "chat_id": CHAT, "message": question}
    body["entity_ids"] = entity_ids
    body |= {"now": now, "force": "open", **({"limits": limits} if limits else {})}
    return msgspec.convert(body, RetrieveRequest)


STAGES: dict[bool, list[dict[str, float]]] = {True: [], False: []}


ROUND = [3]
PEOPLE: dict[str, str] = {}


async def ask(res: Clients, question: str, now, before: bool) -> tuple[float, float]:
    share, spreading = fusion.SESSION_SHARE, spread.spread
    search, unnamed_share = standing.SEARCH, unnamed.SHARE
    named_period, crossing = period.named, across.asks_across
    query_vectors = pipeline.query_vectors
    if before and ROUND[0] == 5:
        pipeline.query_vectors = cpu_unnamed.before(res.db)
    if before and ROUND[0] == 2:
        fusion.SESSION_SHARE = 0.0
        spread.spread = lambda order, *a, **k: list(order)  # type: ignore[assignment]
    if before and ROUND[0] == 3:
        standing.SEARCH, unnamed.SHARE = 0, 0.0
    if before and ROUND[0] == 4:
        period.named = lambda *a, **k: None  # type: ignore[assignment]
    if before and ROUND[0] == 6:
        across.asks_across = lambda message: False  # type: ignore[assignment]
    named = [e for w, e in PEOPLE.items() if w in question.lower().split()]
    try:
        limits = BEFORE if before and ROUND[0] == 2 else AFTER or None
        req = request(question, now.isoformat(), limits, named)
        cpu, wall = time.process_time(), time.perf_counter()
        answer = await pipeline.retrieve(res.db, res.vectors, res.embedder, res.settings, req, now)
        took = time.process_time() - cpu, time.perf_counter() - wall
        STAGES[before].append(answer.timings)
        return took
    finally:
        fusion.SESSION_SHARE, spread.spread = share, spreading
        standing.SEARCH, unnamed.SHARE = search, unnamed_share
        period.named = named_period  # type: ignore[assignment]
        across.asks_across = crossing  # type: ignore[assignment]
        pipeline.query_vectors = query_vectors


async def run(conversation: data.Conversation, rounds: int) -> None:
    admin = await asyncpg.connect(ADMIN)
    await admin.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
    await admin.execute(f'CREATE DATABASE "{DATABASE}"')
    dsn = ADMIN.rsplit("/", 1)[0] + "/" + DATABASE
    await apply_migrations(dsn)
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            database_url=dsn, redis_url=REDIS[0], qdrant_path=folder,
            embedder="minilm", index_after_reply=False, index_sweep_s=0,
        )  # fmt: skip
        res = await Clients.open(settings, STORES)
        try:
            PEOPLE.update(await write(res, conversation))
            now = conversation.end + timedelta(days=1)
            questions = [q.text for q in conversation.questions]
            for q in questions[:5]:  # warm both paths
                await ask(res, q, now, True)
                await ask(res, q, now, False)
            got: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
            for n in range(rounds):
                for i, q in enumerate(questions):
                    first = (i + n) % 2 == 0  # alternate which goes first
                    for before in (first, not first):
                        got[before].append(await ask(res, q, now, before))
        finally:
            await res.close()
    await admin.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
    await admin.close()
    for before, label in ((True, "before"), (False, "after")):
        cpu = [c * 1000 for c, _ in got[before]]
        wall = [w * 1000 for _, w in got[before]]
        print(
            f"{label:6s} {len(cpu)} retrieves: CPU median {statistics.median(cpu):.2f} ms, "
            f"mean {statistics.mean(cpu):.2f} ms; wall median {statistics.median(wall):.2f} ms"
        )
        names = sorted({k for t in STAGES[before] for k in t})
        medians = {k: statistics.median(t.get(k, 0.0) for t in STAGES[before]) for k in names}
        print(
            "       stages, median wall ms: "
            + ", ".join(f"{k} {v:.2f}" for k, v in medians.items())
        )


def main() -> None:
    global DATABASE
    parser = argparse.ArgumentParser(prog="python -m bench.recall.cpu")
    parser.add_argument("--conversation", default="conv-26")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--after", default="", help='limits of "after", e.g. {"turns": {...}}')
    parser.add_argument("--round", type=int, default=3, choices=(2, 3, 4, 5, 6))
    parser.add_argument("--database", default=DATABASE)
    parser.add_argument("--redis-db", type=int, default=5)
    args = parser.parse_args()
    ROUND[0] = args.round
    REDIS[0] = f"redis://127.0.0.1:6379/{args.redis_db}"
    DATABASE = args.database
    if args.after:
        AFTER.update(json.loads(args.after))
    (conversation,) = [c for c in data.load() if c.sample_id == args.conversation]
    asyncio.run(run(conversation, args.rounds))


if __name__ == "__main__":
    main()
