"""A hard forget leaves the forgotten content nowhere: no Postgres row (every text and jsonb
column of every table), no vector payload or indexed text, no Redis key or value, no log line —
and no byte in any file: the Qdrant Edge folder (WAL and segments) and the throwaway Postgres
cluster's data files (heap, TOAST and index pages of every table) are searched byte by byte.

The content is a made-up name no other test uses, so a search of the whole database, the
whole throwaway Redis, every captured log line and every file for it is exact. The vector
index holds no text but the hashed BM25 term ids of it: every Qdrant file is searched for the
name's term ids too, in each encoding Edge writes them (the log's CBOR and big-endian, the
segments' little-endian). The planner statistics (``pg_statistic``, which ANALYZE fills with
sample values) are read as rows and as the catalog's files. Postgres' own write-ahead log
(``pg_wal``) is left out: it keeps the deleted rows until its segments are recycled, as the
deletion receipt says.
"""

from __future__ import annotations

import logging
import random
import string
import struct
import subprocess
from pathlib import Path

import msgspec
import pytest
import structlog
from structlog.testing import capture_logs

from services.core.deps import Clients
from services.core.settings import Settings
from services.core.vectors import COLLECTIONS
from services.core.vectors.layout import SparseEncoder
from tests.reliability.helpers import AGENT, CHAT, commit_body, later, rows
from tests.reliability.servers import PostgresServer


def _made_up_name() -> str:
    letters = random.Random().choices(string.ascii_lowercase, k=7)
    return "Zq" + "".join(letters)


async def _columns(res: Clients) -> list[tuple[str, str]]:
    found = await rows(
        res,
        """
        SELECT table_name, column_name FROM information_schema.columns
         WHERE table_schema = 'public'
           AND data_type IN ('text', 'character varying', 'jsonb', 'json', 'ARRAY', 'tsvector')
         ORDER BY table_name, column_name""",
    )
    return [(r["table_name"], r["column_name"]) for r in found]


async def _postgres_holding(res: Clients, needle: str) -> list[str]:
    holding = []
    async with res.db.acquire() as conn:
        for table, column in await _columns(res):
            hits = await conn.fetchval(
                f'SELECT count(*) FROM "{table}" WHERE "{column}"::text ILIKE $1', f"%{needle}%"
            )
            if hits:
                holding.append(f"{table}.{column} ({hits})")
    return holding


async def _vectors_holding(res: Clients, user_id: str, needle: str) -> list[str]:
    holding = []
    for collection in COLLECTIONS:
        found = await res.vectors.search(
            collection,
            user_id=user_id,
            text=needle,
            agent_id=AGENT,
            include_inactive=True,
            limit=50,
        )
        holding += [f"{collection}: indexed text of {h.id}" for h in found]
        holding += [
            f"{collection}: payload of {h.id}"
            for h in found
            if needle.lower() in msgspec.json.encode(h.payload).decode().lower()
        ]
    return holding


async def _redis_holding(res: Clients, needle: str) -> list[str]:
    holding = []
    async for key in res.redis.scan_iter(count=500):
        kind = (await res.redis.type(key)).decode()
        if kind == "string":
            body = await res.redis.get(key) or b""
        elif kind == "hash":
            body = msgspec.json.encode(
                {k.decode(): v.decode() for k, v in (await res.redis.hgetall(key)).items()}
            )
        else:
            body = (
                msgspec.json.encode([v.decode() for v in await res.redis.lrange(key, 0, -1)])
                if kind == "list"
                else b""
            )
        if needle.lower() in (key + body).decode(errors="replace").lower():
            holding.append(key.decode(errors="replace"))
    return holding


