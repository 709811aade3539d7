"""Which embedder made a Qdrant Edge index's vectors, so another one never writes or searches it.

MiniLM and multilingual-e5 both make 384 dims: Qdrant would take either's vectors into the
other's collections without a word, and every search would then compare unrelated spaces. A
changed dimension is no safer: Edge refuses the shards at start and every call answers 503.
So the index folder keeps a stamp, ``vector_space.json`` (``{"embedder": name, "dim": n}``),
written when the index is first opened, and checked at every start:

- **no stamp, no shards**: a new index; the stamp is written.
- **no stamp, shards** (an index made before stamps): adopted by the configured embedder if the
  shards' dimension matches (a logged warning says so), else refused.
- **a stamp**: the configured embedder must be the one it names, with the same dimension.

A refusal is :class:`VectorSpaceMismatch`, raised before any node serves: the message names
both embedders and the two ways out (configure the old embedder again, or start on a fresh
folder and re-embed: README, "Changing the embedder"). A Qdrant server keeps no stamp (its
collections' dimension is checked by ``ServerVectorIndex``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

import structlog

STAMP = "vector_space.json"


class VectorSpaceMismatch(ValueError):
    """The index holds another embedder's vectors (or another dimension's)."""


def verdict(
    stamp: Mapping[str, object] | None, sizes: Mapping[str, int], *, name: str, dim: int
) -> str:
    """``"new"``, ``"adopted"`` or ``"same"`` for an index with this ``stamp`` (None: none) and
    these shards' dense sizes (collection → dims), opened by embedder ``name`` of ``dim``; a
    mismatch raises :class:`VectorSpaceMismatch`. Pure: no file is read here."""
    if stamp is not None:
        made_by, made_dim = stamp.get("embedder"), stamp.get("dim")
        if (made_by, made_dim) != (name, dim):
            raise VectorSpaceMismatch(_refusal(f"{made_by} ({made_dim} dims)", name, dim))
        return "same"
    wrong = sorted({size for size in sizes.values() if size != dim})
    if wrong:
        raise VectorSpaceMismatch(_refusal(f"an embedder of {wrong[0]} dims", name, dim))
    return "adopted" if sizes else "new"


def _refusal(made_by: str, name: str, dim: int) -> str:
    return (
        f"the vector index holds vectors made by {made_by}; the configured embedder is {name} "
        f"({dim} dims): they cannot be compared. Configure the embedder that made the index "
        "again (TWIN_EMBEDDER), or start on a fresh index folder (QDRANT_PATH) and re-embed "
        "the memory (README, 'Changing the embedder')"
    )


def check_vector_space(root: Path, *, name: str, dim: int) -> str:
    """Check (and on first use write) the stamp of the Edge index under ``root``; returns
    :func:`verdict`'s answer or raises :class:`VectorSpaceMismatch`."""
    path = root / STAMP
    stamp = json.loads(path.read_text()) if path.exists() else None
    outcome = verdict(stamp, _shard_sizes(root), name=name, dim=dim)
    if outcome == "same":
        return outcome
    if outcome == "adopted":
        structlog.get_logger().warning(
            "vector_space_adopted",
            path=str(root),
            embedder=name,
            note="an index made before stamps: taken as this embedder's",
        )
    root.mkdir(parents=True, exist_ok=True)
    partial = root / f".{STAMP}.tmp"
    partial.write_text(json.dumps({"embedder": name, "dim": dim}) + "\n")
    os.replace(partial, path)
    return outcome


def _shard_sizes(root: Path) -> dict[str, int]:
    """Dense vector size of every shard under ``root`` (from its ``edge_config.json``)."""
    sizes = {}
    for config in sorted(root.glob("*/edge_config.json")):
        vectors = json.loads(config.read_text()).get("vectors", {})
        if "dense" in vectors:
            sizes[config.parent.name] = int(vectors["dense"]["size"])
    return sizes
