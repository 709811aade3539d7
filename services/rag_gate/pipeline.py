"""One turn of rag-gate: gate → (continuity ∥ embed → vector searches) → rows → rank → cards.

Round trips per turn, whatever the memory size:

- gate closed: 1 SQL statement (continuity); no embedding, no vector search;
- gate open: 1 embedding call (2 when it names a person, :mod:`.unnamed`); the vector
  searches, concurrently (episodes, knowledge, facts, messages with its standing and period
  searches: those the limits and the question ask for, :mod:`.search`; the episodes' once
  more un-narrowed when the entity-narrowed one finds nothing); 3 SQL statements: continuity
  (beside the embedding, as are the seed entities' names and the named period's sessions,
  :mod:`.dated`), the hit rows, then the entity-card facts (skipped when no fact survived).
  Hits sure to fail their cutoff are neither read nor ranked (:func:`.search.cap`).

The slots are assembled by pure functions (:mod:`.slots`, :mod:`.turns`); this module only
does the I/O, times the stages and adds up what each assembly dropped into ``debug``.

Degrading, not failing: when the embedder or the vector index does not answer, the slots it
feeds come back empty with ``degraded`` saying why, and continuity still comes from Postgres;
a Postgres failure propagates (the app answers 503).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TypeVar

import msgspec
import structlog

from contracts.envelope_io import FactsSlot
from contracts.recall import EpisodeSlot, KnowledgeSlot, RankedItem
from contracts.retrieve import RetrieveDebug, RetrieveRequest, RetrieveResponse
from services.core.deps import Connection, Database
from services.core.embedder import Embedder
from services.core.errors import DependencyUnavailable
from services.core.settings import Settings
from services.core.vectors import VectorHit, VectorIndex
from services.rag_gate import continuity, dated, period, search, slots, store, turns, unnamed
from services.rag_gate.gate import decide, retrieval_query
from services.rag_gate.store import Rows

A = TypeVar("A")
B = TypeVar("B")

EMBEDDER_DOWN = "embedder unavailable"
AS_OF_MARGIN = timedelta(hours=1)  # a `now` this far behind the clock reads history too


class Timings(dict[str, float]):
    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self[name] = round((time.perf_counter() - started) * 1000, 3)


@dataclass(slots=True)
class Recalled:
    """What an open gate found: the three slots, their fused order, and the debug figures."""

    episode: EpisodeSlot = field(default_factory=EpisodeSlot)
    knowledge: KnowledgeSlot = field(default_factory=KnowledgeSlot)
    facts: FactsSlot = field(default_factory=FactsSlot)
    ranking: list[RankedItem] = field(default_factory=list)
    debug: RetrieveDebug = field(default_factory=RetrieveDebug)


async def retrieve(
    db: Database,
    vectors: VectorIndex,
    embedder: Embedder,
    settings: Settings,
    req: RetrieveRequest,
    now: datetime,
) -> RetrieveResponse:
    timings = Timings()
    started = time.perf_counter()
    gate = decide(req.message, entity_ids=req.entity_ids, scratch=req.scratch, force=req.force)
    query = retrieval_query(req.message, req.scratch)
    idle_since = now - timedelta(minutes=settings.session_idle_minutes)
    loading = _continuity(db, req, now, idle_since, timings)
    if gate.open and query:
        cont, found = await _both(loading, _recall(db, vectors, embedder, req, query, now, timings))
    else:
        cont, found = await loading, Recalled(debug=RetrieveDebug(query=query))
    episode = msgspec.structs.replace(  # continuity loaded beside the recall, not before it
        found.episode,
        latest_session_summary=turns.summary_text(cont.summary),
        previous_session_tail=turns.tail(cont.tail),
    )
    timings["total"] = round((time.perf_counter() - started) * 1000, 3)
    return RetrieveResponse(
        gate=gate,
        EPISODE=episode,
        KNOWLEDGE=found.knowledge,
        FACTS=found.facts,
        ranking=found.ranking,
        timings=dict(timings),
        debug=found.debug,
    )


async def _continuity(
    db: Database, req: RetrieveRequest, now: datetime, idle_since: datetime, timings: Timings
) -> continuity.Continuity:
    with timings.stage("sql_continuity"):
        async with db.acquire() as conn:
            return await continuity.load_continuity(
                conn,
                user_id=req.user_id,
                agent_id=req.agent_id,
                chat_id=req.chat_id,
                now=now,
                idle_since=idle_since,
                tail_turns=req.limits.tail_turns,
            )


async def _recall(
    db: Database,
    vectors: VectorIndex,
    embedder: Embedder,
    req: RetrieveRequest,
    query: str,
    now: datetime,
    timings: Timings,
) -> Recalled:
    limits = req.limits
    asked = period.named(query, now) if limits.turns.max else None
    dense, turn_dense, sessions = await _embed_both(db, embedder, req, query, asked, timings)
    if dense is None:
        return _unembedded(query, embedder.name)
    planned = search.plan(
        limits,
        user_id=req.user_id,
        agent_id=req.agent_id,
        dense=dense,
        text=query,
        entity_ids=req.entity_ids,
        history=now < datetime.now(UTC) - AS_OF_MARGIN,
        turn_dense=turn_dense,
        period_sessions=sessions,
    )
    with timings.stage("vectors"):
        found = search.cap(await search.search(vectors, planned), limits)
    async with db.acquire() as conn:
        with timings.stage("sql_rows"):
            rows = await _rows(conn, req, now, found)
        with timings.stage("rank"):
            terms = slots.terms().of_query(query)
            recalled, turn_tally = turns.recalled_turns(
                found.turns,
                found.episodes,
                rows,
                req,
                terms,
                found.skipped,
                found.standing,
                asked if sessions else None,
            )
            episode, episode_tally = slots.episode_hits(found.episodes, rows, req, terms, recalled)
            knowledge, knowledge_tally = slots.knowledge_slot(
                found.knowledge, rows, req, terms, found.skipped
            )
            facts = slots.rank_facts(found.facts, rows, req, terms, now, found.skipped)
        with timings.stage("sql_cards"):
            cards = await _cards(conn, req, now, facts)
    facts_slot = slots.facts_slot(found.facts, facts, rows, cards, req)
    tally = slots.add_up([episode_tally, turn_tally, knowledge_tally, facts.tally])
    return Recalled(
        episode,
        knowledge,
        facts_slot,
        turns.fused_ranking(episode, knowledge, facts_slot, limits.fusion),
        _debug(query, embedder.name, found, tally),
    )


async def _embed_both(
    db: Database,
    embedder: Embedder,
    req: RetrieveRequest,
    query: str,
    asked: period.Period | None,
    timings: Timings,
) -> tuple[list[float] | None, list[float] | None, list[str]]:
    """The query's dense vector, the turn search's (:mod:`.unnamed`: the seed entities' names
    taken out, when the query says one; else None), and the sessions of the period the query
    names (:mod:`.period`), the names and sessions read beside the first embedding."""
    names: list[str] = []
    sessions: list[str] = []
    if (req.entity_ids and req.limits.turns.max) or asked is not None:
        dense, (names, sessions) = await _both(
            _embed(embedder, query, timings), dated.names_and_sessions(db, req, asked)
        )
    else:
        dense = await _embed(embedder, query, timings)
    unnamed_query = unnamed.without_names(query, names) if dense is not None else None
    if dense is None or unnamed_query is None:
        return dense, None, sessions
    other = await _embed(embedder, unnamed_query, timings, "embed_unnamed")
    return dense, unnamed.mixed(dense, other) if other is not None else None, sessions


async def _embed(
    embedder: Embedder, query: str, timings: Timings, stage: str = "embed"
) -> list[float] | None:
    """The query's dense vector; None when the embedder is down."""
    try:
        with timings.stage(stage):
            return await embedder.embed_query(query)
    except DependencyUnavailable as exc:
        structlog.get_logger().warning("query_unembedded", error=str(exc))
        return None