async def _remember(node, res: Clients, user_id: str, name: str) -> list[dict]:
    """Every write path the name can take: a planned turn, a judged turn, the pulse, the
    fast brain's reads, an episode consolidated from the session."""
    plan = {
        "entities": [{"name": name, "category": "Person", "aliases": [name + "ka"]}],
        "facts": [
            {
                "memory_type": "PEOPLE",
                "subject": name,
                "predicate": "LIVES_IN",
                "value": "Porto",
                "text": f"{name} lives in Porto",
            }
        ],
        "todos": [
            {
                "kind": "COMMITMENT",
                "text": f"Call {name}",
                "due": "friday",
                "source_snippet": f"remind me to call {name} on Friday",
            }
        ],
    }
    async with node("pulse-decay", res) as pulse:
        assert (
            await pulse.post(
                "/v1/pulse",
                json={
                    "user_id": user_id,
                    "agent_id": AGENT,
                    "chat_id": CHAT,
                    "message": f"My friend {name} moved to Porto",
                },
            )
        ).status_code == 200
    bodies = [
        commit_body(
            user_id,
            text,
            plan=turn_plan,
            at=later(i),
            reply=f"Good to hear about {name}!" if i < 2 else "Noted.",
        )
        for i, (text, turn_plan) in enumerate(
            [
                (f"My friend {name} moved to Porto. Remind me to call {name} on Friday.", plan),
                (f"{name} started a new job at the bakery, and {name} loves it.", None),
                ("I also need to buy running shoes.", {}),
            ]
        )
    ]
    async with node("memory-upserter", res) as upserter:
        for body in bodies:
            answer = await upserter.post("/v1/commit", json=body)
            assert answer.status_code == 200, answer.text
    async with node("graph-hydrator", res) as hydrator:
        assert (
            await hydrator.post(
                "/v1/hydrate",
                json={
                    "user_id": user_id,
                    "agent_id": AGENT,
                    "chat_id": CHAT,
                    "message": f"How is {name}?",
                },
            )
        ).status_code == 200
    async with node("rag-gate", res) as gate:
        assert (
            await gate.post(
                "/v1/retrieve",
                json={
                    "user_id": user_id,
                    "agent_id": AGENT,
                    "chat_id": CHAT,
                    "force": "open",
                    "message": f"what did {name} say?",
                    "now": later(200).isoformat(),
                },
            )
        ).status_code == 200
    async with node("reflection-writer", res) as writer:
        done = await writer.post(
            "/v1/consolidate", json={"user_id": user_id, "now": later(120).isoformat()}
        )
        assert done.status_code == 200 and done.json()["totals"]["episodes_created"] == 1
    return bodies


