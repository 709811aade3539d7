"""Session-level candidate sources for the order of recalled sessions, offline on LoCoMo (issue
33's session R@10), with :mod:`bench.recall.fit`'s candidates and rag-gate's own code.

    uv run python -m bench.recall.session_sources             # split A: conv-26/30 (to choose)
    uv run python -m bench.recall.session_sources --split B   # only to report, never to choose

A *session document* is the whole session, scored as one (MemPalace's granularity): BM25 over
its concatenated turns (bench's tokens, or the product's stemmed BM25 encoder), the cosine of
the mean of its turns' MiniLM vectors, the best cosine of its 3-turn windows, or the RRF of a
BM25 and a dense ranking. Each row feeds that score, as a share over the best session's, into

- ``mix``: the spread's session weight (:func:`services.rag_gate.spread.session_weights`,
  which orders the sessions past the first 10 turns): ``(1 - mix) · shipped / best + mix ·
  session score``; ``top`` keeps only the first ``top`` sessions, scored ``61 / (60 + rank)``
  (as an episode search of ``top`` hits would rank them);
- ``add``: the nearest turn of each of the first ``add`` sessions without a candidate joins
  the candidates (a source of sessions the turn search did not reach);
- ``boost``: rag-gate's episode-rank term of the turn score (``session_boost / (60 + r)``,
  :func:`services.rag_gate.fusion.score_turns`) with the first 5 sessions as the ranks.

Prints turn R@10, session R@5 / R@6 / R@8 / R@10 and the adversarial turn R@10. Split A's
conversations have 19 sessions (B's ~30): its R@6 stands where B's R@10 does.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
import numpy as np
import qdrant_edge

from bench.recall import data, fit
from bench.recall.lexical import BM25, tokenize
from bench.recall.splits import SPLITS
from contracts.retrieve_limits import TurnLimits
from services.rag_gate import fusion, spread

WINDOW, STRIDE = 3, 2  # turns per dense window, and the step between windows
SHIPPED = (fit.candidates, spread.session_weights, fusion.score_turns)


@dataclass(frozen=True)
class SessionDocs:
    """One conversation's sessions as whole documents."""

    numbers: list[str]
    bm25: BM25
    stemmed: list[dict[int, float]]  # the product's BM25 document weights per session
    idf: dict[int, float]  # over the sessions
    mean: np.ndarray  # unit mean of each session's turn vectors
    window_owner: list[str]
    windows: np.ndarray  # MiniLM of each window of WINDOW turns


ENCODER: list[qdrant_edge.Bm25] = []


def documents(ix: fit.Indexed, embed: Callable[[list[str]], Any]) -> SessionDocs:
    sessions = [s for s in ix.conversation.sessions if s.turns]
    texts = [" ".join(fit.said(t) for t in s.turns) for s in sessions]
    lengths = [len(tokenize(t)) for t in texts]
    config = qdrant_edge.Bm25Config(ascii_folding=True, avg_len=float(np.mean(lengths)))
    ENCODER[:] = [qdrant_edge.Bm25(config)]
    stemmed = [dict(zip(v.indices, v.values, strict=True)) for v in map(encode_document, texts)]
    df: dict[int, int] = {}
    for doc in stemmed:
        for term in doc:
            df[term] = df.get(term, 0) + 1
    n = len(stemmed)
    position = {t.dia_id: i for i, t in enumerate(ix.turns)}
    mean = np.asarray([ix.dense[[position[t.dia_id] for t in s.turns]].mean(0) for s in sessions])
    owner, window_texts = [], []
    for s in sessions:
        for start in range(0, max(1, len(s.turns) - WINDOW + 1), STRIDE):
            owner.append(str(s.number))
            window_texts.append("\n".join(fit.said(t) for t in s.turns[start : start + WINDOW]))
    return SessionDocs(
        [str(s.number) for s in sessions],
        BM25([tokenize(t) for t in texts]),
        stemmed,
        {term: math.log1p((n - k + 0.5) / (k + 0.5)) for term, k in df.items()},
        mean / np.linalg.norm(mean, axis=1, keepdims=True),
        owner,
        np.asarray(embed(window_texts), dtype=np.float32),
    )


