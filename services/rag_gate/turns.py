"""Recalled raw turns, the continuity fields, and the fused order over every returned item. Pure.

Recalled turns are cut like the other hits, then re-ranked with the entity, session and
episode signals (:mod:`services.rag_gate.fusion`; no session context for a question across
sessions, :mod:`.across`), a newer turn on the topic before an older
one (:mod:`.updates`), and past the first ten one turn of each further session first
(:mod:`.spread`); a message is shown once, as a turn or as a turn's context.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from contracts.common import Provenance
from contracts.envelope_io import FactsSlot
from contracts.recall import EpisodeSlot, KnowledgeSlot, RankedItem, RecalledTurn
from contracts.retrieve import RetrieveRequest
from contracts.retrieve_limits import FusionWeights
from contracts.slots import Turn
from services.core.vectors import VectorHit
from services.rag_gate import across, fusion, ranking, spread, updates, when
from services.rag_gate.continuity import TailMessage
from services.rag_gate.period import Period
from services.rag_gate.slots import Tally, add_up, counted, cut, terms
from services.rag_gate.store import Rows

TURN_CHARS = 800  # 001: recent messages are capped at 800 characters each
SUMMARY_CHARS = 600  # 001: LATEST SESSION SUMMARY is capped at 600 characters


def recalled_turns(
    hits: list[VectorHit] | None,
    episode_hits: list[VectorHit] | None,
    rows: Rows,
    req: RetrieveRequest,
    query_terms: frozenset[int],
    skipped: frozenset[str] = frozenset(),
    standing: frozenset[str] = frozenset(),
    asked: Period | None = None,
) -> tuple[list[RecalledTurn], Tally]:
    """Recalled raw turns: cut like the other hits, then re-ranked (:mod:`.fusion`); a turn
    said in the period the question names (``asked``, :mod:`.period`) is lifted."""
    if not hits:
        return [], Tally()
    limits = req.limits.turns
    done = cut(
        "turns",
        hits,
        rows.messages,
        lambda r: fusion.said(r.speaker, r.text),
        limits,
        query_terms,
        skipped,
    )
    bm25 = {hit.id: hit.lexical for hit in hits}
    asks_when = when.asks_when(req.message)  # a turn's date is read only when asked for
    candidates = [
        fusion.TurnCandidate(
            id=k.candidate.id,
            rrf=k.candidate.rrf,
            similarity=k.candidate.similarity,
            speaker=rows.messages[k.candidate.id].speaker,
            session_id=str(rows.messages[k.candidate.id].session_id),
            entity_ids=frozenset(rows.messages[k.candidate.id].entity_ids),
            lexical=k.lexical,
            bm25=bm25.get(k.candidate.id),
            dated=asks_when and when.says_when(rows.messages[k.candidate.id].text),
            words=fusion.words(rows.messages[k.candidate.id].text),
            standing=k.candidate.id in standing,
            in_period=asked is not None and asked.holds(rows.messages[k.candidate.id].ts),
        )
        for k in done.kept
    ]
    scored = fusion.score_turns(
        candidates,
        limits=limits,
        entity_ids=req.entity_ids,
        entity_names=rows.entity_names,
        session_ranks=_session_ranks(episode_hits, rows),
        asks_when=asks_when,
        across=across.asks_across(req.message),
    )
    ordered = _spread(_newer_first(scored, rows, query_terms), rows)
    out, dropped = _shown(ordered, rows, limits.max)
    return out, add_up([done.tally, Tally(dropped)])


def _newer_first(
    scored: list[fusion.ScoredTurn], rows: Rows, query_terms: frozenset[int]
) -> list[fusion.ScoredTurn]:
    """The scored turns with a newer turn on the same topic before an older one
    (:mod:`.updates`); the older one's details say which rank superseded it."""
    said = {}
    for turn in scored[: updates.WINDOW]:
        row = rows.messages[turn.id]
        topic = terms().of_document(row.text) & query_terms  # its words, not its speaker's name
        said[turn.id] = updates.Said(row.ts, row.speaker or row.role, topic)
    order, superseded = updates.newer_first([t.id for t in scored], said)
    by_id = {t.id: t for t in scored}
    return [
        fusion.ScoredTurn(
            i, by_id[i].score, {**by_id[i].details, "newer_on_topic": float(superseded[i])}
        )
        if i in superseded
        else by_id[i]
        for i in order
    ]


def _spread(scored: list[fusion.ScoredTurn], rows: Rows) -> list[fusion.ScoredTurn]:
    """Past the first turns, one turn of each further session first (:mod:`.spread`)."""
    sessions = {t.id: str(rows.messages[t.id].session_id) for t in scored}
    relevance = {t.id: t.details["relevance"] for t in scored}
    by_id = {t.id: t for t in scored}
    return [by_id[i] for i in spread.spread([t.id for t in scored], sessions, relevance)]


def _session_ranks(episode_hits: list[VectorHit] | None, rows: Rows) -> dict[str, int]:
    """Each session's best rank among the live episode hits."""
    live_episodes = [h for h in episode_hits or () if h.id in rows.episodes]
    session_ranks: dict[str, int] = {}
    for rank, hit in enumerate(live_episodes, 1):
        session = rows.episodes[hit.id].session_id
        if session and session not in session_ranks:
            session_ranks[str(session)] = rank
    return session_ranks


def _shown(
    scored: list[fusion.ScoredTurn], rows: Rows, most: int
) -> tuple[list[RecalledTurn], dict[str, int]]:
    """The turns best first, each once (with the message before it, unless shown), at most
    ``most``; and what was dropped."""
    out: list[RecalledTurn] = []
    shown: set[str] = set()
    as_context = over_max = 0
    for turn in scored:
        row = rows.messages[turn.id]
        if row.message_id in shown:
            as_context += 1
            continue
        if len(out) == most:
            over_max += 1
            continue
        before = row.previous if row.previous and row.previous.message_id not in shown else None
        shown.add(row.message_id)
        if before is not None:
            shown.add(before.message_id)
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
                context=tail_turn(before) if before is not None else None,
                provenance=Provenance(
                    row_id=row.message_id,
                    source="message",
                    message_ids=[*([before.message_id] if before else []), row.message_id],
                ),
            )
        )
    return out, counted(turns_shown_as_context=as_context, turns_over_max=over_max)


def tail_turn(message: TailMessage) -> Turn:
    return Turn(
        role=message.role,
        text=ranking.clip(message.text, TURN_CHARS),
        speaker=message.speaker,
        ts=message.ts,
        message_id=message.message_id,
    )


def tail(messages: Sequence[TailMessage]) -> list[Turn]:
    """The previous session's unconsolidated tail, each message clipped."""
    return [tail_turn(m) for m in messages]


def summary_text(summary: dict[str, Any] | None) -> str | None:
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


def fused_ranking(
    episode: EpisodeSlot, knowledge: KnowledgeSlot, facts: FactsSlot, weights: FusionWeights
) -> list[RankedItem]:
    """Every returned item in one order, best first (:func:`.fusion.fuse`)."""
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
        for item, score in fusion.fuse(items, weights)
    ]
