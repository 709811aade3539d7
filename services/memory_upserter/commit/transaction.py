"""Everything one commit writes, in the caller's transaction, as named steps in :mod:`.sql`'s
order: the user lock, the stored answer (a replay stops here), the messages and session, the
entities, the user's own entity, the facts with the todos they close, the todos captured, a
``plan.forget``, the answer, and the answer stored last with the counters."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace
from datetime import timedelta
from uuid import UUID

import msgspec

from contracts.memory import CommitResponse, Completion, Notice
from services.core.deps import Connection
from services.core.memory_store import apply_facts, lock_user, self_entity_id, upsert_entities
from services.core.memory_store.fact_ops import FactResult
from services.core.memory_store.shapes import EntityResult, EntityWrite
from services.memory_upserter.commit import sql
from services.memory_upserter.commit import todos as lifecycle
from services.memory_upserter.commit.answer import link_answered
from services.memory_upserter.commit.asked import forget_notice
from services.memory_upserter.commit.capture import Where, capture
from services.memory_upserter.commit.names import distinct_writes
from services.memory_upserter.commit.read import SELF
from services.memory_upserter.commit.response import Decided, commit_response, decide
from services.memory_upserter.commit.rows import FinishRow, LogRow, SessionRow
from services.memory_upserter.commit.supersede import Superseding, supersede
from services.memory_upserter.commit.turn import CapturedTodo, Stored, TurnPlan, Written
from services.memory_upserter.forget.tx import forget_in_transaction
from services.memory_upserter.forget.types import Forgotten


class Replay(Exception):
    """The key holds an answer already: the transaction rolls back, the answer is replayed."""

    def __init__(self, stored: Stored) -> None:
        super().__init__("replay")
        self.stored = stored


@dataclass(frozen=True)
class _Facts:
    """What the fact step wrote and closed."""

    superseding: Superseding
    named: lifecycle.Closings
    decided: Decided
    results: list[FactResult]
    closed: list[lifecycle.Closed]
    completions: list[Completion]


async def transaction(
    conn: Connection, plan: TurnPlan, idle: timedelta, request_id: str | None
) -> Written:
    """Everything the turn writes, in the caller's transaction (:mod:`.sql`'s order)."""
    await lock_user(conn, plan.turn.req.user_id)
    await _open(conn, plan, idle)
    session = await _log(conn, plan)
    entity_writes, unknown = await distinct_writes(conn, plan)
    entities = await _entities(conn, plan, entity_writes)
    self_id = await _self(conn, plan)
    facts = await _facts(conn, plan, entities, self_id)
    todos = await _capture(conn, plan, session)
    forgotten = await _forget(conn, plan, request_id)
    response = _respond(plan, session, entities, facts, todos, forgotten, unknown)
    chosen, answered = await _link(conn, plan)
    response = msgspec.structs.replace(
        response,
        completions=facts.completions,
        warnings=[*response.warnings, *answered],
    )
    touched = list(
        dict.fromkeys([*([str(chosen)] if chosen else []), *(str(e.entity_id) for e in entities)])
    )
    live = await _finish(conn, plan, response, session, facts.results, touched, chosen)
    return _written(plan, response, facts, touched, live, forgotten, chosen)


async def _open(conn: Connection, plan: TurnPlan, idle: timedelta) -> None:
    """The user and agent rows, the stale session closed; a stored answer raises :class:`Replay`."""
    t, req = plan.turn, plan.turn.req
    opened = await conn.fetchrow(
        sql.OPEN, req.user_id, req.agent_id, req.chat_id, t.now, idle, t.key
    )
    if opened is not None and opened["request_hash"]:
        raise Replay(Stored(opened["request_hash"], opened["response"]))


async def _log(conn: Connection, plan: TurnPlan) -> SessionRow:
    """The session (got or created) and every message of the turn."""
    t, req = plan.turn, plan.turn.req
    rows = t.rows
    row = LogRow(
        user_id=req.user_id,
        agent_id=req.agent_id,
        chat_id=req.chat_id,
        new_session_id=uuid.uuid4(),
        now=t.now,
        turn_count=max(1, len(t.user_rows)),
        turn_id=req.turn_id,
        message_ids=[r.message_id for r in rows],
        positions=[r.position for r in rows],
        roles=[r.role for r in rows],
        speakers=[r.speaker for r in rows],
        texts=[r.text for r in rows],
        external_ids=[r.external_id for r in rows],
        timestamps=[r.ts for r in rows],
    )
    session = await conn.fetchrow(sql.LOG, *row)
    assert session is not None  # the statement always returns the session
    return SessionRow(*session)


async def _entities(
    conn: Connection, plan: TurnPlan, writes: list[EntityWrite]
) -> list[EntityResult]:
    """The plan's entities, written (none: no round trip)."""
    if not writes:
        return []
    req = plan.turn.req
    return await upsert_entities(
        conn,
        req.user_id,
        writes,
        agent_id=req.agent_id,
        now=plan.turn.now,
        source=plan.fact_source,
        lock=False,
    )


async def _self(conn: Connection, plan: TurnPlan) -> UUID | None:
    """The user's own entity, when a fact is about them; the names they go by, stored."""
    resolved, user = plan.resolved, plan.turn.req.user_id
    if not (resolved.self_aliases or any(SELF in (s, o) for _, s, o in resolved.facts)):
        return None
    self_id = await self_entity_id(conn, user)
    if names := resolved.self_aliases:
        await conn.execute(
            sql.SELF_ALIASES, user, self_id, plan.fact_source, names, names[0], plan.turn.now
        )
    return self_id


