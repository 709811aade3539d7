"""Every kind of hard forget leaves nothing of the forgotten text in any file Twin Core owns.

For each kind — a session, a chat and a message with their history, an agent's and a user's
everything — a made-up name goes through every write path (:func:`_remember`), the forget
runs through HTTP, and then every file is read: each Postgres table and catalog file of the
throwaway cluster (``pg_statistic`` as rows too, after an ANALYZE that sampled the name),
the server's log, every file of the Qdrant Edge folder (for the text and for the name's BM25
term ids in each encoding Edge writes), and every Redis key and value. Nothing may be found
beyond what the receipt names with its bound: Postgres' write-ahead log (``pg_wal``) and a
persisting Redis' snapshot are named there and left out here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from services.core.deps import Clients
from services.core.settings import Settings
from tests.reliability.helpers import AGENT, CHAT, rows
from tests.reliability.servers import PostgresServer
from tests.reliability.test_forget_complete import (
    _everything_on_disk,
    _files_holding,
    _made_up_name,
    _postgres_holding,
    _redis_holding,
    _remember,
    _statistics_holding,
    _term_hashes_holding,
    _vectors_holding,
)

NAMED_REMAINS = {"postgres_wal", "backups", "redis_persistence", "forget_log"}


async def _message_ids(res: Clients, user_id: str, name: str) -> list[str]:
    found = await rows(
        res,
        "SELECT message_id::text AS id FROM messages WHERE user_id = $1 AND text ILIKE $2",
        user_id,
        f"%{name}%",
    )
    return [r["id"] for r in found]


async def _request(kind: str, res: Clients, user_id: str, name: str) -> dict[str, Any]:
    """The forget of this kind, as a person's client sends it."""
    body: dict[str, Any] = {"user_id": user_id, "hard": True, "reason": "user asked"}
    if kind in ("session", "chat"):
        return {**body, "scope": kind, "agent_id": AGENT, "chat_id": CHAT, "include_history": True}
    if kind == "message":
        ids = await _message_ids(res, user_id, name)
        return {**body, "scope": "global", "targets": [{"message_id": i} for i in ids]}
    if kind == "agent":
        return {**body, "scope": "agent", "agent_id": AGENT, "everything": True}
    return {**body, "scope": "global", "everything": True}


@pytest.mark.parametrize("kind", ["session", "chat", "message", "global"])
async def test_each_hard_forget_leaves_no_byte_of_the_text_in_any_file(
    node,
    throwaway: Clients,
    throwaway_settings: Settings,
    pg_server: PostgresServer,
    user_id: str,
    kind: str,
) -> None:
    name = _made_up_name()
    qdrant = Path(throwaway_settings.qdrant_path)
    await _remember(node, throwaway, user_id, name)
    await throwaway.background.drain()
    async with throwaway.db.acquire() as conn:
        await conn.execute("ANALYZE messages, relations, idempotency_keys")
    await _everything_on_disk(throwaway)
    assert _files_holding(pg_server.data, name, skip=("pg_wal/",))
    assert _term_hashes_holding(qdrant, name)
    assert await _redis_holding(throwaway, name)

    async with node("memory-upserter", throwaway) as upserter:
        body = await _request(kind, throwaway, user_id, name)
        forgotten = await upserter.post("/v1/forget", json=body)
    assert forgotten.status_code == 200, forgotten.text
    receipt = forgotten.json()["receipt"]
    await throwaway.background.drain(within_s=70)  # a table it could not lock at once
    await _everything_on_disk(throwaway)

    assert await _postgres_holding(throwaway, name) == []
    assert await _statistics_holding(throwaway, name) == []
    assert _files_holding(pg_server.data, name, skip=("pg_wal/",)) == []
    assert _files_holding(pg_server.root, name, skip=("data/",)) == []  # the server's log
    assert await _vectors_holding(throwaway, user_id, name) == []
    assert _files_holding(qdrant, name) == []
    assert _term_hashes_holding(qdrant, name) == []
    assert await _redis_holding(throwaway, name) == []
    remains = {r["where"] for r in receipt["remains"]}
    assert {"postgres_wal", "backups"} <= remains
    assert remains - NAMED_REMAINS <= {"entities", "relations"}  # kept: named elsewhere
    assert receipt["compaction_pending"] == []
