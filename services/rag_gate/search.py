"""rag-gate's vector searches: which collections a turn asks for, and the searches themselves.

The index only proposes ids; Postgres decides what is live (:mod:`services.rag_gate.store`).
At most 4 kinds of search run, concurrently, each only when the request's limits ask for that
collection (:func:`plan`; 0 skips one):

- episodes, narrowed to the seed entities, and once more un-narrowed if that finds nothing
  (entity extraction can miss, and a new entity has no episode yet, yet the turn still
  deserves continuity);
- knowledge: the agent's shared chunks (owned by ``SHARED_OWNER``) and the user's own
  documents in one search with one filter; another user's documents never match it;
- facts: PROFILE/PEOPLE/PROJECT only, filtered in the index, so no candidate slot goes to a
  PSYCHE fact;
- this agent's logged messages (raw-turn recall), and beside it the person's standing
  instructions among them alone (:mod:`services.rag_gate.standing`; not for a question that
  looks back at what was said) and, when the question names a day or a month, the turns of
  that period's sessions alone (:mod:`services.rag_gate.period`), both merged into its hits;
  its candidates hold the nearest turns by cosine whatever their RRF (:data:`TURN_DENSE_HEAD`).

Only :class:`VectorIndexUnavailable` is caught: a failing collection comes back as None, with
a ``vector_search_failed`` warning in the log.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal, TypeVar

import structlog

from contracts.retrieve_limits import Cutoff, Limits
from services.core.memory_store.message_index import STANDING
from services.core.vectors import VectorHit, VectorIndex, VectorIndexUnavailable
from services.core.vectors.port import PayloadValue
from services.rag_gate import period, standing

T = TypeVar("T")
EpisodeFilter = Literal["entities", "fallback", "none"]
MEMORY_TYPES = ("PROFILE", "PEOPLE", "PROJECT")  # 001 invariant: never PSYCHE
# The turn search's candidates hold the first turns by cosine whatever their RRF: among long
# messages, where almost every turn shares a word with the question, RRF's first 64 left out
# the nearest turns that share none ("Always include semantic HTML5 tag usage details …" for
# "which HTML elements should I use …", cosine 3rd of 194). Fitted on split A only (BEAM chats
# 1-5, the product's own retrieve in process over the bench's memory): BEAM R@10 0.630 → 0.642
# (5 or 10) → 0.647 (20; instruction following 0.650 → 0.750, knowledge update 0.925 → 0.975).
TURN_DENSE_HEAD = 20


@dataclass(frozen=True, slots=True)
class Query:
    """One turn's searches: the query's vectors, who asks, and how many hits of each
    collection (0: the collection is not searched)."""

    user_id: str
    agent_id: str
    dense: Sequence[float]
    text: str
    entity_ids: Sequence[str]
    episodes: int
    knowledge: int
    facts: int
    turns: int
    history: bool = False  # an as-of read: closed facts too (Postgres keeps what was true)
    standing: bool = True  # the person's standing instructions searched (:func:`standing.applies`)
    turn_dense: Sequence[float] | None = None  # the turn searches' own (:mod:`.unnamed`)
    period_sessions: Sequence[str] = ()  # the sessions of the period the question names


def plan(
    limits: Limits,
    *,
    user_id: str,
    agent_id: str,
    dense: Sequence[float],
    text: str,
    entity_ids: Sequence[str],
    history: bool,
    turn_dense: Sequence[float] | None = None,
    period_sessions: Sequence[str] = (),
) -> Query:
    """The searches the request's limits ask for: knowledge ``k`` 0, facts ``max`` 0 or turns
    ``max`` 0 each skip their collection."""
    return Query(
        user_id=user_id,
        agent_id=agent_id,
        dense=dense,
        text=text,
        entity_ids=entity_ids,
        episodes=limits.episodes.top_k,
        knowledge=limits.knowledge.k,
        facts=limits.facts.candidates if limits.facts.max else 0,
        turns=limits.turns.candidates if limits.turns.max else 0,
        history=history,
        turn_dense=turn_dense,
        standing=standing.applies(text),
        period_sessions=period_sessions,
    )


@dataclass(frozen=True, slots=True)
class Found:
    """What the index proposed; None for a collection whose search failed."""

    episodes: list[VectorHit] | None
    knowledge: list[VectorHit] | None
    facts: list[VectorHit] | None
    episode_filter: EpisodeFilter | None
    turns: list[VectorHit] | None = None
    skipped: frozenset[str] = frozenset()  # ids not worth reading (:func:`cap`)
    standing: frozenset[str] = frozenset()  # turn hits that are standing instructions


async def search(vectors: VectorIndex, q: Query) -> Found:
    """Every search the query asks for, at once. Hits carry no payload: rag-gate reads the
    rows, a message's entities included, from Postgres by id."""
    ep, kn, fa, tu, st, da = await asyncio.gather(
        _or_none("episodes", _episodes(vectors, q)),
        _or_none("knowledge", _knowledge(vectors, q)),
        _or_none("facts", _facts(vectors, q)),
        _or_none("messages", _turns(vectors, q)),
        _or_none("messages", _standing(vectors, q)),
        _or_none("messages", _dated(vectors, q)),
    )
    turns_, rules = standing.merged(_added(tu, da), st)
    return Found(
        episodes=ep[0] if ep else None,
        knowledge=kn,
        facts=fa,
        episode_filter=ep[1] if ep else None,
        turns=turns_,
        standing=rules,
    )


