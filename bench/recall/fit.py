"""rag-gate's raw-turn ranking, offline, over the raw turns of the dev split it is fitted on.

    uv run python -m bench.recall.fit                     # split A: LoCoMo conv-26/30, BEAM 1-5
    uv run python -m bench.recall.fit --split B           # only to report, never to choose

What the ``messages`` index and rag-gate do, without the product: a turn's dense vector is of
``speaker: text`` (MiniLM, cached in ``bench/out/cache-fit``), its BM25 of the turn with the
one before it; the index proposes ``candidates`` turns by RRF of the two; the relative cutoff
keeps those above ``max(floor, top1 - margin)``; :func:`services.rag_gate.fusion.score_turns`
scores them with the product's own code (graph-hydrator's entities stand in as the speakers
the question names), :mod:`services.rag_gate.updates` moves newer turns first, and the turns
are shown as rag-gate shows them (with the message before it when ``context`` is on). Each setting
of :data:`SETTINGS` is one row: turn R@5/R@10, session R@10, LoCoMo's adversarial R@10 and
BEAM's update order. BM25 is bench's own (no stemming), not Qdrant's, so absolute figures
differ from the product's; the settings are compared with each other.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import msgspec
import numpy as np

from bench.recall import beam, data
from bench.recall.lexical import BM25, tokenize
from bench.recall.splits import SPLITS, update_outcome
from contracts.retrieve_limits import TurnLimits
from services.core.standing import is_standing
from services.rag_gate import across, fusion, period, search, spread, unnamed, updates, when
from services.rag_gate import standing as rag_standing

RRF_K = 60


@dataclass(frozen=True)
class Indexed:
    """One conversation as the ``messages`` collection holds it."""

    conversation: data.Conversation
    turns: list[data.Turn]
    dense: np.ndarray
    bm25: BM25
    previous: dict[str, str | None]  # dia_id → the turn before it in its session
    standing: frozenset[int] = frozenset()  # the turns the commit marks standing
    now: datetime = datetime.max.replace(tzinfo=UTC)  # when questions are asked
    ends: dict[int, datetime] = field(default_factory=dict)  # session → its last turn's time


def said(turn: data.Turn) -> str:
    return turn.content if turn.speaker == turn.role else f"{turn.speaker}: {turn.content}"


def index(conversation: data.Conversation, embed: Callable) -> Indexed:
    turns = conversation.turns
    previous: dict[str, str | None] = {}
    pair = []
    for session in conversation.sessions:
        before = None
        for turn in session.turns:
            previous[turn.dia_id] = before.dia_id if before else None
            pair.append(f"{said(before)[:600]}\n{said(turn)}" if before else said(turn))
            before = turn
    dense = np.asarray(embed([said(t) for t in turns]), dtype=np.float32)
    rules = frozenset(i for i, t in enumerate(turns) if is_standing(t.role, t.content))
    ends = {s.number: max(t.ts for t in s.turns) for s in conversation.sessions if s.turns}
    now = max(ends.values()) + timedelta(days=1)  # as bench/recall asks
    return Indexed(
        conversation, turns, dense, BM25([tokenize(p) for p in pair]), previous, rules, now, ends
    )


def names_in(question: str, conversation: data.Conversation) -> list[str]:
    """The speakers a question names: graph-hydrator's person entities, approximately."""
    words = set(re.findall(r"\w+", question.lower()))
    return [s for s in conversation.speakers if s.split()[0].lower() in words]


