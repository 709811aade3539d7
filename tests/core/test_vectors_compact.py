"""edge_compact: the same points, found the same way, from an immutable segment whose indexes
are files; writes after it still land and are found."""

from __future__ import annotations

import json

import pytest

from services.core.vectors import EdgeVectorIndex, edge_compact
from tests.core.test_vectors import DIM, dense_for, point


async def test_compaction_keeps_every_point_hit_cosine_and_payload_and_new_writes_work(tmp_path):
    index = EdgeVectorIndex(tmp_path, dim=DIM)
    user = "u-compact"
    points = [
        point(
            user,
            f"walk number {i} by the river" + (" with Marta" if i % 5 == 0 else ""),
            scope="agent" if i % 2 else "global",
            agent_id="coach" if i % 2 else None,
            entity_ids=(f"e{i % 4}",),
            day=f"d{i}",
        )
        for i in range(200)
    ]
    await index.upsert("facts", points)
    await index.upsert("facts", [point("someone-else", "Marta by the river")])
    # limits past every tie: equal BM25 scores may come in another order from another segment
    queries = [
        {"dense": dense_for("q1"), "text": "Marta river", "limit": 200, "agent_id": "coach"},
        {"dense": dense_for("q2"), "limit": 5, "entity_ids": ["e1"]},
        {"text": "Marta", "limit": 30, "agent_id": "coach", "agent_only": True},
    ]
    before = [await index.search("facts", user_id=user, **q) for q in queries]
    await index.close()

    took = edge_compact.compact(tmp_path)

    assert set(took) == {"facts"}  # the only collection this index ever opened
    segments = sorted((tmp_path / "facts" / "segments").iterdir())
    configs = [json.loads((s / "segment.json").read_text())["config"] for s in segments]
    assert any(  # the points now sit in a segment whose sparse index is a file
        "Mutable" not in c["sparse_vector_data"]["bm25"]["index"]["index_type"] for c in configs
    )
    index = EdgeVectorIndex(tmp_path, dim=DIM)
    try:
        after = [await index.search("facts", user_id=user, **q) for q in queries]
        for old, new in zip(before, after, strict=True):
            assert {h.id: h.payload for h in new} == {h.id: h.payload for h in old}
            similarity = {h.id: h.similarity for h in old}
            assert [h.similarity for h in new] == pytest.approx([similarity[h.id] for h in new])
        dense_only = 1
        assert [h.id for h in after[dense_only]] == [h.id for h in before[dense_only]]
        assert len(after[0]) == 200 and len(after[2]) == 20
        assert await index.count("facts", user_id=user) == 200
        late = point(user, "a xylophone arrived")
        await index.upsert("facts", [late])
        [hit] = await index.search("facts", user_id=user, text="xylophone", limit=1)
        assert hit.id == late.id
        assert await index.delete("facts", user_id=user, ids=[points[0].id]) == 1
        assert await index.count("facts", user_id=user) == 200
    finally:
        await index.close()