async def _episodes(vectors: VectorIndex, q: Query) -> tuple[list[VectorHit], EpisodeFilter]:
    if q.entity_ids:
        hits = await vectors.search(
            "episodes",
            user_id=q.user_id,
            agent_id=q.agent_id,
            entity_ids=list(q.entity_ids),
            limit=q.episodes,
            dense=q.dense,
            text=q.text,
            payload=(),
        )
        if hits:
            return hits, "entities"
    hits = await vectors.search(
        "episodes",
        user_id=q.user_id,
        agent_id=q.agent_id,
        limit=q.episodes,
        dense=q.dense,
        text=q.text,
        payload=(),
    )
    return hits, "fallback" if q.entity_ids else "none"


async def _knowledge(vectors: VectorIndex, q: Query) -> list[VectorHit]:
    if q.knowledge == 0:
        return []
    return await vectors.search(
        "knowledge",
        user_id=q.user_id,
        agent_id=q.agent_id,
        agent_only=True,
        with_shared=True,
        limit=q.knowledge,
        dense=q.dense,
        text=q.text,
        payload=(),
    )


async def _facts(vectors: VectorIndex, q: Query) -> list[VectorHit]:
    if q.facts == 0:
        return []
    return await vectors.search(
        "facts",
        user_id=q.user_id,
        agent_id=q.agent_id,
        limit=q.facts,
        include_inactive=q.history,
        extra_must={"memory_type": list(MEMORY_TYPES)},
        dense=q.dense,
        text=q.text,
        payload=(),
    )


async def _turns(vectors: VectorIndex, q: Query) -> list[VectorHit]:
    if q.turns == 0:
        return []
    return await _messages(vectors, q, q.turns, dense_head=TURN_DENSE_HEAD)


async def _standing(vectors: VectorIndex, q: Query) -> list[VectorHit]:
    if q.turns == 0 or standing.SEARCH == 0 or not q.standing:
        return []
    return await _messages(vectors, q, standing.SEARCH, extra_must={STANDING: "yes"})


async def _dated(vectors: VectorIndex, q: Query) -> list[VectorHit]:
    """The turns of the named period's sessions alone (:mod:`.period`)."""
    if q.turns == 0 or not q.period_sessions or period.SEARCH == 0:
        return []
    return await _messages(
        vectors, q, period.SEARCH, extra_must={"session_id": list(q.period_sessions)}
    )


async def _messages(
    vectors: VectorIndex,
    q: Query,
    limit: int,
    *,
    extra_must: Mapping[str, PayloadValue] | None = None,
    dense_head: int = 0,
) -> list[VectorHit]:
    """One search of this persona's turns (the turn query's vector, the question's words)."""
    return await vectors.search(
        "messages",
        user_id=q.user_id,
        agent_id=q.agent_id,
        agent_only=True,
        limit=limit,
        extra_must=extra_must,
        dense=q.turn_dense or q.dense,
        text=q.text,
        payload=(),
        dense_head=dense_head,
    )


def _added(hits: list[VectorHit] | None, more: list[VectorHit] | None) -> list[VectorHit] | None:
    """``hits`` with those of ``more`` it lacks after them; a failed search stays None."""
    if hits is None or not more:
        return hits
    seen = {hit.id for hit in hits}
    return hits + [hit for hit in more if hit.id not in seen]


async def _or_none(collection: str, awaitable: Awaitable[T]) -> T | None:
    """The search's result, or None (logged) when the index failed: the slot is degraded."""
    try:
        return await awaitable
    except VectorIndexUnavailable as exc:
        structlog.get_logger().warning(
            "vector_search_failed", collection=collection, error=str(exc)
        )
        return None


def cap(found: Found, limits: Limits) -> Found:
    """``found`` with the fact, knowledge and turn hits that cannot pass their cutoff, whatever
    Postgres says, marked ``skipped`` so their rows are never read nor ranked.

    Exact: a hit at or below the ``floor`` fails the cosine test (the bar is never below the
    floor) and can only be kept by the lexical rule, which needs the texts of all live
    candidates; so a collection is capped only when none of its first ``lexical_rank`` hits
    could be a lexical keep. Episodes are never capped (their live hits rank the turns'
    sessions)."""
    skipped = [
        hit.id
        for hits, params in (
            (found.facts, limits.facts),
            (found.knowledge, limits.knowledge),
            (found.turns, limits.turns),
        )
        for hit in _hopeless(hits or [], params)
    ]
    return replace(found, skipped=frozenset(skipped)) if skipped else found


def _hopeless(hits: list[VectorHit], params: Cutoff) -> list[VectorHit]:
    cosines = [-1.0 if h.similarity is None else h.similarity for h in hits]
    if not cosines:
        return []
    highest_bar = max(params.floor, max(cosines) - params.margin)
    if any(
        params.lexical_min_similarity <= c <= highest_bar for c in cosines[: params.lexical_rank]
    ):
        return []
    return [h for h, c in zip(hits, cosines, strict=True) if c <= params.floor]
