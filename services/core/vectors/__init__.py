"""The vector index: one port (:class:`VectorIndex`), Qdrant in its two real forms behind it.

- :class:`~services.core.vectors.edge.EdgeVectorIndex`: Qdrant Edge embedded in this process,
  on disk under a path (the default; one process owns it);
- :class:`~services.core.vectors.server.ServerVectorIndex`: a Qdrant server or cluster by URL.

See :mod:`services.core.vectors.port` for what both guarantee.
"""

from __future__ import annotations

from pathlib import Path

from services.core.vectors.edge import EdgeVectorIndex
from services.core.vectors.port import (
    COLLECTIONS,
    PayloadValue,
    Scope,
    VectorHit,
    VectorIndex,
    VectorIndexUnavailable,
    VectorPoint,
)

__all__ = [
    "COLLECTIONS",
    "EdgeVectorIndex",
    "PayloadValue",
    "Scope",
    "VectorHit",
    "VectorIndex",
    "VectorIndexUnavailable",
    "VectorPoint",
    "open_vector_index",
]


def open_vector_index(
    *,
    path: str | Path | None,
    url: str | None,
    api_key: str | None,
    dim: int,
    timeout_s: float = 5.0,
) -> VectorIndex:
    """The index for this configuration: the server at ``url`` when set, else Edge at ``path``.

    Opening makes no I/O; call ``ensure_collections`` before use.
    """
    if dim < 1:
        raise ValueError(f"vector dimension must be positive, got {dim}")
    if url:
        # qdrant-client takes seconds to import: only processes that use a server pay for it.
        from services.core.vectors.server import ServerVectorIndex

        return ServerVectorIndex(url, api_key=api_key, dim=dim, timeout_s=timeout_s)
    if not path:
        raise ValueError("the vector index needs a path (Qdrant Edge) or a url (Qdrant server)")
    return EdgeVectorIndex(path, dim=dim)
