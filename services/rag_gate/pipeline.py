"""One turn of rag-gate: gate → (continuity ∥ embed → vector searches) → rows → rank → cards.

Round trips per turn, whatever the memory size:

- gate closed: 1 SQL statement (continuity); no embedding, no vector search;
- gate open: 1 embedding call (the message, once, for all four collections); 5 vector
  searches run concurrently (episodes, knowledge shared + user-owned, facts, messages), plus 1
  when the entity-narrowed episode search finds nothing and is repeated un-narrowed; 3 SQL
  statements: continuity (on its own connection, while the embedding runs), the hit rows (and
  the seed entities' names), then the entity-card facts (skipped when no fact survived).

Recalled turns are re-ranked with the entity and episode signals, and every returned item is
placed in one fused order, ``ranking`` (:mod:`services.rag_gate.fusion`).

Degrading, not failing: when the embedder or the vector index does not answer, the slots it
feeds come back empty with ``degraded`` saying why, and continuity still comes from Postgres;
a Postgres failure propagates (the app answers 503).
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from contracts.common import Provenance
from contracts.envelope_io import FactsSlot
from contracts.recall import (
    EpisodeHit,
    EpisodeSlot,
    KnowledgeHit,
    KnowledgeSlot,
    RankedItem,
    RecalledTurn,
)
from contracts.retrieve import RetrieveDebug, RetrieveRequest, RetrieveResponse
from contracts.retrieve_limits import Cutoff
from contracts.slots import FactLine, Turn
from services.core.errors import DependencyUnavailable
from services.core.resources import Resources
from services.core.vectors import VectorHit
from services.rag_gate import fusion, ranking, store
from services.rag_gate.gate import CUE_WORDS, decide, retrieval_query

T = TypeVar("T")

VECTORS_DOWN = "vector index unavailable"
EMBEDDER_DOWN = "embedder unavailable"
TURN_CHARS = 800  # 001: recent messages are capped at 800 characters each
SUMMARY_CHARS = 600  # 001: LATEST SESSION SUMMARY is capped at 600 characters
ONE_LINER_CHARS = 2_000
AS_OF_MARGIN = timedelta(hours=1)  # a `now` this far behind the clock reads history too


@functools.cache
def _terms() -> store.Terms:
    return store.Terms()


@functools.cache
def _cue_terms() -> frozenset[int]:
    return _terms().of_query(" ".join(CUE_WORDS))


class Timings(dict[str, float]):
    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self[name] = round((time.perf_counter() - started) * 1000, 3)


async def retrieve(res: Resources, req: RetrieveRequest, now: datetime) -> RetrieveResponse:
    timings = Timings()
    started = time.perf_counter()
    gate = decide(req.message, entity_ids=req.entity_ids, scratch=req.scratch, force=req.force)
    query = retrieval_query(req.message, req.scratch)
    debug = RetrieveDebug(query=query)
    continuity = _continuity(res, req, now, timings)
    fused: list[RankedItem] = []
    if gate.open and query:
        cont, (episode, knowledge, facts, fused) = await _both(
            continuity, _retrieve(res, req, query, now, timings, debug)
        )
    else:
        cont = await continuity
        episode, knowledge, facts = EpisodeSlot(), KnowledgeSlot(), FactsSlot()
    episode.latest_session_summary = _summary_text(cont.summary)
    episode.previous_session_tail = [
        Turn(
            role=m.role,
            text=ranking.clip(m.text, TURN_CHARS),
            speaker=m.speaker,
            ts=m.ts,
            message_id=m.message_id,
        )
        for m in cont.tail
    ]
    timings["total"] = round((time.perf_counter() - started) * 1000, 3)
    return RetrieveResponse(
        gate=gate,
        EPISODE=episode,
        KNOWLEDGE=knowledge,
        FACTS=facts,
        ranking=fused,
        timings=dict(timings),
        debug=debug,
    )


async def _continuity(
    res: Resources, req: RetrieveRequest, now: datetime, timings: Timings
) -> store.Continuity:
    idle_since = now - timedelta(minutes=res.settings.session_idle_minutes)
    with timings.stage("sql_continuity"):
        async with res.pg.acquire() as conn:
            return await store.load_continuity(
                conn,
                user_id=req.user_id,
                agent_id=req.agent_id,
                chat_id=req.chat_id,
                now=now,
                idle_since=idle_since,
                tail_turns=req.limits.tail_turns,
            )


async def _retrieve(
    res: Resources,
    req: RetrieveRequest,
    query: str,
    now: datetime,
    timings: Timings,
    debug: RetrieveDebug,
) -> tuple[EpisodeSlot, KnowledgeSlot, FactsSlot, list[RankedItem]]:
    limits = req.limits
    debug.embedder = getattr(res.embedder, "name", None)
    try:
        with timings.stage("embed"):
            (dense,) = await res.embedder.embed([query])
    except DependencyUnavailable:
        return _degraded(EMBEDDER_DOWN)
    with timings.stage("vectors"):
        found = await store.search(
            res.vectors,
            user_id=req.user_id,
            agent_id=req.agent_id,
            dense=dense,
            text=query,
            entity_ids=req.entity_ids,
            top_k=limits.episodes.top_k,
            knowledge_k=limits.knowledge.k,
            fact_candidates=limits.facts.candidates if limits.facts.max else 0,
            turn_candidates=limits.turns.candidates if limits.turns.max else 0,
            history=now < datetime.now(UTC) - AS_OF_MARGIN,
        )
    debug.episode_filter = found.episode_filter
    debug.candidates = {
        name: len(hits)
        for name, hits in (
            ("episodes", found.episodes),
            ("knowledge", found.knowledge),
            ("facts", found.facts),
            ("turns", found.turns),
        )
        if hits is not None
    }
    async with res.pg.acquire() as conn:
        with timings.stage("sql_rows"):
            rows = await store.load_rows(
                conn,
                user_id=req.user_id,
                agent_id=req.agent_id,
                now=now,
                episode_ids=_ids(found.episodes),
                chunk_ids=_ids(found.knowledge),
                fact_ids=_ids(found.facts),
                message_ids=_ids(found.turns),
                entity_ids=req.entity_ids,
                previous=limits.turns.context,
            )
        with timings.stage("rank"):
            terms = _terms().of_query(query)
            episode = _episode_slot(found.episodes, rows, req, terms, debug)
            episode.turns = _turns(found.turns, found.episodes, rows, req, terms, debug)
            knowledge = _knowledge_slot(found.knowledge, rows, req, terms, debug)
            ranked, entities = _rank_facts(found.facts, rows, req, terms, now, debug)
        with timings.stage("sql_cards"):
            cards = (
                await store.load_card_facts(
                    conn,
                    user_id=req.user_id,
                    agent_id=req.agent_id,
                    now=now,
                    entity_ids=[e.entity_id for e in entities],
                    exclude_ids=[r.id for r in ranked],
                    per_entity=limits.facts.card_facts,
                )
                if entities
                else {}
            )
    facts = _facts_slot(found.facts, ranked, rows, entities, cards, req)
    return episode, knowledge, facts, _ranking(episode, knowledge, facts, req)


def _degraded(reason: str) -> tuple[EpisodeSlot, KnowledgeSlot, FactsSlot, list[RankedItem]]:
    return (
        EpisodeSlot(degraded=reason),
        KnowledgeSlot(degraded=reason),
        FactsSlot(degraded=reason),
        [],
    )


def _ids(hits: list[VectorHit] | None) -> list[str]:
    return [hit.id for hit in hits or ()]


def _candidates(
    hits: list[VectorHit], live: dict[str, Any], text_of: Callable[[Any], str]
) -> list[ranking.Candidate]:
    return [
        ranking.Candidate(hit.id, rank, hit.score, hit.similarity, text=text_of(live[hit.id]))
        for rank, hit in enumerate(hits, 1)
        if hit.id in live
    ]


def _cut(
    name: str,
    hits: list[VectorHit],
    live: dict[str, Any],
    text_of: Callable[[Any], str],
    params: Cutoff,
    terms: frozenset[int],
    debug: RetrieveDebug,
) -> tuple[list[ranking.Kept], float]:
    candidates = _candidates(hits, live, text_of)
    kept, bar = ranking.apply_cutoff(
        candidates, params, query_terms=terms, cue_terms=_cue_terms(), terms_of=_terms().of_document
    )
    debug.thresholds[name] = round(bar, 4)
    _count(debug, f"{name}_not_live", len(hits) - len(candidates))
    _count(debug, f"{name}_below_cutoff", len(candidates) - len(kept))
    return kept, bar


def _episode_slot(
    hits: list[VectorHit] | None,
    rows: store.Rows,
    req: RetrieveRequest,
    terms: frozenset[int],
    debug: RetrieveDebug,
) -> EpisodeSlot:
    if hits is None:
        return EpisodeSlot(degraded=VECTORS_DOWN)
    kept, bar = _cut(
        "episodes",
        hits,
        rows.episodes,
        lambda r: f"{r.one_liner or ''} {r.reflection}",
        req.limits.episodes,
        terms,
        debug,
    )
    out = []
    for k in kept:
        row = rows.episodes[k.candidate.id]
        # grounded provenance: the messages its Evidence quotes, not its whole session
        # (``provenance.message_ids`` in Postgres keeps the range it consolidated)
        message_ids = row.cited or []
        out.append(
            EpisodeHit(
                episode_id=row.episode_id,
                ts=row.ts,
                day=row.day,
                one_liner=ranking.clip(row.one_liner or "", ONE_LINER_CHARS),
                reflection=row.reflection,
                score=round(k.candidate.similarity or 0.0, 4),
                score_details=ranking.cutoff_details(k, bar),
                entity_ids=[str(e) for e in row.entity_ids],
                provenance=Provenance(
                    row_id=row.episode_id,
                    source="episode",
                    message_ids=[str(m) for m in message_ids],
                ),
            )
        )
    return EpisodeSlot(hits=out)


def _turns(
    hits: list[VectorHit] | None,
    episode_hits: list[VectorHit] | None,
    rows: store.Rows,
    req: RetrieveRequest,
    terms: frozenset[int],
    debug: RetrieveDebug,
) -> list[RecalledTurn]:
    """Recalled raw turns: cut like the other hits, then re-ranked (:mod:`.fusion`)."""
    if not hits:
        return []
    limits = req.limits.turns
    kept, _ = _cut(
        "turns", hits, rows.messages, lambda r: fusion.said(r.speaker, r.text), limits, terms, debug
    )
    payloads = {hit.id: hit.payload for hit in hits}
    live_episodes = [h for h in episode_hits or () if h.id in rows.episodes]
    session_ranks: dict[str, int] = {}
    for rank, hit in enumerate(live_episodes, 1):
        session = rows.episodes[hit.id].session_id
        if session and session not in session_ranks:
            session_ranks[str(session)] = rank
    candidates = [
        fusion.TurnCandidate(
            id=k.candidate.id,
            rrf=k.candidate.rrf,
            similarity=k.candidate.similarity,
            speaker=rows.messages[k.candidate.id].speaker,
            session_id=str(rows.messages[k.candidate.id].session_id),
            entity_ids=frozenset(str(e) for e in payloads[k.candidate.id].get("entity_ids") or ()),
            lexical=k.lexical,
        )
        for k in kept
    ]
    scored = fusion.score_turns(
        candidates,
        limits=limits,
        entity_ids=req.entity_ids,
        entity_names=rows.entity_names,
        session_ranks=session_ranks,
    )
    out: list[RecalledTurn] = []
    shown: set[str] = set()  # a message is shown once, as a turn or as a turn's context
    for turn in scored:
        row = rows.messages[turn.id]
        if row.message_id in shown:
            _count(debug, "turns_shown_as_context", 1)
            continue
        if len(out) == limits.max:
            _count(debug, "turns_over_max", 1)
            continue
        before = row.previous if row.previous and row.previous.message_id not in shown else None
        shown.add(row.message_id)
        context = None
        if before is not None:
            shown.add(before.message_id)
            context = Turn(
                role=before.role,
                text=ranking.clip(before.text, TURN_CHARS),
                speaker=before.speaker,
                ts=before.ts,
                message_id=before.message_id,
            )
        out.append(
            RecalledTurn(
                message_id=row.message_id,
                session_id=row.session_id,
                ts=row.ts,
                role=row.role,
                speaker=row.speaker,
                text=ranking.clip(row.text, TURN_CHARS),
                score=round(turn.score, 6),
                score_details=turn.details,
                context=context,
                provenance=Provenance(
                    row_id=row.message_id,
                    source="message",
                    message_ids=[*([before.message_id] if before else []), row.message_id],
                ),
            )
        )
    return out


def _ranking(
    episode: EpisodeSlot, knowledge: KnowledgeSlot, facts: FactsSlot, req: RetrieveRequest
) -> list[RankedItem]:
    items = [
        *(
            fusion.Slotted(
                "turn",
                t.message_id,
                i,
                fusion.words(t.text) + (fusion.words(t.context.text) if t.context else 0),
            )
            for i, t in enumerate(episode.turns, 1)
        ),
        *(
            fusion.Slotted("fact", f.fact_id, i, fusion.words(f.text))
            for i, f in enumerate(facts.relevant_facts, 1)
        ),
        *(
            fusion.Slotted(
                "episode", h.episode_id, i, fusion.words(f"{h.one_liner} {h.reflection}")
            )
            for i, h in enumerate(episode.hits, 1)
        ),
        *(
            fusion.Slotted("knowledge", h.chunk_id, i, fusion.words(h.text))
            for i, h in enumerate(knowledge.hits, 1)
        ),
    ]
    return [
        RankedItem(kind=item.kind, id=item.id, score=round(score, 6))
        for item, score in fusion.fuse(items, req.limits.fusion)
    ]


def _knowledge_slot(
    hits: list[VectorHit] | None,
    rows: store.Rows,
    req: RetrieveRequest,
    terms: frozenset[int],
    debug: RetrieveDebug,
) -> KnowledgeSlot:
    if hits is None:
        return KnowledgeSlot(degraded=VECTORS_DOWN)
    kept, bar = _cut(
        "knowledge", hits, rows.chunks, lambda r: r.text, req.limits.knowledge, terms, debug
    )
    out = []
    for k in kept:
        row = rows.chunks[k.candidate.id]
        out.append(
            KnowledgeHit(
                chunk_id=row.chunk_id,
                doc_id=row.doc_id,
                domain=row.domain,
                section=" > ".join(str(s) for s in row.section_path),
                text=row.text,
                score=round(k.candidate.similarity or 0.0, 4),
                score_details=ranking.cutoff_details(k, bar),
            )
        )
    return KnowledgeSlot(hits=out)


def _entities(row: store.FactRow) -> list[ranking.Entity]:
    """The fact's entities as 000 keys, the user's own entity left out (see ranking)."""
    entities = [
        ranking.Entity(e.entity_id, ranking.entity_key(e.entity_ref, e.name, e.category), e.name)
        for e in (row.subject, row.object)
        if e is not None
    ]
    return [e for e in entities if not ranking.is_self(e.ref)]


def _rank_facts(
    hits: list[VectorHit] | None,
    rows: store.Rows,
    req: RetrieveRequest,
    terms: frozenset[int],
    now: datetime,
    debug: RetrieveDebug,
) -> tuple[list[ranking.Ranked], list[ranking.Entity]]:
    if not hits:
        return [], []
    limits = req.limits.facts
    kept, _ = _cut("facts", hits, rows.facts, lambda r: r.text, limits, terms, debug)
    entities_of = {k.candidate.id: _entities(rows.facts[k.candidate.id]) for k in kept}
    facts = [
        (
            k,
            rows.facts[k.candidate.id].text,
            rows.facts[k.candidate.id].updated_at,
            [e.ref for e in entities_of[k.candidate.id]],
        )
        for k in kept
    ]
    ranked, duplicates = ranking.rank_facts(
        facts,
        now=now,
        half_life_days=limits.half_life_days,
        weights=limits.weights,
        limit=len(facts),
    )
    _count(debug, "facts_duplicate", duplicates)
    _count(debug, "facts_over_max", max(0, len(ranked) - limits.max))
    ranked = ranked[: limits.max]
    entities = (
        ranking.card_entities((entities_of[r.id] for r in ranked), 2 * limits.cards)
        if limits.cards
        else []
    )
    return ranked, entities


def _facts_slot(
    hits: list[VectorHit] | None,
    ranked: list[ranking.Ranked],
    rows: store.Rows,
    entities: list[ranking.Entity],
    cards: dict[str, list[tuple[str, str]]],
    req: RetrieveRequest,
) -> FactsSlot:
    if hits is None:
        return FactsSlot(degraded=VECTORS_DOWN)
    lines = []
    for r in ranked:
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
                provenance=Provenance(
                    row_id=row.rel_id,
                    source=row.source,
                    message_ids=[str(m) for m in row.message_ids],
                ),
            )
        )
    entity_cards = ranking.build_cards(
        entities,
        cards,
        exclude_ids=[r.id for r in ranked],
        exclude_texts=[r.text for r in ranked],
        per_card=req.limits.facts.card_facts,
    )[: req.limits.facts.cards]
    return FactsSlot(relevant_facts=lines, entity_cards=entity_cards)


def _summary_text(summary: dict[str, Any] | None) -> str | None:
    """``one_liner — what mattered: a; b`` from an episode's summary, at most 600 characters."""
    if not summary:
        return None
    one_liner = str(summary.get("one_liner") or "").strip()
    mattered = [str(x).strip() for x in summary.get("what_mattered") or () if str(x).strip()]
    text = one_liner
    if mattered:
        text = f"{text} — what mattered: " if text else "What mattered: "
        text += "; ".join(mattered)
    return ranking.clip(text, SUMMARY_CHARS) if text else None


def _count(debug: RetrieveDebug, key: str, n: int) -> None:
    if n:
        debug.dropped[key] = debug.dropped.get(key, 0) + n


async def _both(first: Awaitable[Any], second: Awaitable[T]) -> tuple[Any, T]:
    """Run both to the end (no task left behind), then raise the first failure if any."""
    a, b = await asyncio.gather(first, second, return_exceptions=True)
    for outcome in (a, b):
        if isinstance(outcome, BaseException):
            raise outcome
    return a, b
