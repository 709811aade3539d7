"""Where a hard-forgotten text survives on disk, and what rewriting the touched tables costs.

    uv run python -m bench.forget            # --rows 100000,400000 to change sizes

Three measurements, written to the ``forget`` section of bench/RESULTS.md:

1. Qdrant Edge: a point whose payload holds a text is deleted, then the shard is flushed,
   optimized and closed — which files still hold the text (the product's payloads hold none).
2. Postgres (a throwaway cluster of its own, tests/reliability/servers.py): a row is deleted,
   then ``CHECKPOINT``, ``VACUUM``, ``VACUUM FULL`` — which data files still hold the text.
3. ``VACUUM (FULL) messages`` — the rewrite a hard forget runs, under the table's exclusive
   lock — against the table's size, on the shared Postgres (database ``twin_bench_forget``,
   dropped and recreated), and one hard forget through memory-upserter's app at that size.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import asyncpg
import httpx
import qdrant_edge as qe

from bench.common import (
    REDIS_BASE,
    drop_database,
    dsn_for,
    machine,
    machine_line,
    table,
    write_section,
)
from services.core.app import create_app
from services.core.deps import STORES, Clients
from services.core.migrate import apply_migrations
from services.core.settings import Settings
from services.memory_upserter.app import SPEC
from tests.reliability.servers import PostgresServer

NEEDLE = "Zqforgetbench"
DATABASE = "twin_bench_forget"


def holding(root: Path, skip: tuple[str, ...] = ()) -> list[str]:
    found = subprocess.run(
        ["grep", "-rlaF", NEEDLE, str(root)], capture_output=True, text=True, check=False
    ).stdout.split()
    paths = [
        re.sub(r"segments/[0-9a-f-]{36}", "segments/<id>", Path(p).relative_to(root).as_posix())
        for p in found
    ]
    return [p for p in paths if not p.startswith(skip)] or ["—"]


def edge_files() -> list[tuple[str, str]]:
    root = Path(tempfile.mkdtemp(prefix="twin-bench-edge-"))
    config = qe.EdgeConfig(
        vectors={"dense": qe.EdgeVectorParams(size=4, distance=qe.Distance.Cosine)}
    )
    shard = qe.EdgeShard.create(str(root), config)
    pid = str(uuid.uuid4())
    shard.update(
        qe.UpdateOperation.upsert_points(
            [
                qe.Point(
                    pid, {"dense": [0.1, 0.2, 0.3, 0.4]}, {"user_id": "u", "text": f"code {NEEDLE}"}
                )
            ]
        )
    )
    shard.flush()
    steps = [("upserted + flushed", holding(root))]
    shard.update(qe.UpdateOperation.delete_points([pid]))
    steps.append(("deleted", holding(root)))
    shard.flush()
    shard.optimize()
    steps.append(("+ flush + optimize", holding(root)))
    shard.close()
    steps.append(("+ close", holding(root)))
    subprocess.run(["rm", "-rf", str(root)], check=False)
    return [(step, ", ".join(files)) for step, files in steps]


async def postgres_files() -> list[tuple[str, str]]:
    server = PostgresServer()
    await asyncio.to_thread(server.init)
    await asyncio.to_thread(server.start)
    try:
        conn = await asyncpg.connect(server.admin_url)
        await conn.execute("CREATE TABLE t (id int PRIMARY KEY, body text)")
        await conn.execute("CREATE INDEX ON t (body)")
        await conn.executemany(
            "INSERT INTO t VALUES ($1, $2)", [(i, f"filler {i}") for i in range(5000)]
        )
        await conn.execute("INSERT INTO t VALUES (-1, $1)", f"Locker code word is {NEEDLE}")
        steps = []
        for step, sql in (
            ("inserted + CHECKPOINT", None),
            ("DELETE + CHECKPOINT", "DELETE FROM t WHERE id < 0"),
            ("+ VACUUM + CHECKPOINT", "VACUUM t"),
            ("+ VACUUM FULL + CHECKPOINT", "VACUUM (FULL) t"),
        ):
            if sql:
                await conn.execute(sql)
            await conn.execute("CHECKPOINT")
            files = holding(server.data)
            steps.append(
                (
                    step,
                    ", ".join(
                        f.split("/")[0] + "/…" if f != "—" else f for f in dict.fromkeys(files)
                    ),
                )
            )
        await conn.close()
        return steps
    finally:
        await asyncio.to_thread(server.remove)


async def rewrite_cost(sizes: list[int]) -> list[tuple]:
    await drop_database(DATABASE)
    admin = await asyncpg.connect(dsn_for("postgres"))
    await admin.execute(f'CREATE DATABASE "{DATABASE}"')
    await admin.close()
    await apply_migrations(dsn_for(DATABASE))
    settings = Settings(
        database_url=dsn_for(DATABASE),
        redis_url=f"{REDIS_BASE}/13",
        qdrant_path=tempfile.mkdtemp(prefix="twin-bench-forget-"),
        embedder="hashing",
        index_after_reply=False,
    )
    res = await Clients.open(settings, STORES)
    out = []
    try:
        conn = await asyncpg.connect(dsn_for(DATABASE))  # no command timeout, unlike the pool
        for size in sizes:
            have = await conn.fetchval("SELECT count(*) FROM messages")
            await _fill(conn, have, size - have)
            mib = await conn.fetchval("SELECT pg_total_relation_size('messages') / 1048576.0")
            started = time.perf_counter()
            await conn.execute("VACUUM (FULL) messages")
            vacuum_s = time.perf_counter() - started
            forget_s, done, later_s = await _one_forget(settings, res)
            out.append(
                (
                    f"{size:,}",
                    f"{mib:.0f}",
                    f"{vacuum_s:.2f}",
                    f"{forget_s:.2f}",
                    ", ".join(done["compacted"]) or "—",
                    ", ".join(done["compaction_pending"]) or "—",
                    f"{later_s:.2f}",
                )
            )
        await conn.close()
    finally:
        await res.close()
        await drop_database(DATABASE)
    return out


async def _fill(conn: asyncpg.Connection, start: int, rows: int) -> None:
    await conn.execute(
        "INSERT INTO users (user_id) SELECT 'bulk' || g FROM generate_series(0, "
        "999) g ON CONFLICT DO NOTHING"
    )
    await conn.execute("INSERT INTO agents (agent_id) VALUES ('deanna') ON CONFLICT DO NOTHING")
    await conn.execute(
        """INSERT INTO sessions (session_id, user_id, agent_id, chat_id, started_at,
                                 last_activity_at)
           SELECT gen_random_uuid(), 'bulk' || g, 'deanna', 'c', now(), now()
             FROM generate_series(0, 999) g
            WHERE NOT EXISTS (SELECT 1 FROM sessions WHERE user_id = 'bulk' || g)"""
    )
    await conn.execute(
        """INSERT INTO messages (message_id, user_id, agent_id, chat_id, session_id, turn_id,
                                 position, role, text, ts)
           SELECT gen_random_uuid(), s.user_id, 'deanna', 'c', s.session_id,
                  'b' || g, 0, 'user', repeat('some message about the day ', 4) || g, now()
             FROM generate_series($1 + 1, $1 + $2) g
             JOIN sessions s ON s.user_id = 'bulk' || (g % 1000)""",
        start,
        rows,
    )


async def _one_forget(settings: Settings, res: Clients) -> tuple[float, dict, float]:
    user = f"forgetter-{uuid.uuid4().hex[:8]}"
    transport = httpx.ASGITransport(app=create_app(SPEC, settings, res))
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
        answer = await client.post(
            "/v1/commit",
            json={
                "user_id": user,
                "agent_id": "deanna",
                "chat_id": "c",
                "turn_id": "t1",
                "messages": [{"role": "user", "text": f"My locker code word is {NEEDLE}."}],
                "plan": {},
            },
        )
        assert answer.status_code == 200, answer.text
        started = time.perf_counter()
        answer = await client.post(
            "/v1/forget",
            json={"user_id": user, "scope": "global", "targets": [{"text": NEEDLE}], "hard": True},
        )
        elapsed = time.perf_counter() - started
        await res.background.drain(within_s=70)  # the rewrites left for after the answer
        finished = time.perf_counter() - started
    assert answer.status_code == 200, answer.text
    return elapsed, answer.json()["receipt"], finished


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", default="100000,400000")
    args = parser.parse_args()
    info = machine()
    edge = edge_files()
    pg = await postgres_files()
    cost = await rewrite_cost([int(n) for n in args.rows.split(",")])
    body = "\n\n".join(
        [
            "## Forget: where a deleted text survives, and the rewrite that removes it "
            "(`bench/forget.py`)",
            machine_line(info),
            f"Command: `uv run python -m bench.forget --rows {args.rows}`",
            "### Qdrant Edge: files holding a deleted point's payload text\n\n"
            + table(["step", "files holding the text"], edge),
            "### Postgres: data files holding a deleted row's text (throwaway cluster)\n\n"
            + table(["step", "files holding the text"], pg),
            "### Rewriting `messages` (VACUUM FULL, exclusive lock) and one hard forget, "
            "shared Postgres\n\n"
            + table(
                [
                    "messages rows",
                    "table + indexes MiB",
                    "VACUUM FULL s",
                    "hard forget answered after s",
                    "rewritten before the answer",
                    "rewritten after it",
                    "all rewritten after s",
                ],
                cost,
            ),
        ]
    )
    print(body)
    write_section("forget", body)


if __name__ == "__main__":
    asyncio.run(main())
