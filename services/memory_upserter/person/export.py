"""``GET /v1/export``: everything Twin Core holds about one person, as one JSON document.

For data-access and portability requests. The document::

    {"user_id": …, "exported_at": …, "slot_contract_version": "1.6",
     "tables": {"<table>": [<row>, …], …},          # every table with a user_id column
     "working_memory": [{"agent_id", "chat_id", "session", "affect"}, …],
     "derived": "…"}                                 # what is not exported, and why

Guarantees:

- complete by construction: the tables are read from the schema (every base table with a
  ``user_id`` column: entities, aliases, facts with their whole history in ``relations``,
  todos, episodes, the summary spine, messages, sessions, the knowledge documents the person
  owns, the forget log, …), so a table added later is exported without a change here; every
  column of every row, as Postgres renders it to JSON;
- only this person's rows (``user_id = $1`` in every query) and only their Redis keys;
- one consistent snapshot of Postgres (a read-only repeatable-read transaction);
- streamed: rows leave in batches from a server-side cursor, so a large memory is never held
  in the process whole;
- a person Twin Core does not know gets the same document with every list empty.

Vector points are not exported: they are embeddings of the rows above (no text) and a
reindex rebuilds them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import msgspec

from contracts.common import SLOT_CONTRACT_VERSION
from services.core.deps import Connection, Database
from services.core.working_memory import WorkingMemory
from services.memory_upserter.forget.compact import user_tables
from services.memory_upserter.forget.working_memory import conversations

BATCH = 500
DERIVED = (
    "Vector index points are embeddings of the rows in `tables` (their payloads hold "
    "ids only) and are rebuilt by a reindex; they are not exported."
)

_ORDER = """
SELECT a.attname FROM pg_index i
  JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
 WHERE i.indrelid = $1::regclass AND i.indisprimary
 ORDER BY array_position(i.indkey, a.attnum)
"""


async def export_document(
    db: Database, memory: WorkingMemory, user_id: str
) -> AsyncIterator[bytes]:
    """The document, in pieces; the Postgres snapshot is taken before the first row leaves."""
    encode = msgspec.json.encode
    yield (
        b'{"user_id":'
        + encode(user_id)
        + b',"exported_at":'
        + encode(datetime.now(UTC))
        + b',"slot_contract_version":'
        + encode(SLOT_CONTRACT_VERSION)
        + b',"tables":{'
    )
    async with (
        db.acquire() as conn,
        conn.transaction(isolation="repeatable_read", readonly=True),
    ):
        for i, table in enumerate(await user_tables(conn)):
            yield (b"," if i else b"") + encode(table) + b":["
            first = True
            async for chunk in _rows(conn, table, user_id):
                yield (b"" if first else b",") + chunk
                first = False
            yield b"]"
    yield b'},"working_memory":['
    for i, (agent_id, chat_id) in enumerate(conversations(await memory.keys_of(user_id))):
        seen = await memory.snapshot(user_id, agent_id, chat_id)
        yield (b"," if i else b"") + encode(
            {
                "agent_id": agent_id,
                "chat_id": chat_id,
                "session": seen.session,
                "affect": seen.affect,
            }
        )
    yield b'],"derived":' + encode(DERIVED) + b"}"


async def _rows(conn: Connection, table: str, user_id: str) -> AsyncIterator[bytes]:
    """The table's rows of this user in primary-key order, ``BATCH`` rows a piece."""
    order = [r[0] for r in await conn.fetch(_ORDER, f'public."{table}"')]
    order_by = ", ".join(f'"{c}"' for c in order) or "1"
    cursor = conn.cursor(
        f'SELECT row_to_json(t)::text FROM "{table}" t WHERE t.user_id = $1 ORDER BY {order_by}',
        user_id,
        prefetch=BATCH,
    )
    batch: list[str] = []
    async for (row,) in cursor:
        batch.append(row)
        if len(batch) == BATCH:
            yield ",".join(batch).encode()
            batch = []
    if batch:
        yield ",".join(batch).encode()
