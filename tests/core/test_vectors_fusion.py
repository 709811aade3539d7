"""Hybrid search fuses its two rankings itself (``layout.fuse``) and takes each hit's cosine
from the dense ranking: the same hits, fused scores and cosines as Qdrant Edge's own RRF query
followed by a second query for the hits' cosines (what the adapter did before)."""

from __future__ import annotations

import random
import uuid
from types import SimpleNamespace

import numpy as np
import pytest
import qdrant_edge as qe

from services.core.vectors import EdgeVectorIndex, VectorPoint
from services.core.vectors.edge_shard import to_filter
from services.core.vectors.filters import user_only, visible
from services.core.vectors.fusion import fuse
from services.core.vectors.layout import DENSE, RRF_K, SPARSE, prefetch_limit

DIM = 16
WORDS = "marta lisbon trip garden piano dog work sister budget movie river lap coffee".split()


def scored(*pairs: tuple[str, float]) -> list[SimpleNamespace]:
    return [SimpleNamespace(id=i, score=s) for i, s in pairs]


class CountedIds(SimpleNamespace):
    """A scored point that counts how often its id is read (an Edge id read costs ~1.8 µs)."""

    reads = 0

    @property
    def id(self) -> str:
        CountedIds.reads += 1
        return self.__dict__["_id"]


def test_fusion_adds_one_over_k_plus_rank_and_keeps_the_dense_cosines() -> None:
    dense = scored(("a", 0.9), ("b", 0.8), ("c", 0.7))
    lexical = scored(("c", 12.0), ("d", 9.0))

    fused = fuse(dense, lexical, scored(("c", 0.7), ("d", 0.1)), limit=3)

    assert [f.id for f in fused] == ["c", "a", "b"]
    assert fused[0].score == pytest.approx(1 / (RRF_K + 2) + 1 / RRF_K)
    assert fused[1].score == pytest.approx(1 / RRF_K) and fused[1].similarity == 0.9
    assert [f.similarity for f in fused] == [0.7, 0.9, 0.8]


def test_the_dense_head_is_kept_whatever_its_rrf_and_the_order_stays_rrfs() -> None:
    """Where every other point is in both rankings, the nearest point that shares no word
    with the query loses RRF's places; ``dense_head`` keeps it, in the last RRF place's stead."""
    ids = [f"p{i}" for i in range(8)]
    dense = scored(("near", 0.95), *((i, 0.9 - n / 100) for n, i in enumerate(ids)))
    lexical = scored(*((i, 10.0 - n) for n, i in enumerate(ids)))
    cosines = scored(*((i, 0.9 - n / 100) for n, i in enumerate(ids)))

    plain = fuse(dense, lexical, cosines, limit=4)
    headed = fuse(dense, lexical, cosines, limit=4, dense_head=1)

    assert "near" not in [f.id for f in plain]
    assert [f.id for f in headed] == [f.id for f in plain][:3] + ["near"]
    assert fuse(dense, lexical, cosines, limit=2, dense_head=5) == fuse(
        dense, lexical, cosines, limit=2, dense_head=2
    )  # never more than ``limit`` hits


def test_fusion_keeps_each_lexical_points_bm25_score() -> None:
    dense = scored(("a", 0.9), ("b", 0.8), ("c", 0.7))
    lexical = scored(("c", 12.0), ("d", 9.0))

    fused = fuse(dense, lexical, scored(("c", 0.7), ("d", 0.1)), limit=4)

    assert {f.id: f.lexical for f in fused} == {"c": 12.0, "a": None, "b": None, "d": 9.0}


def test_fusion_breaks_ties_by_cosine_then_rank_and_a_lexical_point_has_its_cosine() -> None:
    # "b" (dense rank 1) and "y" (lexical rank 1) tie, as do "a" and "x" at rank 0.
    fused = fuse(
        scored(("a", 0.5), ("b", 0.4)),
        scored(("x", 3.0), ("y", 2.0)),
        scored(("x", 0.45), ("y", 0.41)),
        limit=4,
    )

    assert [f.id for f in fused] == ["a", "x", "y", "b"]
    assert [f.similarity for f in fused] == [0.5, 0.45, 0.41, 0.4]


def test_fusion_finds_a_point_among_equal_cosines_and_leaves_unknown_cosines_to_the_caller():
    # "b" and "c" share a cosine (the same text twice): "c" is matched by its id, not "b"
    dense = scored(("a", 0.9), ("b", 0.5), ("c", 0.5), ("d", 0.1))
    fused = fuse(dense, scored(("c", 4.0), ("z", 3.0)), scored(("c", 0.5)), limit=5)

    assert [f.id for f in fused] == ["c", "a", "b", "z", "d"]
    assert fused[0].score == pytest.approx(1 / (RRF_K + 2) + 1 / RRF_K)
    assert fused[3].similarity is None  # the engine gave no cosine for "z": the caller asks


def test_fusion_reads_ids_only_near_the_lexical_points_and_for_the_hits() -> None:
    dense = [CountedIds(_id=f"p{i}", score=1 - i / 100) for i in range(96)]
    lexical = [CountedIds(_id="p50", score=5.0), CountedIds(_id="q", score=4.0)]
    # "q" is below every dense cosine, as a point the dense top-96 left out must be
    cosines = [CountedIds(_id="p50", score=0.5), CountedIds(_id="q", score=0.01)]
    CountedIds.reads = 0

    fused = fuse(dense, lexical, cosines, limit=8)

    assert [f.id for f in fused][:4] == ["p50", "p0", "p1", "q"] and len(fused) == 8
    assert CountedIds.reads < 20  # not 96 + 2


