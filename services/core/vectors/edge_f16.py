"""Convert existing Qdrant Edge shards to float16 dense vectors (new shards start float16).

    python -m services.core.vectors.edge_f16 <QDRANT_PATH>

Run it while no process holds the shards (``twin up`` stopped). Per collection still on
float32: every point (id, dense and BM25 vectors, payload) is copied into a new float16 shard
beside it, with the layout's payload indexes, then the new shard takes the old one's place and
the old one is deleted. A crash before the swap
leaves the old shard untouched (the half-built copy is removed on the next run); the swap is
two renames. Cosines move by ~1e-3 (float16 keeps ~3 significant digits).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import qdrant_edge as qe

from services.core.vectors.edge_shard import ensure_payload_indexes, shard_config, stored_datatype
from services.core.vectors.layout import DENSE
from services.core.vectors.port import COLLECTIONS

PAGE = 1_000


def convert(root: str | Path) -> dict[str, int]:
    """Convert every float32 collection under ``root``; returns points copied per collection."""
    root = Path(root)
    copied: dict[str, int] = {}
    for collection in COLLECTIONS:
        old = root / collection
        stored = old / "edge_config.json"
        if not stored.exists() or stored_datatype(stored) == "float16":
            continue
        dim = json.loads(stored.read_text())["vectors"][DENSE]["size"]
        new = root / f"{collection}.f16-building"
        shutil.rmtree(new, ignore_errors=True)
        source = qe.EdgeShard.load(str(old), shard_config(dim, "float32"))
        target = qe.EdgeShard.create(str(new), shard_config(dim, "float16"))
        try:
            ensure_payload_indexes(target)
            copied[collection] = _copy(source, target)
            target.flush()
        finally:
            source.close()
            target.close()
        retired = root / f"{collection}.f32-retired"
        shutil.rmtree(retired, ignore_errors=True)
        old.rename(retired)
        new.rename(old)
        shutil.rmtree(retired)
    return copied


def _copy(source: qe.EdgeShard, target: qe.EdgeShard) -> int:
    offset, total = None, 0
    while True:
        records, offset = source.scroll(
            qe.ScrollRequest(offset=offset, limit=PAGE, with_payload=True, with_vector=True)
        )
        if records:
            points = []
            for r in records:
                if r.vector is None:  # asked for with_vector: Edge always sends it
                    raise ValueError(f"point {r.id} came without its vectors")
                points.append(qe.Point(r.id, r.vector, r.payload))
            target.update(qe.UpdateOperation.upsert_points(points))
            total += len(records)
        if offset is None:
            return total


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    print(convert(sys.argv[1]))
