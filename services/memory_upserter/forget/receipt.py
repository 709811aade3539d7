"""The deletion receipt a forget answers with (pure): what went from each store, what remains.

Row counts come per Postgres table, point counts per vector collection, Redis keys deleted or
rewritten, the tables rewritten on disk, and — always — what a forget cannot reach from here and
for how long it stays. Nothing in a receipt quotes what was forgotten.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from contracts.privacy import DeletionReceipt, Remnant

VECTOR_SUFFIX = "_vectors"

ALWAYS = (
    Remnant(
        where="forget_log",
        what="one audit row per kind forgotten: ids, counts, scope, "
        "the caller's reason; never the content",
        until="kept",
    ),
    Remnant(
        where="postgres_wal",
        what="the deleted rows in Postgres' write-ahead log",
        until="its segments are recycled, after the next checkpoints (minutes with the "
        "default max_wal_size, sooner under load); WAL archives for as long as "
        "their retention keeps them",
    ),
    Remnant(
        where="backups",
        what="database dumps and volume snapshots taken before the forget",
        until="their retention expires; Twin Core does not reach them",
    ),
    Remnant(
        where="redis_persistence",
        what="deleted or rewritten working-memory values in a Redis that "
        "persists (an RDB snapshot or an append-only file; the embedded one writes nothing "
        "unless persistence is on)",
        until="the next snapshot (the embedded Redis: within 60 s of the forget) or AOF rewrite",
    ),
)
VECTORS_LEFT = Remnant(
    where="vector_index",
    what="the deleted points' embeddings and hashed BM25 term ids (no text: payloads never "
    "hold any) in the vector index's write-ahead log and segments (a Qdrant server's files, "
    "or an Edge collection whose rewrite failed)",
    until="the index's optimizer vacuums the segments and its 32 MiB log segment is closed "
    "and truncated, which has no time bound; the next hard forget that touches the "
    "collection through Qdrant Edge rewrites it",
)
SOFT = Remnant(
    where="soft_forgotten_rows",
    what="the rows themselves, marked forgotten and "
    "hidden from every read, with their vectors inactive",
    until="a hard forget of the same targets",
)

# What a forget's counts (kinds) deleted or rewrote, by table.
TABLE_OF_KIND = {
    "facts": "relations",
    "entities": "entities",
    "aliases": "entity_aliases",
    "todos": "todos",
    "episodes": "episodes",
    "messages": "messages",
    "messages_redacted": "messages",
    "stored_answers": "idempotency_keys",
    "summaries": "summary_spine",
    "snippets": "todos",
    "seeds": "user_seeds",
}

# What a hard forget leaves when the role may not rewrite the catalog (:mod:`.statistics`).
STATISTICS_LEFT = Remnant(
    where="postgres_statistics",
    what="the planner's previous samples of the rewritten tables' columns, as dead tuples in "
    "pg_statistic's file, or as the statistics of a table the forget left empty (this "
    "database role may not rewrite that catalog table)",
    until="an administrator runs VACUUM FULL pg_catalog.pg_statistic (an emptied table: "
    "until its next ANALYZE with rows in it)",
)


def rows_per_table(counts: Mapping[str, int]) -> dict[str, int]:
    """A forget's counts by kind, as rows per Postgres table (vector and Redis counts left out)."""
    rows: dict[str, int] = {}
    for kind, n in counts.items():
        table = TABLE_OF_KIND.get(kind)
        if table is not None and n:
            rows[table] = rows.get(table, 0) + n
    return rows


def points_per_collection(counts: Mapping[str, int]) -> dict[str, int]:
    return {
        kind.removesuffix(VECTOR_SUFFIX): n
        for kind, n in counts.items()
        if kind.endswith(VECTOR_SUFFIX) and n
    }


def kept(counts: Mapping[str, int]) -> list[Remnant]:
    """What a session forget kept on purpose, and why (:mod:`.provenance`)."""
    found = []
    if counts.get("facts_trimmed"):
        found.append(
            Remnant(
                where="relations",
                what=f"{counts['facts_trimmed']} facts also learned from messages that stay, "
                "kept without the forgotten messages in their provenance",
                until="kept",
            )
        )
    if counts.get("entities_kept"):
        found.append(
            Remnant(
                where="entities",
                what=f"{counts['entities_kept']} entities the forgotten messages named that "
                "facts, messages or episodes which stay still name",
                until="kept",
            )
        )
    return found


def receipt(
    *,
    hard: bool,
    rows: Mapping[str, int],
    points: Mapping[str, int],
    redis_deleted: int,
    redis_rewritten: int,
    compacted: Sequence[str] = (),
    pending: Sequence[str] = (),
    analyzed: Sequence[str] = (),
    statistics_left: bool = False,
    vectors_rewritten: Sequence[str] = (),
    vectors_left: bool = False,
    kept: Sequence[Remnant] = (),
) -> DeletionReceipt:
    remains = [*kept, *ALWAYS] if hard else [*kept, SOFT, *ALWAYS[:1]]
    remains += [STATISTICS_LEFT] if hard and statistics_left else []
    remains += [VECTORS_LEFT] if hard and vectors_left else []
    return DeletionReceipt(
        hard=hard,
        rows={t: n for t, n in sorted(rows.items()) if n},
        points={c: n for c, n in sorted(points.items()) if n},
        redis_keys_deleted=redis_deleted,
        redis_keys_rewritten=redis_rewritten,
        compacted=sorted(compacted),
        compaction_pending=sorted(pending),
        analyzed=sorted(analyzed),
        vectors_rewritten=sorted(vectors_rewritten),
        remains=remains,
    )