@pytest.fixture
async def populated(tmp_path):
    rng, pick = np.random.default_rng(3), random.Random(3)
    index = EdgeVectorIndex(tmp_path / "qdrant", dim=DIM)
    points = []
    for i in range(600):
        v = rng.standard_normal(DIM)
        points.append(
            VectorPoint(
                id=str(uuid.UUID(int=pick.getrandbits(128))),
                dense=(v / np.linalg.norm(v)).tolist(),
                text=" ".join(pick.choices(WORDS, k=6)),
                payload={
                    "user_id": f"u{i % 3}",
                    "agent_id": "coach" if i % 4 else None,
                    "scope": "agent" if i % 4 else "global",
                    "entity_ids": [f"e{i % 7}"],
                    "active": True,
                    "day": f"d{i}",
                },
            )
        )
    await index.upsert("facts", points)
    yield index, rng, pick
    await index.close()


async def test_hybrid_hits_scores_and_cosines_equal_edges_own_fusion_and_cosine_query(populated):
    index, rng, pick = populated
    lexical_only_hits = 0
    for n in range(60):
        user = f"u{n % 3}"
        v = rng.standard_normal(DIM)
        dense, text = (v / np.linalg.norm(v)).tolist(), " ".join(pick.choices(WORDS, k=2))
        limit = pick.choice([4, 8, 24])

        hits = await index.search(
            "facts", user_id=user, agent_id="coach", dense=dense, text=text, limit=limit
        )
        expected = _edge_fused_then_cosines(index, user, dense, text, limit)

        assert len(hits) == len(expected)
        # The same fused scores in the same order; at equal scores Edge's order is arbitrary.
        assert [h.score for h in hits] == pytest.approx([s for _, s, _ in expected], abs=1e-6)
        cut = expected[-1][1]
        above = {i: (s, c) for i, s, c in expected if s > cut + 1e-6}
        got = {h.id: (h.score, h.similarity) for h in hits}
        for point_id, (score, cosine) in above.items():
            assert got[point_id][0] == pytest.approx(score, abs=1e-6)
            assert got[point_id][1] == pytest.approx(cosine, abs=1e-6)
        for h in hits:  # every hit's cosine, lexical-only ones included, is its true cosine
            assert h.similarity == pytest.approx(_cosine(index, h.id, dense), abs=1e-6)
            assert h.payload["day"].startswith("d")
        lexical_only_hits += sum(
            1 for i, _, _ in expected if i not in _dense_ids(index, user, dense, limit)
        )
    assert lexical_only_hits > 0  # the case that needs the id-filtered query did occur


def _shard(index: EdgeVectorIndex) -> qe.EdgeShard:
    return index._shards["facts"]  # noqa: SLF001 - comparing against the engine itself


def _where(user: str) -> qe.Filter:
    return to_filter(visible(user_id=user, agent_id="coach"))


def _edge_fused_then_cosines(index, user, dense, text, limit):
    """What the adapter did before: Edge's RRF query, then a second query for the cosines."""
    sparse = index._sparse.query(text)  # noqa: SLF001
    where, wide = _where(user), prefetch_limit(limit)
    idf = qe.SearchParams(idf=qe.IdfParams(corpus=to_filter(user_only(user))))
    found = _shard(index).query(
        qe.QueryRequest(
            limit=limit,
            prefetches=[
                qe.Prefetch(wide, query=qe.Query.Nearest(dense, using=DENSE), filter=where),
                qe.Prefetch(
                    wide, query=qe.Query.Nearest(sparse, using=SPARSE), filter=where, params=idf
                ),
            ],
            query=qe.Fusion.Rrf(k=RRF_K),
            filter=where,
        )
    )
    cosines = {str(p.id): _cosine(index, str(p.id), dense) for p in found}
    return [(str(p.id), p.score, cosines[str(p.id)]) for p in found]


def _cosine(index, point_id: str, dense) -> float:
    [p] = _shard(index).query(
        qe.QueryRequest(
            limit=1,
            query=qe.Query.Nearest(dense, using=DENSE),
            filter=qe.Filter(must=[qe.HasIdCondition({uuid.UUID(point_id)})]),
        )
    )
    return p.score


def _dense_ids(index, user, dense, limit) -> set[str]:
    ranked = _shard(index).query(
        qe.QueryRequest(
            limit=prefetch_limit(limit),
            query=qe.Query.Nearest(dense, using=DENSE),
            filter=_where(user),
        )
    )
    return {str(p.id) for p in ranked}


def test_a_lexical_point_whose_cosine_differs_slightly_is_still_found_once() -> None:
    dense = scored(("a", 0.9), ("b", 0.5), ("c", 0.3))
    fused = fuse(dense, scored(("b", 2.0)), scored(("b", 0.50001)), limit=3)

    assert [f.id for f in fused] == ["b", "a", "c"]
    assert fused[0].score == pytest.approx(1 / (RRF_K + 1) + 1 / RRF_K)
