"""RELEVANT MEMORIES: every slot's evidence for this message in one order, best first (pure).

The items are rag-gate's recalled turns, facts, episodes and knowledge chunks, the entity
cards, and graph-hydrator's edges (the subgraph of the entities the message names). Each scores
as rag-gate's fused ``ranking`` scored it (weighted reciprocal-rank fusion, turns 1 · knowledge
0.8 · facts 0.5 · episodes 0.3 by default); an item the ranking does not hold — cards, edges,
graph-hydrator's own relevant facts, or every item when the request carries no ranking —
scores ``weight / (60 + its rank in its slot)`` with the same default weights, and 0.5 for
cards and edges (they are Postgres facts, like a fact). These weights are not fitted to any
benchmark. Equal scores put the shorter item first, then the slots' order.

A card counts as its facts, one item each with its fact id (so a card fact and the relation
graph-hydrator loaded for the same row are one line); a fact, card fact or relation stored
under :data:`UNVERIFIED_BELOW` is an ``UNVERIFIED`` item, rendered in an
``authority="unverified"`` block, never in an authoritative GRAPH one.

So what answers this message comes first whatever slot holds it (a dated raw turn carries
its evidence in far fewer words than an episode reflection: bench/RESULTS.md), and a budget
(``memory_budget_words``) cuts from the end of this order, never from its head.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from contracts.envelope import InferenceEnvelope
from contracts.envelope_io import MemoryItem
from contracts.recall import RankedItem
from contracts.retrieve_limits import FusionWeights
from contracts.slots import UNVERIFIED_BELOW, GraphSlot, Turn
from services.envelope_validator import lines
from services.envelope_validator.lines import quote

_WORDS = re.compile(r"\w+")
RRF_K = 60
DEFAULT = FusionWeights()
CARD_WEIGHT = 0.5
EDGE_WEIGHT = 0.5

Source = Literal["GRAPH", "UNVERIFIED", "EPISODE", "KNOWLEDGE"]
Kind = Literal["fact", "card", "edge", "turn", "episode", "knowledge"]


@dataclass(frozen=True, slots=True)
class Evidence:
    kind: Kind
    id: str
    source: Source
    line: str  # the quoted line the block carries
    words: int  # whitespace words of the text it shows
    score: float
    text: str = ""  # what it says, for deduplication

    @property
    def row(self) -> str:
        """The row it shows: a fact, a card fact and an edge of the same relation are one row."""
        return (
            f"rel:{self.id}" if self.kind in ("fact", "card", "edge") else f"{self.kind}:{self.id}"
        )


def graph_source(confidence: float) -> Source:
    """A stored fact under :data:`UNVERIFIED_BELOW` is shown as unverified, not as GRAPH."""
    return "GRAPH" if confidence >= UNVERIFIED_BELOW else "UNVERIFIED"


@dataclass(frozen=True, slots=True)
class Budgeted:
    kept: list[Evidence]
    left_out: list[Evidence]


def words(text: str) -> int:
    return len(text.split())


def collect(
    env: InferenceEnvelope, ranking: Sequence[RankedItem], now: datetime | None = None
) -> list[Evidence]:
    """Every evidence item of the envelope, best first (``now``: a relation starting later
    reads "from", not "since")."""
    scores: dict[tuple[str, str], float] = {(r.kind, r.id): r.score for r in ranking}
    scored: list[tuple[float, int, int, Evidence]] = []
    for slot in [_turn_items(env), *_graph_items(env.GRAPH, now), *_past_items(env)]:
        for rank, (kind, item_id, source, line, text, weight) in enumerate(slot, 1):
            score = scores.get((kind, item_id), weight / (RRF_K + rank))
            n = words(text)
            scored.append(
                (-score, n, len(scored), Evidence(kind, item_id, source, line, n, score, text))
            )
    scored.sort(key=lambda x: x[:3])
    return [item for *_, item in scored]


_Item = tuple[Kind, str, Source, str, str, float]  # kind, id, source, line, text, weight


def _turn_items(env: InferenceEnvelope) -> list[_Item]:
    """The recalled turns, in rag-gate's order."""
    return [
        (
            "turn",
            t.message_id,
            "EPISODE",
            quote(lines.recalled(t)),
            f"{t.context.text if t.context else ''} {t.text}",
            DEFAULT.turn,
        )
        for t in env.EPISODE.turns
    ]


