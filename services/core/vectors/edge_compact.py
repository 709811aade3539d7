"""Compact Qdrant Edge shards: float16 vectors, the points in an immutable segment, and the
sparse and payload indexes memory-mapped from files instead of held on the heap.

    python -m services.core.vectors.edge_compact <QDRANT_PATH>

Run it while no process holds the shards (``twin up`` stopped), e.g. after a bulk import or
a reindex. Every point Edge takes lives in the shard's appendable segment, whose indexes are
heap memory (anonymous RSS growing with every point); compacted, the same points cost next to
nothing on the heap and their index pages are file-backed (the kernel may drop and re-read
them). Searches cost the same (both scan one user's points exactly; no HNSW graph is built).
New points go to a fresh appendable segment until the next compaction. Per collection:
float32 shards are first converted (:mod:`.edge_f16`); the payload indexes are rebuilt on
disk; the optimizer then rewrites the segment. A crash midway leaves a shard Edge opens as before.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import qdrant_edge as qe

from services.core.vectors import edge_f16
from services.core.vectors.edge_shard import ensure_payload_indexes, shard_config, stored_datatype
from services.core.vectors.layout import DENSE
from services.core.vectors.port import COLLECTIONS


def compact(root: str | Path) -> dict[str, float]:
    """Compact every collection under ``root``; returns the seconds each one took."""
    root = Path(root)
    edge_f16.convert(root)
    took: dict[str, float] = {}
    for collection in COLLECTIONS:
        stored = root / collection / "edge_config.json"
        if not stored.exists():
            continue
        started = time.perf_counter()
        dim = json.loads(stored.read_text())["vectors"][DENSE]["size"]
        config = shard_config(dim, stored_datatype(stored), compacting=True)
        shard = qe.EdgeShard.load(str(root / collection), config)
        try:
            ensure_payload_indexes(shard, rebuild=True)
            shard.optimize()
            shard.flush()
        finally:
            shard.close()
        took[collection] = round(time.perf_counter() - started, 1)
    return took


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    print(compact(sys.argv[1]))
