"""A reflection-writer process SIGKILLed in the middle of writing an episode.

The hook point is reached deterministically without any test hook in the product: the test
holds a row lock on the session's todo, so the node's episode transaction — episode row already
inserted — blocks on linking that todo. The process is killed there. Postgres rolls the open
transaction back: no half-written episode, the checkpoint unmoved. The lease the dead worker
held expires (``TWIN_CONSOLIDATION_LEASE_S``, short here) and the next run completes the
session: one episode, one vector.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import asyncpg
import httpx
import pytest

from services.core.deps import Clients
from services.core.settings import Settings
from services.core.vectors import EdgeVectorIndex
from tests.e2e.processes import Process, free_port
from tests.reliability.helpers import PLAN, commit_body, later, rows, value

LEASE_S = 2


def _serve(settings: Settings, folder: Path, port: int, name: str) -> Process:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "TWIN_", "QDRANT_"))}
    env.update(
        {
            "DATABASE_URL": settings.database_url,
            "QDRANT_PATH": str(folder / "qdrant"),
            "TWIN_EMBEDDER": "hashing",
            "TWIN_LOG_JSON": "true",
            "TWIN_CONSOLIDATION_LEASE_S": str(LEASE_S),
        }
    )
    process = Process(
        name,
        [
            sys.executable,
            "-m",
            "services.cli",
            "serve",
            "reflection-writer",
            "--port",
            str(port),
        ],
        env,
        folder / f"{name}.log",
        cwd=Path(__file__).parents[2],
    )
    process.wait_until(
        lambda: httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200,
        timeout=60,
        what="ready",
    )
    return process


async def _blocked_backend(res: Clients) -> int:
    """The pid of the node's backend once it waits on our row lock, inside its transaction
    and after inserting the episode."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        pid = await value(
            res,
            """
            SELECT a.pid FROM pg_stat_activity a
             WHERE a.wait_event_type = 'Lock' AND a.query ILIKE '%UPDATE todos%'
               AND EXISTS (SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
                            WHERE l.pid = a.pid AND c.relname = 'episodes'
                              AND l.mode = 'RowExclusiveLock')""",
        )
        if pid:
            return pid
        await asyncio.sleep(0.05)
    raise TimeoutError("the node never reached the todo link inside its transaction")


async def _ended(res: Clients, backend: int) -> None:
    """Wait until Postgres has ended the dead client's backend (its transaction rolled back)."""
    for _ in range(400):
        if not await value(res, "SELECT count(*) FROM pg_stat_activity WHERE pid = $1", backend):
            return
        await asyncio.sleep(0.05)
    raise TimeoutError(f"backend {backend} still running")


async def test_a_writer_killed_mid_episode_leaves_nothing_half_written_and_the_next_run_completes(
    node, throwaway: Clients, throwaway_settings: Settings, tmp_path: Path, user_id: str
) -> None:
    async with node("memory-upserter", throwaway) as upserter:
        for i, text in enumerate(
            [
                "My sister Marta visits. I'll call her tomorrow.",
                "Work ran late and I skipped the gym.",
            ]
        ):
            answer = await upserter.post(
                "/v1/commit",
                json=commit_body(user_id, text, plan=PLAN if i == 0 else {}, at=later(i)),
            )
            assert answer.status_code == 200, answer.text
    session_id = await value(
        throwaway, "SELECT session_id::text FROM sessions WHERE user_id = $1", user_id
    )
    port = free_port()
    first = _serve(throwaway_settings, tmp_path, port, "writer-1")
    holder = await asyncpg.connect(throwaway_settings.database_url)
    try:
        blocker = holder.transaction()
        await blocker.start()
        await holder.execute(
            "SELECT 1 FROM todos WHERE session_id = $1::uuid FOR UPDATE", session_id
        )
        async with httpx.AsyncClient(timeout=30) as client:
            pending = asyncio.create_task(
                client.post(
                    f"http://127.0.0.1:{port}/v1/consolidate", json={"session_id": session_id}
                )
            )
            backend = await _blocked_backend(throwaway)
            os.killpg(first.proc.pid, signal.SIGKILL)
            with pytest.raises(httpx.TransportError):
                await pending
        await blocker.rollback()
        await _ended(throwaway, backend)
    finally:
        await holder.close()
        first.stop()

    [session] = await rows(
        throwaway,
        """SELECT checkpoint_message_seq, last_message_seq,
                                                needs_consolidation
                                           FROM sessions WHERE session_id = $1::uuid""",
        session_id,
    )
    assert session["needs_consolidation"] and not session["checkpoint_message_seq"]
    assert await value(throwaway, "SELECT count(*) FROM episodes WHERE user_id = $1", user_id) == 0
    assert (
        await value(
            throwaway,
            "SELECT count(*) FROM todos WHERE user_id = $1 AND episode_id IS NOT NULL",
            user_id,
        )
        == 0
    )

    second = _serve(throwaway_settings, tmp_path, port, "writer-2")
    try:
        done = await _consolidate_when_the_lease_is_gone(port, session_id)
    finally:
        second.stop()
    assert done["status"] == "created" and done["indexed"]
    episodes = await rows(
        throwaway,
        "SELECT episode_id::text, linked_todo_ids FROM episodes WHERE user_id = $1",
        user_id,
    )
    assert [e["episode_id"] for e in episodes] == [done["episode_id"]]
    assert len(episodes[0]["linked_todo_ids"]) == 1
    assert (
        await value(
            throwaway,
            "SELECT checkpoint_message_seq FROM sessions WHERE session_id = $1::uuid",
            session_id,
        )
        == session["last_message_seq"]
    )
    index = EdgeVectorIndex(tmp_path / "qdrant", dim=throwaway_settings.embedding_dim)
    try:
        assert await index.count("episodes", user_id=user_id) == 1
    finally:
        await index.close()


async def _consolidate_when_the_lease_is_gone(port: int, session_id: str) -> dict:
    """Retry as a scheduler would: the dead worker's lease blocks the session until it ends."""
    reasons = []
    async with httpx.AsyncClient(timeout=30) as client:
        for _ in range(LEASE_S * 10 + 50):
            answer = (
                await client.post(
                    f"http://127.0.0.1:{port}/v1/consolidate", json={"session_id": session_id}
                )
            ).json()
            if answer["sessions"]:
                assert set(reasons) <= {"locked"}, reasons
                return answer["sessions"][0]
            reasons += [s["reason"] for s in answer["skipped"]]
            await asyncio.sleep(0.2)
    raise AssertionError(f"never consolidated: {reasons}")
