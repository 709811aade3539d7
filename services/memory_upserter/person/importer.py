"""``POST /v1/import``: a person's export document back into a deployment, idempotently.

For moving a person to another deployment (data portability) or restoring one. Guarantees:

- all or nothing: one transaction under the person's lock;
- idempotent: every row goes in with ``ON CONFLICT DO NOTHING``, so a row already present (same
  primary or unique key) is left as it is and a second import of the same document writes
  nothing; meant for a deployment that does not know the person yet;
- only this person: a table that is not a person table of this schema, or a row whose
  ``user_id`` is not the document's, refuses the whole document (422 naming it);
- tables go in foreign-key order, read from the schema; a column no row carries (a document
  from before it existed) takes its default; generated columns are recomputed, the
  agents the rows name are registered, ``messages.seq`` keeps its values (and the sequence moves
  past them), and ``indexed_at`` is left empty so the facts and messages are indexed afresh
  (facts, messages and episodes right after the import, so all are recalled at once);
- a row whose id another user's row holds refuses the document (422); a column this schema
  does not have is left out with an ``unknown_columns`` warning;
- working memory is volatile by design and is not imported.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import asyncpg

from contracts.memory import Notice
from contracts.memory_admin import ReindexRequest
from contracts.privacy import ImportResponse, PersonDocument
from services.core.deps import Connection, Database
from services.core.embedder import Embedder
from services.core.errors import FieldError, InvalidInput
from services.core.memory_store import lock_user
from services.core.memory_store.episode_index import reindex_episodes
from services.core.vectors import VectorIndex
from services.memory_upserter.forget.compact import user_tables
from services.memory_upserter.person.reindex import reindex

_FOREIGN_KEYS = """
SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
  FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
"""
_SINGLE_KEY = """
SELECT a.attname FROM pg_index i
  JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
 WHERE i.indrelid = format('public.%I', $1::text)::regclass AND i.indisprimary AND i.indnatts = 1
"""
_COLUMNS = """
SELECT column_name, is_generated = 'ALWAYS' AS generated, identity_generation = 'ALWAYS' AS ident
  FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1
 ORDER BY ordinal_position
