"""Ways to order the sessions of rag-gate's recalled turns, offline on LoCoMo (issue 33's
session R@10), with :mod:`bench.recall.fit`'s candidates and rag-gate's own code.

    uv run python -m bench.recall.session_orders             # split A: conv-26/30 (to choose)
    uv run python -m bench.recall.session_orders --split B   # only to report, never to choose

Every one of the first 10 distinct sessions comes from the recalled turns: those of the first
10 turns, then :func:`services.rag_gate.spread.spread`'s best turn of each further session,
ordered by :func:`~services.rag_gate.spread.session_weights`. Each row swaps that weight (or
re-picks the first 10 turns with a penalty per earlier turn of the same session) and prints
turn R@10, session R@5 / R@6 / R@10 and the adversarial turn R@10. Split A's conversations have
19 sessions each (B's ~30), so its session R@5 and R@6 are read beside its saturated R@10.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence

import msgspec

from bench.recall import data, fit
from bench.recall.splits import SPLITS
from contracts.retrieve_limits import TurnLimits
from services.rag_gate import fusion, spread

Weights = Callable[[Mapping[str, str], Mapping[str, float]], dict[str, float]]
SHIPPED_WEIGHTS, SHIPPED_SPREAD, SHIPPED_SCORE = (
    spread.session_weights,
    spread.spread,
    fusion.score_turns,
)
SCORED: list[fusion.ScoredTurn] = []  # the last question's scored turns


def scored_turns(*args, **kwargs) -> list[fusion.ScoredTurn]:
    SCORED[:] = SHIPPED_SCORE(*args, **kwargs)
    return SCORED


def by_detail(key: str) -> Weights:
    """The shipped sum of a session's best two, of another of the turns' scores."""

    def weights(session_of: Mapping[str, str], _: Mapping[str, float]) -> dict[str, float]:
        values = {t.id: t.score if key == "fused" else t.details.get(key, 0.0) for t in SCORED}
        return SHIPPED_WEIGHTS(session_of, values)

    return weights


def best(n: int | None) -> Weights:
    """The sum of a session's best ``n`` relevances (all when None)."""

    def weights(session_of: Mapping[str, str], relevance: Mapping[str, float]) -> dict[str, float]:
        by_session: dict[str, list[float]] = {}
        for turn, value in relevance.items():
            by_session.setdefault(session_of.get(turn, turn), []).append(value)
        return {s: sum(sorted(v, reverse=True)[:n]) for s, v in by_session.items()}

    return weights


def rank_fused(session_of: Mapping[str, str], _: Mapping[str, float]) -> dict[str, float]:
    """RRF of each session's best rank by cosine and its best rank by BM25."""
    out: dict[str, float] = {}
    for key in ("similarity", "bm25"):
        ranked = sorted(SCORED, key=lambda t: -t.details.get(key, 0.0))
        firsts = dict.fromkeys(session_of.get(t.id, t.id) for t in ranked)
        for place, session in enumerate(firsts, 1):
            out[session] = out.get(session, 0.0) + 1 / (fit.RRF_K + place)
    return out


def half_and_half(
    session_of: Mapping[str, str], relevance: Mapping[str, float]
) -> dict[str, float]:
    a, b = SHIPPED_WEIGHTS(session_of, relevance), rank_fused(session_of, relevance)
    top_a, top_b = max(a.values(), default=1.0) or 1.0, max(b.values(), default=1.0) or 1.0
    return {s: 0.5 * a[s] / top_a + 0.5 * b.get(s, 0.0) / top_b for s in a}