def candidates(ix: Indexed, q: data.Question, qvec: np.ndarray, limits: TurnLimits) -> list:
    cos = ix.dense @ qvec
    bm = ix.bm25.scores(tokenize(q.text))
    dense_rank = np.argsort(-cos, kind="stable")
    rrf = np.zeros(len(ix.turns))
    rrf[dense_rank] += 1.0 / (RRF_K + np.arange(1, len(ix.turns) + 1))
    lexical = [i for i in np.argsort(-bm, kind="stable") if bm[i] > 0]
    rrf[lexical] += 1.0 / (RRF_K + np.arange(1, len(lexical) + 1))
    top = np.argsort(-rrf, kind="stable")[: limits.candidates]
    head = [i for i in dense_rank[: min(search.TURN_DENSE_HEAD, limits.candidates)] if i not in top]
    top = np.concatenate([top[: limits.candidates - len(head)], np.asarray(head, dtype=top.dtype)])
    asked = period.named(q.text, ix.now) if PERIOD else None
    extra = [
        i for i in standing_best(ix, rrf) + dated_best(ix, asked, cos, bm) if i not in set(top)
    ]
    top = np.concatenate([top, np.asarray(list(dict.fromkeys(extra)), dtype=top.dtype)])
    bar = max(limits.floor, float(cos[top].max()) - limits.margin)
    kept = [i for i in top if cos[i] > bar]
    out = []
    for i in kept:
        turn = ix.turns[i]
        out.append(
            fusion.TurnCandidate(
                id=turn.dia_id,
                rrf=float(rrf[i]),
                similarity=float(cos[i]),
                speaker=None if turn.speaker == turn.role else turn.speaker,
                session_id=str(turn.session),
                entity_ids=frozenset(),
                bm25=float(bm[i]) if bm[i] > 0 else None,
                dated=when.says_when(turn.content),
                words=fusion.words(said(turn)),
                standing=STANDING and i in ix.standing,
                in_period=asked is not None and asked.holds(turn.ts),
            )
        )
    return out


def standing_best(ix: Indexed, rrf: np.ndarray) -> list[int]:
    """The standing search: the best :data:`standing.SEARCH` standing instructions by the
    same hybrid score (RRF of the whole collection's ranks stands in for the filtered one's)."""
    if not STANDING or not ix.standing:
        return []
    mine = sorted(ix.standing, key=lambda i: -rrf[i])
    return mine[: rag_standing.SEARCH]


def dated_best(
    ix: Indexed, asked: period.Period | None, cos: np.ndarray, bm: np.ndarray
) -> list[int]:
    """The named period's search (:mod:`services.rag_gate.period`): the best
    :data:`period.SEARCH` turns of the period's sessions (the latest ``SESSIONS`` active in it)
    by RRF of their dense and BM25 ranks among those turns alone."""
    if asked is None or period.SEARCH == 0:
        return []
    sessions = [s.number for s in ix.conversation.sessions if s.start < asked.end]
    sessions = [n for n in sessions if ix.ends[n] >= asked.start][-period.SESSIONS :]
    among = np.asarray([i for i, t in enumerate(ix.turns) if t.session in set(sessions)])
    if not len(among):
        return []
    fused = np.zeros(len(among))
    for scores in (cos[among], bm[among]):
        fused[np.argsort(-scores, kind="stable")] += 1.0 / (RRF_K + np.arange(1, len(among) + 1))
    return [int(among[j]) for j in np.argsort(-fused, kind="stable")[: period.SEARCH]]


def rank(ix: Indexed, q: data.Question, qvec: np.ndarray, limits: TurnLimits) -> list[frozenset]:
    """The items rag-gate would return for ``q``'s turns: each the turn and its context."""
    found = candidates(ix, q, qvec, limits)
    crossing = ACROSS and across.asks_across(q.text)
    scored = fusion.score_turns(
        found,
        limits=limits,
        entity_ids=(),
        entity_names=names_in(q.text, ix.conversation),
        session_ranks={},
        asks_when=when.asks_when(q.text),
        across=crossing,
    )
    by_id = {t.dia_id: t for t in ix.turns}
    query_terms = frozenset(tokenize(q.text))
    said_ = {
        t.id: updates.Said(
            by_id[t.id].ts,
            by_id[t.id].speaker,
            frozenset(tokenize(by_id[t.id].content)) & query_terms,
        )
        for t in scored[: updates.WINDOW]
    }
    order, _ = updates.newer_first([t.id for t in scored], said_)
    if SPREAD_HEAD is not None:
        sessions = {t.id: str(by_id[t.id].session) for t in scored}
        relevance = {t.id: t.details["relevance"] for t in scored}
        order = spread.spread(order, sessions, relevance, SPREAD_HEAD)
    items, shown = [], set()
    for dia in order:
        if dia in shown:
            continue
        before = ix.previous[dia] if limits.context else None
        cover = {dia} | ({before} if before and before not in shown else set())
        shown |= cover
        items.append(frozenset(cover))
    return items[: limits.max]


def turn_recall(items: Sequence[frozenset], evidence: Sequence[str], k: int) -> float:
    return len(set().union(*items[:k]) & set(evidence)) / len(evidence)


