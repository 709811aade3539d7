"""The EPISODE hits, KNOWLEDGE and FACTS slots from the index's hits and their live rows. Pure.

Each function returns its slot with a :class:`Tally` of what it dropped and the cosine bar it
held the hits to; the orchestrator (:mod:`services.rag_gate.pipeline`) adds the tallies up into
``debug``. A slot whose search failed (hits None) comes back ``degraded``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypeVar

from contracts.common import Provenance
from contracts.envelope_io import FactsSlot
from contracts.recall import EpisodeHit, EpisodeSlot, KnowledgeHit, KnowledgeSlot, RecalledTurn
from contracts.retrieve import RetrieveRequest
from contracts.retrieve_limits import Cutoff
from contracts.slots import FactLine
from services.core.vectors import VectorHit
from services.core.vectors.layout import SparseEncoder
from services.rag_gate import ranking
from services.rag_gate.cards import Entity, build_cards, card_entities, entity_key, is_self
from services.rag_gate.gate import CUE_WORDS
from services.rag_gate.store import FactRow, Rows

R = TypeVar("R")

VECTORS_DOWN = "vector index unavailable"
ONE_LINER_CHARS = 2_000


class Terms:
    """BM25 terms exactly as the index analyses text (stemmed, stopwords and accents dropped)."""

    def __init__(self) -> None:
        self._encoder = SparseEncoder()

    def of_query(self, text: str) -> frozenset[int]:
        return frozenset(self._encoder.query(text).indices)

    def of_document(self, text: str) -> frozenset[int]:
        return frozenset(self._encoder.document(text).indices)


@functools.cache
def terms() -> Terms:
    return Terms()


@functools.cache
def _cue_terms() -> frozenset[int]:
    return terms().of_query(" ".join(CUE_WORDS))


@dataclass(frozen=True, slots=True)
class Tally:
    """What assembling a slot dropped (reason → count, zeros left out) and the cosine bar
    each kind of hit was held to."""

    dropped: dict[str, int] = field(default_factory=dict)
    thresholds: dict[str, float] = field(default_factory=dict)


def counted(**counts: int) -> dict[str, int]:
    return {key: n for key, n in counts.items() if n}


def add_up(tallies: Iterable[Tally]) -> Tally:
    dropped: dict[str, int] = {}
    thresholds: dict[str, float] = {}
    for tally in tallies:
        for key, n in tally.dropped.items():
            dropped[key] = dropped.get(key, 0) + n
        thresholds.update(tally.thresholds)
    return Tally(dropped, thresholds)


@dataclass(frozen=True, slots=True)
class Cut:
    """The hits that passed the relative cutoff, the bar they passed, what was dropped."""

    kept: list[ranking.Kept]
    bar: float
    tally: Tally


def cut(
    name: str,
    hits: list[VectorHit],
    live: Mapping[str, R],
    text_of: Callable[[R], str],
    params: Cutoff,
    query_terms: frozenset[int],
    skipped: frozenset[str] = frozenset(),
) -> Cut:
    """The live hits (rows in Postgres) that pass ``params``' relative cutoff, in index order;
    ``skipped`` hits were not read, being sure to fail it (:func:`.search.cap`)."""
    candidates = [
        ranking.Candidate(hit.id, rank, hit.score, hit.similarity, text=text_of(live[hit.id]))
        for rank, hit in enumerate(hits, 1)
        if hit.id in live
    ]
    unread = sum(1 for hit in hits if hit.id in skipped)
    kept, bar = ranking.apply_cutoff(
        candidates,
        params,
        query_terms=query_terms,
        cue_terms=_cue_terms(),
        terms_of=terms().of_document,
    )
    dropped = {
        f"{name}_not_live": len(hits) - len(candidates) - unread,
        f"{name}_below_cutoff": len(candidates) - len(kept) + unread,
    }
    return Cut(kept, bar, Tally(counted(**dropped), {name: round(bar, 4)}))


def episode_hits(
    hits: list[VectorHit] | None,
    rows: Rows,
    req: RetrieveRequest,
    query_terms: frozenset[int],
    turns: list[RecalledTurn],
) -> tuple[EpisodeSlot, Tally]:
    """The episode slot: its hits beside the recalled ``turns`` (its continuity fields come from
    the orchestrator, once continuity has loaded)."""
    if hits is None:
        return EpisodeSlot(turns=turns, degraded=VECTORS_DOWN), Tally()
    done = cut(
        "episodes",
        hits,
        rows.episodes,
        lambda r: f"{r.one_liner or ''} {r.reflection}",
        req.limits.episodes,
        query_terms,
    )
    out = []
    for k in done.kept:
        row = rows.episodes[k.candidate.id]
        # grounded provenance: the messages its Evidence quotes, not its whole session
        # (``provenance.message_ids`` in Postgres keeps the range it consolidated)
        out.append(
            EpisodeHit(
                episode_id=row.episode_id,
                ts=row.ts,
                day=row.day,
                one_liner=ranking.clip(row.one_liner or "", ONE_LINER_CHARS),
                reflection=row.reflection,
                score=round(k.candidate.similarity or 0.0, 4),
                score_details=ranking.cutoff_details(k, done.bar),
                entity_ids=[str(e) for e in row.entity_ids],
                provenance=Provenance(
                    row_id=row.episode_id,
                    source="episode",
                    message_ids=[str(m) for m in row.cited or []],
                ),
            )
        )
    return EpisodeSlot(hits=out, turns=turns), done.tally


def knowledge_slot(
    hits: list[VectorHit] | None,
    rows: Rows,
    req: RetrieveRequest,
    query_terms: frozenset[int],
    skipped: frozenset[str] = frozenset(),
) -> tuple[KnowledgeSlot, Tally]:
    if hits is None:
        return KnowledgeSlot(degraded=VECTORS_DOWN), Tally()
    done = cut(
        "knowledge", hits, rows.chunks, lambda r: r.text, req.limits.knowledge, query_terms, skipped
    )
    out = []
    for k in done.kept:
        row = rows.chunks[k.candidate.id]
        out.append(
            KnowledgeHit(
                chunk_id=row.chunk_id,
                doc_id=row.doc_id,
                domain=row.domain,
                section=" > ".join(str(s) for s in row.section_path),
                text=row.text,
                score=round(k.candidate.similarity or 0.0, 4),
                score_details=ranking.cutoff_details(k, done.bar),
            )
        )
    return KnowledgeSlot(hits=out), done.tally


def _entities(row: FactRow) -> list[Entity]:
    """The fact's entities as 000 keys, the user's own entity left out (see ranking)."""
    entities = [
        Entity(e.entity_id, entity_key(e.entity_ref, e.name, e.category), e.name)
        for e in (row.subject, row.object)
        if e is not None
    ]
    return [e for e in entities if not is_self(e.ref)]


@dataclass(frozen=True, slots=True)
class RankedFacts:
    """The relevant facts best first (at most ``max``) and the entities to build cards for."""

    ranked: list[ranking.Ranked]
    entities: list[Entity]
    tally: Tally


def rank_facts(
    hits: list[VectorHit] | None,
    rows: Rows,
    req: RetrieveRequest,
    query_terms: frozenset[int],
    now: datetime,
    skipped: frozenset[str] = frozenset(),
) -> RankedFacts:
    if not hits:
        return RankedFacts([], [], Tally())
    limits = req.limits.facts
    done = cut("facts", hits, rows.facts, lambda r: r.text, limits, query_terms, skipped)
    entities_of = {k.candidate.id: _entities(rows.facts[k.candidate.id]) for k in done.kept}
    facts = [
        (
            k,
            rows.facts[k.candidate.id].text,
            rows.facts[k.candidate.id].updated_at,
            [e.ref for e in entities_of[k.candidate.id]],
        )
        for k in done.kept
    ]
    ranked, duplicates = ranking.rank_facts(
        facts,
        now=now,
        half_life_days=limits.half_life_days,
        weights=limits.weights,
        limit=len(facts),
    )
    tally = add_up(
        [
            done.tally,
            Tally(
                counted(facts_duplicate=duplicates, facts_over_max=max(0, len(ranked) - limits.max))
            ),
        ]
    )
    ranked = ranked[: limits.max]
    entities = (
        card_entities((entities_of[r.id] for r in ranked), 2 * limits.cards) if limits.cards else []
    )
    return RankedFacts(ranked, entities, tally)


def facts_slot(
    hits: list[VectorHit] | None,
    facts: RankedFacts,
    rows: Rows,
    cards: dict[str, list[tuple[str, str]]],
    req: RetrieveRequest,
) -> FactsSlot:
    """The relevant facts and the entity cards built from ``cards`` (their SQL answer)."""
    if hits is None:
        return FactsSlot(degraded=VECTORS_DOWN)
    lines = []
    for r in facts.ranked:
        row = rows.facts[r.id]
        lines.append(
            FactLine(
                fact_id=row.rel_id,
                text=row.text,
                memory_type=row.memory_type,
                importance=row.importance,
                pinned=row.pinned,
                source=row.source,
                score=round(r.score, 4),
                score_details=r.details,
                confidence=row.confidence,
                valid_to=row.valid_to,
                provenance=Provenance(
                    row_id=row.rel_id,
                    source=row.source,
                    message_ids=[str(m) for m in row.message_ids],
                ),
            )
        )
    entity_cards = build_cards(
        facts.entities,
        cards,
        exclude_ids=[r.id for r in facts.ranked],
        exclude_texts=[r.text for r in facts.ranked],
        per_card=req.limits.facts.card_facts,
    )[: req.limits.facts.cards]
    return FactsSlot(relevant_facts=lines, entity_cards=entity_cards)
