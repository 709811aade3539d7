"""Rewrite a Qdrant Edge shard from its live points, so a deleted point leaves no byte in it.

A delete only marks a point deleted: its vectors (the dense embedding and the hashed BM25 term
ids) stay in the segment files until the optimizer vacuums them, and in the write-ahead log
until its 32 MiB segment is closed and truncated, which no Edge API can force and which a
quiet shard may never reach. A rewrite copies the live points (ids, vectors, payloads) into a
fresh shard beside the old one, with a fresh log, then swaps the directories and removes the
old one: after it, no file under the collection's directory holds a point that was deleted.
Removing only the log is not an option: a shard reopened without its log numbers new
operations from zero again, below the versions its points carry, and silently ignores them
(measured).

The swap is crash-safe: the new shard is complete and closed before the old directory is
renamed aside; :func:`recover` (called before a shard is opened) finishes or undoes a swap a
crash interrupted. The cost grows with the whole collection (every user's points), so callers
run it for hard forgets only (bench: ``tests/reliability/test_forget_complete.py`` measures).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import qdrant_edge as qe

from services.core.vectors.edge_shard import ensure_payload_indexes

BATCH = 512


def recover(where: Path) -> None:
    """Finish or undo a rewrite a crash interrupted at ``where`` (the collection's directory)."""
    old, new = _aside(where), _fresh(where)
    if old.exists():
        if where.exists():  # the swap happened: only the old copy's removal was left
            shutil.rmtree(old)
        else:  # renamed aside, the new one not yet in place: put the old one back
            old.rename(where)
    if new.exists():  # a rewrite that did not finish: the old shard is still the shard
        shutil.rmtree(new)


def rewrite(shard: qe.EdgeShard, where: Path, config: qe.EdgeConfig) -> tuple[qe.EdgeShard, int]:
    """Copy ``shard``'s live points into a fresh shard and put it at ``where``; the old shard is
    closed and its files removed. Returns the new, open shard and how many points it holds.
    The caller holds the index lock (no write may land in between)."""
    new_dir = _fresh(where)
    if new_dir.exists():
        shutil.rmtree(new_dir)
    fresh = qe.EdgeShard.create(str(new_dir), config)
    copied = 0
    try:
        ensure_payload_indexes(fresh)
        for batch in _live_points(shard):
            fresh.update(qe.UpdateOperation.upsert_points(batch))
            copied += len(batch)
        fresh.flush()
    finally:
        fresh.close()
    shard.close()
    where.rename(_aside(where))
    new_dir.rename(where)
    shutil.rmtree(_aside(where))
    return qe.EdgeShard.load(str(where), config), copied


def _live_points(shard: qe.EdgeShard) -> Iterator[list[qe.Point]]:
    offset: qe.PointId | None = None
    while True:
        records, offset = shard.scroll(
            qe.ScrollRequest(offset=offset, limit=BATCH, with_payload=True, with_vector=True)
        )
        if records:
            yield [qe.Point(r.id, r.vector or {}, r.payload or {}) for r in records]
        if offset is None:
            return


def _aside(where: Path) -> Path:
    return where.with_name(f".{where.name}.old")


def _fresh(where: Path) -> Path:
    return where.with_name(f".{where.name}.new")