def session_recall(items: Sequence[frozenset], evidence: Sequence[str], k: int = 10) -> float:
    order = list(dict.fromkeys(data.session_of(t) for item in items for t in sorted(item)))
    wanted = {data.session_of(e) for e in evidence}
    return len(wanted & set(order[:k])) / len(wanted)


BEFORE = {"candidates": 32, "margin": 0.3}
OLD = {"unnamed": False, "standing": False, "period": False, "across": False}  # later levers off
SETTINGS: dict[str, dict] = {
    "before (round 1)": {**OLD, "patch": {"SESSION_SHARE": 0.0}, "limits": BEFORE, "spread": None},
    "+ session context 0.8": {**OLD, "limits": BEFORE, "spread": None},
    "+ margin 0.7": {**OLD, "limits": {"candidates": 32}, "spread": None},
    "+ 64 candidates": {**OLD, "spread": None},
    "+ spread": OLD,
    "+ standing instructions": {"unnamed": False, "period": False, "across": False},
    "+ unnamed turn query": {"period": False, "across": False},
    "+ named period": {"across": False},
    "+ no session context across sessions (shipped)": {},
    "shipped, period boost 0.5": {"period_boost": 0.5},
    "shipped, period boost 2": {"period_boost": 2.0},
    "shipped, period search 8": {"period_search": 8},
    "shipped, period search 0": {"period_search": 0},
    "shipped, period boost 0": {"period_boost": 0.0},
    "shipped, unnamed share 0.7": {"share": 0.7},
    "shipped, standing boost 3": {"boost": 3.0},
    "shipped, session 0.6": {"patch": {"SESSION_SHARE": 0.6}},
    "shipped, session 1.0": {"patch": {"SESSION_SHARE": 1.0}},
    "shipped, margin 0.5": {"limits": {"margin": 0.5}},
    "shipped, 48 candidates": {"limits": {"candidates": 48}},
    "shipped, entity 0.25": {"limits": {"entity_boost": 0.25}},
    "shipped, entity 0": {"limits": {"entity_boost": 0.0}},
    "shipped, spread after 5": {"spread": 5},
    "shipped, spread by top 1": {"top": 1},
    "shipped, spread by top 3": {"top": 3},
}


SPREAD_HEAD: int | None = spread.HEAD
ACROSS = True  # no session context for a question across sessions (:mod:`.across`)
PER_ABILITY = False
ABILITIES: dict[str, list[float]] = {}  # BEAM R@10 per ability, of the last setting
STANDING = True  # the standing search beside the turn search
PERIOD = True  # the named period's search and lift (:mod:`services.rag_gate.period`)
UNNAMED = True  # the turn search's query without the speakers it names
UNNAMED_VECS: dict[str, np.ndarray] = {}
ROLES = ("user", "assistant")  # BEAM's speakers are its roles: no person is named
BOOST, SHARE = rag_standing.BOOST, unnamed.SHARE  # as shipped
PERIOD_BOOST, PERIOD_SEARCH = period.BOOST, period.SEARCH


def patched(patch: dict) -> dict:
    """Sets :mod:`services.rag_gate.fusion` constants; returns the old values."""
    old = {name: getattr(fusion, name) for name in patch}
    for name, value in patch.items():
        setattr(fusion, name, value)
    return old