def encode_document(text: str) -> qdrant_edge.SparseVector:
    return ENCODER[0].embed_document(text)


def raw_scores(docs: SessionDocs, kind: str, question: str, qvec: np.ndarray) -> np.ndarray:
    """One score per session of ``kind``: bm25, stemmed, mean, windows."""
    if kind == "bm25":
        return docs.bm25.scores(tokenize(question))
    if kind == "stemmed":
        terms = ENCODER[0].embed_query(question).indices
        return np.asarray(
            [sum(docs.idf.get(t, 0.0) * d.get(t, 0.0) for t in terms) for d in docs.stemmed]
        )
    if kind == "mean":
        return np.asarray(docs.mean @ qvec)
    best: dict[str, float] = {}
    for owner, cosine in zip(docs.window_owner, docs.windows @ qvec, strict=True):
        best[owner] = max(best.get(owner, -1.0), float(cosine))
    return np.asarray([best.get(n, -1.0) for n in docs.numbers])


def session_scores(
    docs: SessionDocs, kinds: Sequence[str], question: str, qvec: np.ndarray, top: int | None
) -> dict[str, float]:
    """Each session's share of the best session's score: one kind's score, or the RRF of the
    kinds' rankings; with ``top``, only the first ``top`` sessions, ``61 / (60 + rank)``."""
    if len(kinds) == 1 and top is None:
        values = raw_scores(docs, kinds[0], question, qvec)
    else:
        values = np.zeros(len(docs.numbers))
        for kind in kinds:
            ranked = np.argsort(-raw_scores(docs, kind, question, qvec), kind="stable")
            values[ranked] += 1.0 / (fit.RRF_K + np.arange(1, len(ranked) + 1))
    order = np.argsort(-values, kind="stable")
    if top is not None:
        return {
            docs.numbers[j]: (fit.RRF_K + 1) / (fit.RRF_K + r) for r, j in enumerate(order[:top], 1)
        }
    best = float(values[order[0]]) or 1.0
    return {n: float(v) / best for n, v in zip(docs.numbers, values, strict=True)}


@dataclass
class Row:
    kinds: tuple[str, ...] = ("bm25", "mean")
    mix: float = 0.0
    top: int | None = None
    add: int = 0
    boost: float = 0.0


ROWS: dict[str, Row] = {
    "shipped": Row(),
    "BM25 + mean dense (RRF), mix 0.3": Row(mix=0.3),
    "BM25 + mean dense (RRF), mix 0.5": Row(mix=0.5),
    "BM25 + mean dense (RRF), mix 0.7": Row(mix=0.7),
    "BM25 score, mix 0.5": Row(kinds=("bm25",), mix=0.5),
    "stemmed BM25 score, mix 0.5": Row(kinds=("stemmed",), mix=0.5),
    "stemmed BM25 + mean dense (RRF), mix 0.5": Row(kinds=("stemmed", "mean"), mix=0.5),
    "mean dense, mix 0.5": Row(kinds=("mean",), mix=0.5),
    "3-turn windows dense, mix 0.5": Row(kinds=("windows",), mix=0.5),
    "BM25 + windows (RRF), mix 0.3": Row(kinds=("bm25", "windows"), mix=0.3),
    "first 8 sessions by rank, mix 0.3": Row(top=8, mix=0.3),
    "first 20 sessions by rank, mix 0.3": Row(top=20, mix=0.3),
    "mix 0.5, + first 10 sessions' nearest turns": Row(mix=0.5, add=10),
    "session boost 0.25 (first 5 sessions)": Row(boost=0.25),
    "session boost 0.5 (first 5 sessions)": Row(boost=0.5),
}
NOW: dict[str, Any] = {}  # the row, the question's session scores, the conversation's documents