def penalised(delta: float) -> Callable[..., list[str]]:
    """The first 10 turns re-picked one by one: each turn's place score (the n-th best score for
    the n-th turn, so 0 keeps the order) less ``delta`` first places per earlier pick of its
    session; then the shipped spread."""

    def order(
        turns: Sequence[str], session_of: Mapping[str, str], relevance: Mapping[str, float], head=10
    ) -> list[str]:
        places = sorted((t.score for t in SCORED), reverse=True)
        score = {t: places[k] if k < len(places) else 0.0 for k, t in enumerate(turns)}
        left, picked, count = list(turns), [], {}
        while left and len(picked) < head:
            pick = max(
                left,
                key=lambda t: score[t] - delta * fusion.FIRST * count.get(session_of.get(t, t), 0),
            )
            left.remove(pick)
            picked.append(pick)
            count[session_of.get(pick, pick)] = count.get(session_of.get(pick, pick), 0) + 1
        return SHIPPED_SPREAD(picked + left, session_of, relevance, len(picked))

    return order


ROWS: dict[str, dict] = {
    "best two relevances (shipped)": {},
    "RRF of best cosine and BM25 ranks": {"weights": rank_fused},
    "half relevance, half that RRF": {"weights": half_and_half},
    "best relevance alone": {"weights": best(1)},
    "best four relevances": {"weights": best(4)},
    "all relevances": {"weights": best(None)},
    "best two cosines": {"weights": by_detail("similarity")},
    "best two BM25": {"weights": by_detail("bm25")},
    "best two fused scores": {"weights": by_detail("fused")},
    "head, same session -0.1": {"spread": penalised(0.1)},
    "head, same session -0.2": {"spread": penalised(0.2)},
    "head, same session -0.3": {"spread": penalised(0.3)},
    "128 candidates": {"limits": {"candidates": 128}},
}


def measure(indexed: Sequence[fit.Indexed], qvecs: dict, limits: TurnLimits) -> str:
    turn, adversarial, sessions = [], [], {5: [], 6: [], 10: []}
    for ix in indexed:
        for q in ix.conversation.questions:
            if not q.evidence or q.category not in (1, 2, 3, 4, 5):
                continue
            items = fit.rank(ix, q, fit.UNNAMED_VECS.get(q.qid, qvecs[q.qid]), limits)
            (adversarial if q.category == 5 else turn).append(
                fit.turn_recall(items, q.evidence, 10)
            )
            for k, values in sessions.items():
                if q.category != 5:
                    values.append(fit.session_recall(items, q.evidence, k))

    def mean(xs: list[float]) -> float:
        return sum(xs) / len(xs)

    cut = " · ".join(f"{mean(v):.3f}" for v in sessions.values())
    tail = f"adversarial {mean(adversarial):.3f}"
    return f"turn R@10 {mean(turn):.3f}  session R@5 · R@6 · R@10 {cut}  {tail}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.recall.session_orders")
    parser.add_argument("--split", default="A", choices=("A", "B"))
    args = parser.parse_args(argv)
    samples = {s for name, ids in SPLITS.items() if f"LoCoMo {args.split} " in name for s in ids}
    conversations = [c for c in data.load() if c.sample_id in samples]
    data.score_adversarial()
    embed = fit.fit_embedder()
    indexed = [fit.index(c, embed) for c in conversations]
    questions = [q for c in conversations for q in c.questions if q.evidence]
    qvecs = dict(zip((q.qid for q in questions), embed([q.text for q in questions]), strict=True))
    fit.UNNAMED_VECS.update(fit.unnamed_vectors(conversations, qvecs, embed))
    fusion.score_turns = scored_turns  # type: ignore[assignment]
    for name, row in ROWS.items():
        spread.session_weights = row.get("weights", SHIPPED_WEIGHTS)  # type: ignore[assignment]
        spread.spread = row.get("spread", SHIPPED_SPREAD)
        limits = msgspec.structs.replace(TurnLimits(), **row.get("limits", {}))
        print(f"{args.split} {name:36s} {measure(indexed, qvecs, limits)}", flush=True)
    spread.session_weights, spread.spread = SHIPPED_WEIGHTS, SHIPPED_SPREAD
    fusion.score_turns = SHIPPED_SCORE  # type: ignore[assignment]


if __name__ == "__main__":
    main()