def _unembedded(query: str, embedder: str) -> Recalled:
    """Every recalled slot degraded: the query could not be embedded."""
    return Recalled(
        EpisodeSlot(degraded=EMBEDDER_DOWN),
        KnowledgeSlot(degraded=EMBEDDER_DOWN),
        FactsSlot(degraded=EMBEDDER_DOWN),
        debug=RetrieveDebug(query=query, embedder=embedder),
    )


async def _rows(conn: Connection, req: RetrieveRequest, now: datetime, found: search.Found) -> Rows:
    """The Postgres rows of every hit (skipped ones excepted), as of ``now``."""
    return await store.load_rows(
        conn,
        user_id=req.user_id,
        agent_id=req.agent_id,
        now=now,
        episode_ids=_ids(found.episodes),
        chunk_ids=_ids(found.knowledge, found.skipped),
        fact_ids=_ids(found.facts, found.skipped),
        message_ids=_ids(found.turns, found.skipped),
        entity_ids=req.entity_ids,
        previous=req.limits.turns.context,
    )


async def _cards(
    conn: Connection, req: RetrieveRequest, now: datetime, facts: slots.RankedFacts
) -> dict[str, list[tuple[str, str]]]:
    """The entity cards' facts of the entities the ranked facts name."""
    if not facts.entities:
        return {}
    return await store.load_card_facts(
        conn,
        user_id=req.user_id,
        agent_id=req.agent_id,
        now=now,
        entity_ids=[e.entity_id for e in facts.entities],
        exclude_ids=[r.id for r in facts.ranked],
        per_entity=req.limits.facts.card_facts,
    )


def _debug(query: str, embedder: str, found: search.Found, tally: slots.Tally) -> RetrieveDebug:
    return RetrieveDebug(
        query=query,
        embedder=embedder,
        episode_filter=found.episode_filter,
        thresholds=tally.thresholds,
        candidates={
            name: len(hits)
            for name, hits in (
                ("episodes", found.episodes),
                ("knowledge", found.knowledge),
                ("facts", found.facts),
                ("turns", found.turns),
            )
            if hits is not None
        },
        dropped=tally.dropped,
    )


def _ids(hits: list[VectorHit] | None, skipped: frozenset[str] = frozenset()) -> list[str]:
    return [hit.id for hit in hits or () if hit.id not in skipped]


async def _both(first: Awaitable[A], second: Awaitable[B]) -> tuple[A, B]:
    """Run both to the end (no task left behind), then raise the first failure if any."""
    a, b = await asyncio.gather(first, second, return_exceptions=True)
    if isinstance(a, BaseException):
        raise a
    if isinstance(b, BaseException):
        raise b
    return a, b