async def _facts(
    conn: Connection, plan: TurnPlan, entities: list[EntityResult], self_id: UUID | None
) -> _Facts:
    """The plan's facts written between the entities, with what they replace and end, and the
    todos the turn closes (named by the plan, or the one a bare "done" means)."""
    req, now = plan.turn.req, plan.turn.now
    superseding = await supersede(conn, plan)  # the handles the plan replaces and ends
    named, actionable, bare_done = await lifecycle.named_closings(conn, plan)
    bare = plan if bare_done else replace(plan, done_said=False)  # named todos: no bare "done"
    decided = decide(bare, entities, self_id, actionable, superseding.replaces)
    results = await apply_facts(conn, req.user_id, decided.writes, now=now, lock=False)
    closing = {**named.closing}
    if decided.complete is not None:
        closing.setdefault(decided.complete, "DONE")
    closed, completions = await lifecycle.close_reported(conn, req.user_id, closing, now)
    return _Facts(superseding, named, decided, results, closed, completions)


async def _capture(conn: Connection, plan: TurnPlan, session: SessionRow) -> list[CapturedTodo]:
    """The plan's todos, captured; a restatement updates the pending todo it repeats."""
    req = plan.turn.req
    where = Where(req.user_id, req.agent_id, req.chat_id, session.session_id, plan.turn.now)
    return await capture(conn, where, plan.todos)


async def _forget(conn: Connection, plan: TurnPlan, request_id: str | None) -> Forgotten | None:
    """What the person asked to forget in conversation (soft, across personas)."""
    if not plan.forget:
        return None
    req = plan.turn.req
    return await forget_in_transaction(
        conn,
        user_id=req.user_id,
        scope="global",
        agent_id=req.agent_id,
        chat_id=req.chat_id,
        names_or_texts=plan.forget,
        hard=False,
        reason="asked in conversation",
        now=plan.turn.now,
        request_id=request_id,
    )


def _respond(
    plan: TurnPlan,
    session: SessionRow,
    entities: list[EntityResult],
    facts: _Facts,
    todos: list[CapturedTodo],
    forgotten: Forgotten | None,
    unknown: list[Notice],
) -> CommitResponse:
    """The turn's answer, with every notice the steps raised."""
    said = [r.text for r in plan.turn.user_rows]
    asked = [forget_notice(plan.forget, forgotten.effects.counts, said)] if forgotten else []
    return commit_response(
        plan,
        session_id=session.session_id,
        new_session=session.created,
        entities=entities,
        facts=list(zip(facts.decided.writes, facts.results, strict=True)),
        todos=todos,
        completed=None,
        forgotten=dict(forgotten.effects.counts) if forgotten else {},
        warnings=[
            *plan.turn.notes,
            *unknown,
            *plan.notes,
            *facts.superseding.notes,
            *facts.decided.notes,
            *facts.named.notes,
            *asked,
        ],
        ended=facts.superseding.ended,
    )


async def _link(conn: Connection, plan: TurnPlan) -> tuple[UUID | None, list[Notice]]:
    """The entity a which-question's answer chose, linked to the messages that raised it, and
    the notice saying so."""
    if not plan.answered:
        return None, []
    return await link_answered(conn, plan.turn.req.user_id, plan.answered, plan.fact_source)


async def _finish(
    conn: Connection,
    plan: TurnPlan,
    response: CommitResponse,
    session: SessionRow,
    results: list[FactResult],
    touched: list[str],
    chosen: UUID | None,
) -> set[str]:
    """The answer under the turn's key, the checkpoint, counters, last_seen, named entities;
    the request's active entities that are still live."""
    t, req = plan.turn, plan.turn.req
    others = plan.answered.others if chosen and plan.answered else ()
    active = [i for i in req.active_entity_ids if i not in others]
    row = FinishRow(
        user_id=req.user_id,
        agent_id=req.agent_id,
        key=t.key,
        request_hash=t.digest,
        response=response,
        now=t.now,
        session_id=session.session_id,
        last_seq=session.last_seq,
        message_count=len(t.rows),
        facts_new=sum(r.outcome in ("created", "superseded_previous") for r in results),
        seen_ids=[*_uuids(active), *map(UUID, touched)],
        named_ids=list(map(UUID, touched)),
        message_ids=[r.message_id for r in t.rows],
    )
    return {str(r["entity_id"]) for r in await conn.fetch(sql.FINISH, *row)}


def _written(
    plan: TurnPlan,
    response: CommitResponse,
    facts: _Facts,
    touched: list[str],
    live: set[str],
    forgotten: Forgotten | None,
    chosen: UUID | None,
) -> Written:
    """The committed answer, and what the work after the commit needs."""
    changed = {r.rel_id for r in facts.results if r.outcome != "unchanged"}
    changed |= {r.replaced_id for r in facts.results if r.replaced_id}
    changed |= {UUID(f.fact_id) for f in facts.superseding.ended}
    return Written(
        response,
        sorted(changed, key=str),
        touched,
        live,
        forgotten,
        (*plan.questions, *facts.decided.questions, *facts.named.questions),
        (*(plan.answered.closes if chosen and plan.answered else ()), *plan.closes_asked),
    )


def _uuids(values: list[str]) -> list[UUID]:
    out = []
    for value in values:
        try:
            out.append(UUID(value))
        except ValueError:
            continue
    return out