def candidates(
    ix: fit.Indexed, q: data.Question, qvec: np.ndarray, limits: TurnLimits
) -> list[fusion.TurnCandidate]:
    row, docs = NOW["row"], NOW["docs"][id(ix)]
    found = SHIPPED[0](ix, q, qvec, limits)
    NOW["scores"] = session_scores(docs, row.kinds, q.text, qvec, row.top)
    have = {c.session_id for c in found}
    first = sorted(NOW["scores"], key=lambda s: -NOW["scores"][s])[: row.add]
    cosines, bm = ix.dense @ qvec, ix.bm25.scores(tokenize(q.text))
    for session in (s for s in first if s not in have):
        i = max(
            (i for i, t in enumerate(ix.turns) if str(t.session) == session),
            key=lambda i: cosines[i],
        )
        turn = ix.turns[i]
        found.append(
            fusion.TurnCandidate(
                id=turn.dia_id,
                rrf=0.0,
                similarity=float(cosines[i]),
                speaker=None if turn.speaker == turn.role else turn.speaker,
                session_id=session,
                entity_ids=frozenset(),
                bm25=float(bm[i]) if bm[i] > 0 else None,
                words=fusion.words(fit.said(turn)),
            )
        )
    return found


def weights(session_of: Mapping[str, str], relevance: Mapping[str, float]) -> dict[str, float]:
    shipped, mix = SHIPPED[1](session_of, relevance), NOW["row"].mix
    if not mix:
        return shipped
    best = max(shipped.values(), default=1.0) or 1.0
    return {s: (1 - mix) * w / best + mix * NOW["scores"].get(s, 0.0) for s, w in shipped.items()}


def score_turns(found: list[fusion.TurnCandidate], **kwargs: Any) -> list[fusion.ScoredTurn]:
    boost = NOW["row"].boost
    if boost:
        first = sorted(NOW["scores"], key=lambda s: -NOW["scores"][s])[:5]
        kwargs["session_ranks"] = {s: r for r, s in enumerate(first, 1)}
        kwargs["limits"] = msgspec.structs.replace(kwargs["limits"], session_boost=boost)
    return SHIPPED[2](found, **kwargs)


def measure(indexed: Sequence[fit.Indexed], qvecs: dict[str, np.ndarray]) -> str:
    turn: list[float] = []
    adversarial: list[float] = []
    sessions: dict[int, list[float]] = {5: [], 6: [], 8: [], 10: []}
    for ix in indexed:
        for q in ix.conversation.questions:
            if not q.evidence or q.category not in (1, 2, 3, 4, 5):
                continue
            items = fit.rank(ix, q, fit.UNNAMED_VECS.get(q.qid, qvecs[q.qid]), TurnLimits())
            (adversarial if q.category == 5 else turn).append(
                fit.turn_recall(items, q.evidence, 10)
            )
            for k, values in sessions.items():
                if q.category != 5:
                    values.append(fit.session_recall(items, q.evidence, k))
    cut = " · ".join(f"{np.mean(v):.3f}" for v in sessions.values())
    tail = f"adversarial {np.mean(adversarial):.3f}"
    return f"turn R@10 {np.mean(turn):.3f}  session R@5·6·8·10 {cut}  {tail}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.recall.session_sources")
    parser.add_argument("--split", default="A", choices=("A", "B"))
    args = parser.parse_args(argv)
    samples = {s for name, ids in SPLITS.items() if f"LoCoMo {args.split} " in name for s in ids}
    conversations = [c for c in data.load() if c.sample_id in samples]
    data.score_adversarial()
    embed = fit.fit_embedder()
    indexed = [fit.index(c, embed) for c in conversations]
    NOW["docs"] = {id(ix): documents(ix, embed) for ix in indexed}
    questions = [q for c in conversations for q in c.questions if q.evidence]
    qvecs = dict(zip((q.qid for q in questions), embed([q.text for q in questions]), strict=True))
    fit.UNNAMED_VECS.update(fit.unnamed_vectors(conversations, qvecs, embed))
    fit.candidates = candidates
    spread.session_weights = weights
    fusion.score_turns = score_turns  # type: ignore[assignment]
    try:
        for name, row in ROWS.items():
            NOW["row"] = row
            print(f"{args.split} {name:44s} {measure(indexed, qvecs)}", flush=True)
    finally:
        fit.candidates, spread.session_weights, fusion.score_turns = SHIPPED


if __name__ == "__main__":
    main()