def _graph_items(graph: GraphSlot, now: datetime | None) -> list[list[_Item]]:
    """GRAPH's relevant facts, entity cards' facts and edges, each in its producer's order."""
    return [
        [
            (
                "fact",
                f.fact_id,
                graph_source(f.confidence),
                quote(lines.fact_line(f)),
                f.text,
                DEFAULT.fact,
            )
            for f in graph.relevant_facts
        ],
        [
            (
                "card",
                fact_id or f"{c.entity_ref}#{n}",
                "GRAPH",
                quote(lines.fact(fact_id, text)),
                text,
                CARD_WEIGHT,
            )
            for c in graph.entity_cards
            for n, (fact_id, text) in enumerate(lines.card_facts(c))
        ],
        [
            (
                "edge",
                e.rel_id,
                graph_source(e.confidence),
                quote(lines.edge(e, now)),
                lines.edge_text(e),
                EDGE_WEIGHT,
            )
            for e in graph.edges
        ],
    ]


def _past_items(env: InferenceEnvelope) -> list[list[_Item]]:
    """The episodes and the knowledge chunks, each in its producer's order."""
    return [
        [
            (
                "episode",
                h.episode_id,
                "EPISODE",
                quote(lines.episode(h)),
                f"{h.one_liner} {h.reflection}",
                DEFAULT.episode,
            )
            for h in env.EPISODE.hits
        ],
        [
            ("knowledge", h.chunk_id, "KNOWLEDGE", quote(lines.chunk(h)), h.text, DEFAULT.knowledge)
            for h in env.KNOWLEDGE.hits
        ],
    ]


def dedupe(items: Sequence[Evidence], shown: Iterable[str]) -> tuple[list[Evidence], int]:
    """Each row once, and no line saying what the foundation (``shown``) or a better ranked
    item of another kind already says: a relation rag-gate found as a fact and graph-hydrator
    loaded as an edge is one line, where it ranks best. (Repeats within one slot are its
    producer's to drop.)"""
    said: dict[str, str] = {_key(t): "foundation" for t in shown}
    rows: set[str] = set()
    kept = []
    for item in items:
        key = _key(item.text)
        if item.row in rows or said.get(key, item.kind) != item.kind:
            continue
        rows.add(item.row)
        said.setdefault(key, item.kind)
        kept.append(item)
    return kept, len(items) - len(kept)


def _key(text: str) -> str:
    return " ".join(_WORDS.findall(text.casefold()))


def budget(items: Iterable[Evidence], limit: int | None) -> Budgeted:
    """The items that fit ``limit`` words, in order (a long item left out does not stop a
    shorter one after it); everything when ``limit`` is None."""
    items = list(items)
    if limit is None:
        return Budgeted(items, [])
    kept, left_out, used = [], [], 0
    for item in items:
        if used + item.words <= limit:
            kept.append(item)
            used += item.words
        else:
            left_out.append(item)
    return Budgeted(kept, left_out)


def blocks(items: Sequence[Evidence]) -> list[tuple[Source, list[str]]]:
    """Consecutive items of one slot share a ``<data>`` block, so each keeps its authority."""
    out: list[tuple[Source, list[str]]] = []
    for item in items:
        if out and out[-1][0] == item.source:
            out[-1][1].append(item.line)
        else:
            out.append((item.source, [item.line]))
    return out


def memory_order(
    graph: GraphSlot, evidence: Sequence[Evidence], tail: Sequence[Turn]
) -> list[MemoryItem]:
    """The memory items in the order the system message renders them."""
    return [
        *(
            MemoryItem(section="foundation", kind="foundation", id=f.fact_id, words=words(f.text))
            for f in graph.foundation
        ),
        *(MemoryItem(section="relevant", kind=e.kind, id=e.id, words=e.words) for e in evidence),
        *(
            MemoryItem(section="todos", kind="todo", id=t.todo_id, words=words(t.text))
            for t in (*graph.commitments, *graph.threads, *graph.frictions, *graph.wins)
        ),
        *(
            MemoryItem(section="episodes", kind="tail", id=t.message_id or "", words=words(t.text))
            for t in tail
        ),
    ]