def measure(indexed: Sequence[Indexed], qvecs: dict, limits: TurnLimits) -> dict[str, float]:
    r5, r10, s10, adv, locomo, beam_r, temporal = [], [], [], [], [], [], []
    multi: list[float] = []
    outcomes: Counter = Counter()
    for ix in indexed:
        for q in ix.conversation.questions:
            if not q.evidence or not (q.ability or q.category in (1, 2, 3, 4, 5)):
                continue
            qvec = UNNAMED_VECS.get(q.qid, qvecs[q.qid]) if UNNAMED else qvecs[q.qid]
            items = rank(ix, q, qvec, limits)
            r = turn_recall(items, q.evidence, 10)
            if q.category == 5:
                adv.append(r)
                continue
            r5.append(turn_recall(items, q.evidence, 5))
            r10.append(r)
            (beam_r if q.ability else locomo).append(r)
            if q.ability == "multi_session_reasoning":
                multi.append(r)
            if q.ability:
                ABILITIES.setdefault(q.ability, []).append(r)
            if not q.ability:
                s10.append(session_recall(items, q.evidence))
            if q.category == 2 and not q.ability:
                temporal.append(r)
            if q.older:
                flat = [[None, None, sorted(i)] for i in items]
                outcomes[update_outcome(flat, q.older, q.newer)] += 1

    def mean(xs: list[float]) -> float:
        return sum(xs) / len(xs) if xs else float("nan")

    return {
        "LoCoMo R@10": mean(locomo),
        "session R@10": mean(s10),
        "temporal R@10": mean(temporal),
        "adversarial R@10": mean(adv),
        "BEAM R@10": mean(beam_r),
        "BEAM multi-session R@10": mean(multi),
        "R@5": mean(r5),
        "newer first": outcomes["newer first"] + outcomes["only newer"],
        "older first": outcomes["older first"] + outcomes["only older"],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.recall.fit")
    parser.add_argument("--split", default="A", choices=("A", "B"))
    parser.add_argument("--only", default="", help="SETTINGS names, separated by |")
    parser.add_argument("--abilities", action="store_true", help="BEAM R@10 per ability too")
    args = parser.parse_args(argv)
    global PER_ABILITY
    PER_ABILITY = args.abilities
    wanted = [ids for name, ids in SPLITS.items() if f" {args.split} " in name]
    samples = {s for ids in wanted for s in ids}
    conversations = [c for c in data.load() if c.sample_id in samples]
    chats = sorted(int(s.split("-")[1]) for s in samples if s.startswith("beam-"))
    conversations += beam.load(chats)
    data.score_adversarial()
    embed = fit_embedder()
    indexed = [index(c, embed) for c in conversations]
    questions = [q for c in conversations for q in c.questions if q.evidence]
    vectors = embed([q.text for q in questions])
    qvecs = {q.qid: v for q, v in zip(questions, vectors, strict=True)}
    names = args.only.split("|") if args.only else list(SETTINGS)
    for name in names:
        limits = msgspec.structs.replace(TurnLimits(), **SETTINGS[name].get("limits", {}))
        old = patched(SETTINGS[name].get("patch", {}))
        global SPREAD_HEAD
        SPREAD_HEAD = SETTINGS[name].get("spread", spread.HEAD)
        spread.SESSION_TOP = SETTINGS[name].get("top", 2)
        global STANDING, UNNAMED, PERIOD, ACROSS
        ACROSS = SETTINGS[name].get("across", True)
        STANDING, UNNAMED, PERIOD = (
            SETTINGS[name].get(k, True) for k in ("standing", "unnamed", "period")
        )
        period.BOOST = SETTINGS[name].get("period_boost", PERIOD_BOOST)
        period.SEARCH = SETTINGS[name].get("period_search", PERIOD_SEARCH)
        rag_standing.BOOST = SETTINGS[name].get("boost", BOOST)
        unnamed.SHARE = SETTINGS[name].get("share", SHARE)
        UNNAMED_VECS.update(unnamed_vectors(conversations, qvecs, embed))
        ABILITIES.clear()
        got = measure(indexed, qvecs, limits)
        if PER_ABILITY:
            print("  " + "; ".join(f"{a} {sum(v) / len(v):.3f}" for a, v in ABILITIES.items()))
        patched(old)
        print(f"{name:32s} " + "  ".join(f"{k} {v:.3f}" for k, v in got.items()), flush=True)


def unnamed_vectors(
    conversations: Sequence[data.Conversation], qvecs: dict, embed: Callable
) -> dict[str, np.ndarray]:
    """The turn search's query of each question that names a speaker (:mod:`.unnamed`, the
    speakers standing in for graph-hydrator's Person entities)."""
    texts = {}
    for c in conversations:
        names = [n for s in c.speakers if s not in ROLES for n in {s, s.split()[0]}]
        for q in c.questions:
            if q.qid in qvecs and (text := unnamed.without_names(q.text, names)):
                texts[q.qid] = text
    vectors = embed(list(texts.values())) if texts else []
    return {
        qid: np.asarray(unnamed.mixed(qvecs[qid], v), dtype=np.float32)
        for qid, v in zip(texts, vectors, strict=True)
    }


def fit_embedder() -> Callable:
    """bench's cached MiniLM with a cache of its own (another bench may be writing the
    shared one)."""
    import bench.common as common

    saved = common.OUT
    common.OUT = saved / "fit"
    try:
        return common.cached_embedder()
    finally:
        common.OUT = saved


if __name__ == "__main__":
    main()