"""
NOT_COPIED = frozenset({"indexed_at"})  # derived: the import indexes afresh


async def import_document(
    db: Database, vectors: VectorIndex, embedder: Embedder, doc: PersonDocument
) -> ImportResponse:
    async with db.acquire() as conn, conn.transaction():
        inserted, present, unknown = await _write(conn, doc)
    notes = (
        [
            Notice(
                code="unknown_columns",
                detail="not in this schema, not imported: " + ", ".join(unknown),
            )
        ]
        if unknown
        else []
    )
    already_present = {t: n for t, n in present.items() if n}
    if not inserted:
        return ImportResponse(
            user_id=doc.user_id, inserted=inserted, already_present=already_present, warnings=notes
        )
    swept = await reindex(db, vectors, embedder, ReindexRequest(user_id=doc.user_id, limit=10_000))
    while await reindex_episodes(db, embedder, vectors, doc.user_id, datetime.now(UTC)):
        pass  # the episodes' vectors too, batch by batch, so they are recalled at once
    more = (
        [
            Notice(
                code="vectors_unindexed",
                detail=(
                    "more rows than one sweep indexes: POST /v1/reindex until remaining is false"
                ),
            )
        ]
        if swept.remaining
        else []
    )
    return ImportResponse(
        user_id=doc.user_id,
        inserted=inserted,
        already_present=already_present,
        facts_indexed=swept.facts_indexed,
        warnings=[*notes, *swept.warnings, *more],
    )


async def _write(
    conn: Connection, doc: PersonDocument
) -> tuple[dict[str, int], dict[str, int], list[str]]:
    """Every table's rows, parents first, under the user's lock: how many each inserted and
    found present, and the columns this schema does not have."""
    inserted: dict[str, int] = {}
    present: dict[str, int] = {}
    await lock_user(conn, doc.user_id)
    tables = await user_tables(conn)
    _check(doc, tables)
    agents = sorted(
        {
            r["agent_id"]
            for rows in doc.tables.values()
            for r in rows
            if isinstance(r.get("agent_id"), str) and r["agent_id"]
        }
    )
    await conn.execute(
        "INSERT INTO agents (agent_id) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING", agents
    )
    unknown: list[str] = []
    for table in await _parents_first(conn, tables):
        rows = doc.tables.get(table) or []
        if rows:
            await _refuse_others_rows(conn, table, rows, doc.user_id)
            written, dropped = await _insert(conn, table, rows)
            inserted[table], present[table] = written, len(rows) - written
            unknown += [f"{table}.{c}" for c in dropped]
    return inserted, present, unknown


def _check(doc: PersonDocument, tables: Sequence[str]) -> None:
    errors = [
        FieldError(f"$.tables.{t}", "not a table of person data in this schema")
        for t in doc.tables
        if t not in tables
    ]
    for table, rows in doc.tables.items():
        errors += [
            FieldError(
                f"$.tables.{table}[{i}].user_id", "every row must belong to the document's user_id"
            )
            for i, row in enumerate(rows)
            if row.get("user_id") != doc.user_id
        ][:5]
    if errors:
        raise InvalidInput(errors, "Invalid person document")


async def _parents_first(conn: Connection, tables: Sequence[str]) -> list[str]:
    """The person tables ordered so a table comes after every table it references."""
    needs: dict[str, set[str]] = {t: set() for t in tables}
    for r in await conn.fetch(_FOREIGN_KEYS):
        if r["child"] in needs and r["parent"] in needs and r["child"] != r["parent"]:
            needs[r["child"]].add(r["parent"])
    ordered: list[str] = []
    while needs:
        ready = sorted(t for t, parents in needs.items() if not parents - set(ordered))
        if not ready:
            raise RuntimeError(f"foreign keys form a cycle among {sorted(needs)}")
        ordered += ready
        for t in ready:
            del needs[t]
    return ordered


async def _refuse_others_rows(
    conn: Connection, table: str, rows: list[dict[str, Any]], user_id: str
) -> None:
    """A row whose id another user's row holds would be skipped as "already present": refuse
    the document instead (422), naming the table, never the other user."""
    key = await conn.fetchval(_SINGLE_KEY, table)
    ids = [str(r[key]) for r in rows if key and r.get(key) is not None]
    if not ids or key == "user_id":
        return
    taken = await conn.fetchval(
        f'SELECT count(*) FROM "{table}" WHERE "{key}"::text = ANY($1::text[]) AND user_id <> $2',
        ids,
        user_id,
    )
    if taken:
        raise InvalidInput(
            [FieldError(f"$.tables.{table}", f"{taken} rows carry ids another user's rows hold")],
            "Invalid person document",
        )


async def _insert(
    conn: Connection, table: str, rows: list[dict[str, Any]]
) -> tuple[int, list[str]]:
    """Insert the rows; returns how many went in and the columns the table does not have."""
    columns = await conn.fetch(_COLUMNS, table)
    given = {key for row in rows for key in row}  # a column no row has keeps its default
    names = [
        c["column_name"]
        for c in columns
        if c["column_name"] in given and not c["generated"] and c["column_name"] not in NOT_COPIED
    ]
    listed = ", ".join(f'"{n}"' for n in names)
    overriding = " OVERRIDING SYSTEM VALUE" if any(c["ident"] for c in columns) else ""
    try:
        status = await conn.execute(
            f'INSERT INTO "{table}" ({listed}){overriding} SELECT {listed} '
            f'FROM json_populate_recordset(NULL::"{table}", $1::json) ON CONFLICT DO NOTHING',
            rows,
        )  # the pool's json codec encodes them
    except (asyncpg.IntegrityConstraintViolationError, asyncpg.DataError) as exc:
        raise InvalidInput(
            [
                FieldError(
                    f"$.tables.{table}", f"{type(exc).__name__}: {exc.args[0] if exc.args else exc}"
                )
            ],
            "Invalid person document",
        ) from None
    for c in columns:
        if c["ident"]:  # new rows of this deployment number after the imported ones
            await conn.execute(
                f"SELECT setval(pg_get_serial_sequence('\"{table}\"', $1), "
                f'GREATEST((SELECT max("{c["column_name"]}") FROM "{table}"), 1))',
                c["column_name"],
            )
    known = {c["column_name"] for c in columns}
    return int(status.split()[-1]), sorted(given - known)