async def test_a_hard_forget_leaves_the_content_in_no_row_point_key_or_log_line(
    node, throwaway: Clients, user_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    name = _made_up_name()
    caplog.set_level(logging.DEBUG)
    with capture_logs() as events:
        bodies = await _remember(node, throwaway, user_id, name)
        await throwaway.background.drain()  # the turns' vectors are written after the reply
        assert await _postgres_holding(throwaway, name), "the scenario stored the name"
        assert await _vectors_holding(throwaway, user_id, name)
        assert await _redis_holding(throwaway, name)

        async with node("memory-upserter", throwaway) as upserter:
            forgotten = await upserter.post(
                "/v1/forget",
                json={
                    "user_id": user_id,
                    "scope": "global",
                    "targets": [{"entity": name}],
                    "hard": True,
                    "reason": "user asked",
                },
            )
            assert forgotten.status_code == 200, forgotten.text
            assert forgotten.json()["counts"]["entities"] == 1
            # n8n retrying a forgotten turn late must not write it back
            for body in bodies[:2]:
                assert (await upserter.post("/v1/commit", json=body)).status_code == 409

    assert await _postgres_holding(throwaway, name) == []
    assert await _vectors_holding(throwaway, user_id, name) == []
    assert await _redis_holding(throwaway, name) == []
    lines = [structlog.processors.JSONRenderer()(None, "", dict(e)) for e in events]
    lines += [caplog.text]
    assert events and not [line for line in lines if name.lower() in line.lower()]
    # the rest of the user's memory is still there
    kept = await rows(throwaway, "SELECT text FROM messages WHERE user_id = $1", user_id)
    assert "I also need to buy running shoes." in [k["text"] for k in kept]


def _files_holding(root: Path, needle: str, *, skip: tuple[str, ...] = ()) -> list[str]:
    """Every file under ``root`` holding ``needle`` in any letter case, as raw bytes."""
    found = subprocess.run(
        ["grep", "-rlaiF", needle, str(root)], capture_output=True, text=True, check=False
    )
    assert found.returncode in (0, 1), found.stderr  # 1: no file holds it
    paths = [Path(p).relative_to(root).as_posix() for p in found.stdout.splitlines()]
    return [p for p in paths if not p.startswith(skip)]


def _term_hashes_holding(root: Path, word: str) -> list[str]:
    """Every file under ``root`` holding one of the BM25 term ids of ``word``, in any of the
    encodings Edge stores a sparse vector's indices with."""
    held = []
    for term in SparseEncoder().document(word).indices:
        encodings = (struct.pack("<I", term), struct.pack(">I", term))
        held += [
            f"{path.relative_to(root).as_posix()} (term {term})"
            for path in sorted(root.rglob("*"))
            if path.is_file() and any(e in path.read_bytes() for e in encodings)
        ]
    return held


async def _statistics_holding(res: Clients, needle: str) -> list[str]:
    """The planner statistics rows (every table's) whose sample values hold ``needle``."""
    found = await rows(
        res,
        """SELECT s.starelid::regclass::text AS tab FROM pg_statistic s
            WHERE concat_ws(' ', s.stavalues1::text, s.stavalues2::text, s.stavalues3::text,
                            s.stavalues4::text, s.stavalues5::text) ILIKE $1""",
        f"%{needle}%",
    )
    return sorted(r["tab"] for r in found)


async def _everything_on_disk(res: Clients) -> None:
    """Shared buffers to the data files (a dirty page not yet written would hide bytes)."""
    async with res.db.acquire() as conn:
        await conn.execute("CHECKPOINT")


async def test_a_hard_forget_leaves_no_byte_of_the_content_in_any_file(
    node,
    throwaway: Clients,
    throwaway_settings: Settings,
    pg_server: PostgresServer,
    user_id: str,
) -> None:
    name = _made_up_name()
    qdrant = Path(throwaway_settings.qdrant_path)
    await _remember(node, throwaway, user_id, name)
    await throwaway.background.drain()
    await _everything_on_disk(throwaway)
    assert _files_holding(pg_server.data, name, skip=("pg_wal/",)), (
        "the search finds the name in the table files before the forget"
    )
    assert _term_hashes_holding(qdrant, name), "and its term ids in the vector index's files"
    assert _files_holding(qdrant, name) == [], "the vector index never holds the text"

    async with node("memory-upserter", throwaway) as upserter:
        forgotten = await upserter.post(
            "/v1/forget",
            json={
                "user_id": user_id,
                "scope": "global",
                "targets": [{"entity": name}],
                "hard": True,
                "reason": "user asked",
            },
        )
    assert forgotten.status_code == 200, forgotten.text
    receipt = forgotten.json()["receipt"]
    await throwaway.background.drain(within_s=70)  # a table it could not lock at once
    await _everything_on_disk(throwaway)

    assert _files_holding(pg_server.data, name, skip=("pg_wal/",)) == []
    assert _files_holding(pg_server.root, name, skip=("data/",)) == []  # the server's log
    assert _files_holding(qdrant, name) == []
    assert _term_hashes_holding(qdrant, name) == []
    assert receipt["hard"] and receipt["rows"]["relations"] >= 1
    assert receipt["rows"]["entities"] == 1 and receipt["rows"]["messages"] >= 2
    assert receipt["points"]["facts"] >= 1 and receipt["redis_keys_rewritten"] >= 1
    assert set(receipt["vectors_rewritten"]) >= {"facts", "messages"}
    assert set(receipt["rows"]) - {"entity_aliases"} <= set(receipt["compacted"])
    assert receipt["compaction_pending"] == []
    assert {r["where"] for r in receipt["remains"]} >= {"postgres_wal", "backups"}


async def test_a_hard_forget_of_a_text_leaves_no_byte_of_it_in_any_file(
    node,
    throwaway: Clients,
    throwaway_settings: Settings,
    pg_server: PostgresServer,
    user_id: str,
) -> None:
    """The auditor's case: a fact's words, forgotten as a text (not as an entity)."""
    word = _made_up_name().lower()
    qdrant = Path(throwaway_settings.qdrant_path)
    async with node("pulse-decay", throwaway) as pulse:
        assert (
            await pulse.post(
                "/v1/pulse",
                json={
                    "user_id": user_id,
                    "agent_id": AGENT,
                    "chat_id": CHAT,
                    "message": f"My locker code word is {word}",
                },
            )
        ).status_code == 200
    async with node("memory-upserter", throwaway) as upserter:
        answer = await upserter.post(
            "/v1/commit",
            json=commit_body(
                user_id,
                f"My locker code word is {word}.",
                at=later(1),
                plan={
                    "facts": [
                        {
                            "memory_type": "PROFILE",
                            "subject": "user",
                            "predicate": "LOCKER_CODE",
                            "value": word,
                            "text": f"Locker code word is {word}",
                        }
                    ]
                },
            ),
        )
        assert answer.status_code == 200, answer.text
    await throwaway.background.drain()
    await _everything_on_disk(throwaway)
    assert _files_holding(pg_server.data, word, skip=("pg_wal/",))
    assert _files_holding(qdrant, word) == []

    async with node("memory-upserter", throwaway) as upserter:
        forgotten = await upserter.post(
            "/v1/forget",
            json={"user_id": user_id, "scope": "global", "targets": [{"text": word}], "hard": True},
        )
    assert forgotten.status_code == 200, forgotten.text
    assert forgotten.json()["receipt"]["rows"]["relations"] == 1
    await throwaway.background.drain(within_s=70)
    await _everything_on_disk(throwaway)
    assert _files_holding(pg_server.data, word, skip=("pg_wal/",)) == []
    assert _files_holding(qdrant, word) == []
    assert await _postgres_holding(throwaway, word) == []
    assert await _redis_holding(throwaway, word) == []


async def test_a_hard_forget_leaves_no_sample_in_the_planner_statistics(
    node,
    throwaway: Clients,
    pg_server: PostgresServer,
    user_id: str,
) -> None:
    """ANALYZE copies sample values into pg_statistic; after the forget no row holds the text
    and no file of the cluster (the catalog's included) holds it either."""
    word = _made_up_name().lower()
    async with node("memory-upserter", throwaway) as upserter:
        for i, text in enumerate([f"My travel alias is {word}.", "Nothing else.", "Hi there."]):
            answer = await upserter.post("/v1/commit", json=commit_body(user_id, text, at=later(i)))
            assert answer.status_code == 200, answer.text
    await throwaway.background.drain()
    async with throwaway.db.acquire() as conn:
        await conn.execute("ANALYZE messages, idempotency_keys")
    assert "messages" in await _statistics_holding(throwaway, word), "ANALYZE sampled it"

    async with node("memory-upserter", throwaway) as upserter:
        forgotten = await upserter.post(
            "/v1/forget",
            json={"user_id": user_id, "scope": "global", "targets": [{"text": word}], "hard": True},
        )
    assert forgotten.status_code == 200, forgotten.text
    receipt = forgotten.json()["receipt"]
    await throwaway.background.drain(within_s=70)
    await _everything_on_disk(throwaway)
    assert await _statistics_holding(throwaway, word) == []
    assert _files_holding(pg_server.data, word, skip=("pg_wal/",)) == []
    assert {"messages", "idempotency_keys"} <= set(receipt["analyzed"])
    assert "postgres_statistics" not in {r["where"] for r in receipt["remains"]}
