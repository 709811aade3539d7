"""The rewrite after a hard forget, and the receipt that reports it.

The byte-level proof (no file holds the forgotten text afterwards) is in
tests/reliability/test_forget_complete.py, against a Postgres cluster whose files the test can
read; here: which tables are rewritten when, what happens to a table whose lock is busy or that
is too large to rewrite inside the request, and the receipt's shape.
"""

from __future__ import annotations

import time

import httpx
import pytest
from structlog.testing import capture_logs

from services.core.deps import Clients
from services.memory_upserter.forget import compact as compaction
from services.memory_upserter.forget.receipt import (
    kept,
    points_per_collection,
    receipt,
    rows_per_table,
)
from tests.memory_upserter.conftest import rows
from tests.memory_upserter.forget.test_forget import forget, remember_marta


async def test_a_hard_forget_rewrites_the_tables_it_touched_and_says_so(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await remember_marta(client, resources, user_id)
    answer = await forget(
        client, user_id=user_id, scope="global", hard=True, targets=[{"entity": "Marta"}]
    )
    done = answer["receipt"]
    assert done["rows"]["relations"] == 2 and done["rows"]["entities"] == 1
    assert done["rows"]["todos"] == 1 and done["rows"]["episodes"] == 1
    assert done["points"] == {"episodes": 1, "facts": 2}  # the message is redacted, not gone
    assert done["rows"]["messages"] == 1 and answer["counts"]["messages_redacted"] == 1
    assert done["compacted"] == sorted(done["rows"]) and done["compaction_pending"] == []
    assert done["analyzed"] == sorted(done["rows"])
    assert done["vectors_rewritten"] == ["episodes", "facts", "messages"]
    assert done["redis_keys_deleted"] == 0 and done["redis_keys_rewritten"] >= 1
    assert [r["where"] for r in done["remains"]] == [
        "forget_log",
        "postgres_wal",
        "backups",
        "redis_persistence",
    ]
    assert answer["counts"]["facts"] == 2  # the 1.2 field stays as it was


async def test_a_soft_forget_rewrites_nothing_and_says_the_rows_remain_hidden(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await remember_marta(client, resources, user_id)
    done = (await forget(client, user_id=user_id, scope="global", targets=[{"entity": "Marta"}]))[
        "receipt"
    ]
    assert not done["hard"] and done["compacted"] == [] and done["rows"]["relations"] == 2
    assert done["redis_keys_rewritten"] >= 1 and done["redis_keys_deleted"] == 0
    assert [r["where"] for r in done["remains"]] == ["soft_forgotten_rows", "forget_log"]


async def test_forgetting_everything_counts_every_table_of_the_person_from_the_schema(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await remember_marta(client, resources, user_id)
    async with resources.db.acquire() as conn:
        tables = await compaction.user_tables(conn)
        held = {
            t: await conn.fetchval(f'SELECT count(*) FROM "{t}" WHERE user_id = $1', user_id)
            for t in tables
            if t != "forget_log"
        }
    done = (await forget(client, user_id=user_id, scope="global", everything=True, hard=True))[
        "receipt"
    ]
    assert done["rows"] == {t: n for t, n in held.items() if n}
    assert set(done["compacted"]) | set(done["compaction_pending"]) == set(done["rows"])


async def test_a_table_whose_lock_is_busy_is_rewritten_in_the_background_once_free(
    resources: Clients,
) -> None:
    holder = await resources.db.acquire()
    try:
        transaction = holder.transaction()
        await transaction.start()
        await holder.execute("LOCK TABLE todos IN ACCESS SHARE MODE")  # as a reading turn does
        done, pending = await compaction.compact(resources.db, ["todos", "summary_spine"])
        assert (done, pending) == (["summary_spine"], ["todos"])
        await transaction.rollback()
    finally:
        await resources.db.release(holder)
    with capture_logs() as events:
        await compaction.finish_later(resources.db, pending, started=time.monotonic())
    assert [e["tables"] for e in events if e["event"] == "forget_compacted"] == [["todos"]]


async def test_a_table_over_the_inline_size_is_left_for_the_background(
    resources: Clients,
) -> None:
    done, pending = await compaction.compact(resources.db, ["messages", "todos"], inline_bytes=0)
    assert (done, pending) == ([], ["messages", "todos"])


async def test_only_tables_of_person_data_are_rewritten(resources: Clients) -> None:
    with pytest.raises(ValueError, match="person data"):
        await compaction.compact(resources.db, ["schema_migrations"])
    with pytest.raises(ValueError, match="person data"):
        await compaction.compact(resources.db, ['todos"; DROP TABLE users; --'])


def test_counts_become_rows_per_table_and_points_per_collection() -> None:
    counts = {
        "facts": 2,
        "aliases": 1,
        "entities": 1,
        "stored_answers": 1,
        "summaries": 0,
        "facts_vectors": 2,
        "messages_vectors_rewritten": 3,
        "working_memory": 1,
        "snippets": 1,
    }
    assert rows_per_table(counts) == {
        "relations": 2,
        "entity_aliases": 1,
        "entities": 1,
        "idempotency_keys": 1,
        "todos": 1,
    }
    assert points_per_collection(counts) == {"facts": 2}
    assert compaction.touched_tables({"relations": 2, "forget_log": 1, "todos": 0}) == ["relations"]


def test_a_receipt_never_quotes_content_and_lists_what_remains() -> None:
    done = receipt(
        hard=True,
        rows={"relations": 1, "todos": 0},
        points={"facts": 1},
        redis_deleted=2,
        redis_rewritten=0,
        compacted=["relations"],
        statistics_left=True,
        vectors_left=True,
        kept=kept({"facts_trimmed": 2, "entities_kept": 0}),
    )
    assert done.rows == {"relations": 1} and done.compacted == ["relations"]
    assert [r.where for r in done.remains] == [
        "relations",
        "forget_log",
        "postgres_wal",
        "backups",
        "redis_persistence",
        "postgres_statistics",
        "vector_index",
    ]
    assert done.remains[0].what.startswith("2 facts also learned from messages that stay")


async def test_the_seed_text_and_summaries_that_name_what_is_forgotten_go_with_it(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    seeded = await client.post(
        "/v1/profile",
        json={"user_id": user_id, "seed_text": "I live in Porto with my sister Martinha."},
    )
    assert seeded.status_code == 200, seeded.text
    await remember_marta(client, resources, user_id)
    async with resources.db.acquire() as conn:  # as reflection-writer writes the spine
        await conn.executemany(
            "INSERT INTO summary_spine (user_id, version, content, text) VALUES ($1, $2, $3, $4)",
            [
                (user_id, 1, {"PEOPLE": ["Marta: sister"]}, "Lives in Porto."),
                (user_id, 2, {"PEOPLE": []}, "Lives in Porto; likes surfing."),
            ],
        )
    done = (
        await forget(
            client, user_id=user_id, scope="global", hard=True, targets=[{"entity": "Marta"}]
        )
    )["receipt"]
    assert done["rows"]["user_seeds"] == 1 and done["rows"]["summary_spine"] == 1
    assert {"user_seeds", "summary_spine"} <= set(done["compacted"])
    assert await rows(resources, "SELECT 1 FROM user_seeds WHERE user_id = $1", user_id) == []
    assert [
        r["version"]
        for r in await rows(
            resources, "SELECT version FROM summary_spine WHERE user_id = $1", user_id
        )
    ] == [2]
