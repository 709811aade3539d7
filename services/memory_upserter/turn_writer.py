"""The transaction of one commit: everything the turn writes, or nothing.

Order matters: the user lock first (every writer of a user's graph takes it first, so lock
order cannot deadlock), then the stored answer (a retry stops here and rolls back), the
messages and session, entities before the facts that name them, the completion check before
this turn's todos (a commitment captured now never counts as the one pending), and the answer
stored last with the counters, so a committed turn always has its replayable answer.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import TYPE_CHECKING
from uuid import UUID

import asyncpg

from contracts.memory import (
    CommitResponse,
    Completion,
    EntityWritten,
    FactWritten,
    Notice,
    TodoWritten,
)
from contracts.plan import PlanFact
from services.core.memory_store import (
    EntityResult,
    EntityWrite,
    FactWrite,
    apply_facts,
    canonical_predicate,
    memory_key,
    primary_ref,
    self_entity_id,
    upsert_entities,
)
from services.core.validation import FieldError, InvalidInput
from services.memory_upserter import commit_store as store
from services.memory_upserter.commit_store import Stored
from services.memory_upserter.forget import Forgotten, forget_in_transaction
from services.memory_upserter.people import group_of
from services.memory_upserter.plan_logic import SELF, Resolved, pick_done

if TYPE_CHECKING:
    from services.memory_upserter.commit import ReadTurn


@dataclass
class TurnPlan:
    """The turn, decided: what the transaction writes."""

    turn: ReadTurn
    resolved: Resolved
    todos: list[tuple]
    done_said: bool
    complete_asked: bool
    forget: list[str]
    fact_source: str
    questions: list[str] = field(default_factory=list)  # asked next turn (entity_ambiguous)


@dataclass
class Written:
    """The committed answer, and what the work after the commit needs."""

    response: CommitResponse
    fact_ids: list[UUID] = field(default_factory=list)  # rows whose vectors must follow
    touched: list[str] = field(default_factory=list)  # entities this turn named
    active_ids: set[str] = field(default_factory=set)  # the request's ids that are live
    forgotten: Forgotten | None = None


class _Replay(Exception):
    def __init__(self, stored: Stored) -> None:
        super().__init__("replay")
        self.stored = stored


async def write_turn(
    conn: asyncpg.Connection, plan: TurnPlan, *, idle: timedelta, request_id: str | None
) -> Stored | Written:
    """Commit the turn, or return what an earlier commit of it stored (nothing written)."""
    try:
        async with conn.transaction():
            return await _write(conn, plan, idle, request_id)
    except _Replay as replay:
        return replay.stored


async def _write(
    conn: asyncpg.Connection, plan: TurnPlan, idle: timedelta, request_id: str | None
) -> Written:
    t, resolved = plan.turn, plan.resolved
    req, now = t.req, t.now
    stored = await store.open_turn(conn, req.user_id, req.agent_id, req.chat_id, t.key, now, idle)
    if stored is not None:
        raise _Replay(stored)
    session_id, new_session, last_seq = await store.log_messages(
        conn,
        req.user_id,
        req.agent_id,
        req.chat_id,
        req.turn_id,
        uuid.uuid4(),
        now,
        max(1, len(t.user_rows)),
        t.rows,
    )
    writes = await _distinct(conn, plan)
    entities = (
        await upsert_entities(
            conn,
            req.user_id,
            writes,
            agent_id=req.agent_id,
            now=now,
            source=plan.fact_source,
            lock=False,
        )
        if writes
        else []
    )
    self_id = None
    if resolved.self_aliases or any(SELF in (s, o) for _, s, o in resolved.facts):
        self_id = await self_entity_id(conn, req.user_id)
    if resolved.self_aliases:
        await store.add_self_aliases(
            conn, req.user_id, self_id, resolved.self_aliases, now, plan.fact_source
        )
    provenance = [str(r.message_id) for r in (t.user_rows or t.rows)]
    writes = [
        fact_write(f, s, o, entities, self_id, req.agent_id, provenance, plan.fact_source, valid)
        for (f, s, o), valid in zip(resolved.facts, resolved.validity, strict=True)
    ]
    results = await apply_facts(conn, req.user_id, writes, now=now, lock=False)
    notes = list(t.notes)
    completed = await _complete(conn, plan, notes) if plan.done_said else None
    todos = (
        await store.capture_todos(
            conn, req.user_id, req.agent_id, req.chat_id, session_id, now, plan.todos
        )
        if plan.todos
        else []
    )
    forgotten = None
    if plan.forget:
        forgotten = await forget_in_transaction(
            conn,
            user_id=req.user_id,
            scope="global",
            agent_id=req.agent_id,
            chat_id=req.chat_id,
            names_or_texts=plan.forget,
            hard=False,
            reason="asked in conversation",
            now=now,
            request_id=request_id,
        )
    response = CommitResponse(
        user_id=req.user_id,
        agent_id=req.agent_id,
        chat_id=req.chat_id,
        turn_id=req.turn_id,
        session_id=str(session_id),
        new_session=new_session,
        message_ids=[str(r.message_id) for r in t.rows],
        reply=t.reply,
        plan_source=t.plan_source,
        entities=_entities(entities),
        facts=[
            FactWritten(
                fact_id=str(r.rel_id),
                text=w.text,
                predicate=canonical_predicate(w.predicate),
                memory_type=w.memory_type,
                scope=w.scope,
                memory_key=w.memory_key,
                outcome=r.outcome,
                valid_from=w.valid_from or now,
                valid_to=w.valid_to,
                replaced_id=str(r.replaced_id) if r.replaced_id else None,
            )
            for w, r in zip(writes, results, strict=True)
        ],
        todos=[
            TodoWritten(
                todo_id=str(r["todo_id"]),
                kind=r["kind"],
                text=r["text"],
                due_at=r["due_at"],
                source_snippet=r["source_snippet"],
                outcome="created" if r["created"] else "unchanged",
            )
            for r in todos
        ],
        completions=[
            Completion(
                todo_id=str(completed[0]),
                kind=completed[1],
                text=completed[2],
                outcome="checked_in" if completed[1] == "HABIT" else "completed",
            )
        ]
        if completed
        else [],
        forgotten=dict(forgotten.effects.counts) if forgotten else {},
        warnings=notes,
    )
    touched = list(dict.fromkeys(str(e.entity_id) for e in entities))
    created = sum(r.outcome in ("created", "superseded_previous") for r in results)
    live = await store.finish_turn(
        conn,
        req.user_id,
        req.agent_id,
        t.key,
        t.digest,
        response,
        now,
        session_id,
        last_seq,
        len(t.rows),
        created,
        [*_uuids(req.active_entity_ids), *map(UUID, touched)],
    )
    changed = {r.rel_id for r in results if r.outcome != "unchanged"}
    changed |= {r.replaced_id for r in results if r.replaced_id}
    return Written(response, sorted(changed, key=str), touched, {str(i) for i in live}, forgotten)


async def _distinct(conn: asyncpg.Connection, plan: TurnPlan) -> list[EntityWrite]:
    """The entity writes, each ``distinct_from`` resolved to the user's entity (which gets an
    alias of its relation's group, "family Marta", when it has none); a handle that
    names none of this user's entities is refused (422, nothing written) — in a model's plan;
    the offline judge's own is dropped."""
    resolved, req = plan.resolved, plan.turn.req
    writes = list(resolved.writes)
    errors = []
    for index, (position, handle) in resolved.distinct.items():
        namesake = await store.find_distinct(conn, req.user_id, handle)
        if namesake is not None:
            writes[index] = replace(writes[index], distinct_from=namesake.entity_id)
            group = next((g for g in map(group_of, namesake.roles) if g), None)
            if group and not namesake.has_alias:  # "family Marta", for the question to name
                await store.add_alias(
                    conn,
                    req.user_id,
                    namesake.entity_id,
                    f"{group} {namesake.name}",
                    plan.fact_source,
                )
        elif plan.turn.plan_source in ("request", "answer"):
            path = "$.plan" if plan.turn.plan_source == "request" else "$.answer.plan"
            errors.append(
                FieldError(
                    f"{path}.entities[{position}].distinct_from",
                    f"{handle!r} is none of this user's entities",
                )
            )
    if errors:
        raise InvalidInput(errors)
    return writes


async def _complete(
    conn: asyncpg.Connection, plan: TurnPlan, notes: list[Notice]
) -> tuple[UUID, str, str] | None:
    """The person said done: the single pending commitment, reminder or habit (or the one
    their words name) is completed; with several and nothing to tell them apart, ask."""
    req = plan.turn.req
    pending = await store.pending_actionable(conn, req.user_id, req.agent_id)
    choice = pick_done(pending, [r.text for r in plan.turn.user_rows])
    if isinstance(choice, str):
        return await store.complete_todo(conn, req.user_id, choice, plan.turn.now)
    if choice:
        listed = " or ".join(repr(text[:60]) for text in choice[:5])
        notes.append(
            Notice(
                code="commitment_not_completed",
                detail=(
                    f"several todos are pending; nothing was completed. Ask which one: {listed}?"
                ),
            )
        )
        plan.questions.append(f"Which one is done: {listed}?")
    elif plan.complete_asked:
        notes.append(
            Notice(
                code="commitment_not_completed",
                detail=(
                    "nothing to complete: no commitment, reminder or habit is pending for this "
                    "agent"
                ),
            )
        )
    return None


def fact_write(
    fact: PlanFact,
    s: int,
    o: int | None,
    entities: list[EntityResult],
    self_id: UUID | None,
    agent_id: str,
    provenance: list[str],
    source: str,
    valid: tuple = (None, None),
) -> FactWrite:
    def endpoint(index: int) -> tuple[UUID, str, str]:
        if index == SELF:
            return self_id, "self", "Person"
        e = entities[index]
        return e.entity_id, primary_ref(e.entity_ref, e.entity_id), e.category

    subject_id, subject_ref, category = endpoint(s)
    object_id, object_ref = endpoint(o)[:2] if o is not None else (None, None)
    key = memory_key(
        memory_type=fact.memory_type,
        category=category,
        subject_ref=subject_ref,
        fact_type=fact.fact_type,
        predicate=fact.predicate,
        object_ref=object_ref,
        value=fact.value or fact.text,
    )
    return FactWrite(
        subject_entity_id=subject_id,
        predicate=fact.predicate,
        text=fact.text,
        memory_type=fact.memory_type,
        fact_type=fact.fact_type,
        object_entity_id=object_id,
        value=fact.value if object_id is None else None,
        importance=fact.importance,
        pinned=fact.pinned,
        confidence=fact.confidence,
        scope=fact.scope,
        agent_id=agent_id if fact.scope == "agent" else None,
        source=source,
        memory_key=key,
        message_ids=provenance,
        valid_from=valid[0],
        valid_to=valid[1],
    )


def _entities(results: list[EntityResult]) -> list[EntityWritten]:
    merged: dict[UUID, EntityWritten] = {}
    for r in results:
        known = merged.get(r.entity_id)
        if known is None or (r.outcome == "created" or known.outcome == "unchanged"):
            outcome = r.outcome if known is None or r.outcome != "unchanged" else known.outcome
            merged[r.entity_id] = EntityWritten(
                entity_id=str(r.entity_id),
                name=r.name,
                category=r.category,
                entity_ref=r.entity_ref,
                outcome=outcome,
            )
    return list(merged.values())


def _uuids(values: list[str]) -> list[UUID]:
    out = []
    for value in values:
        try:
            out.append(UUID(value))
        except ValueError:
            continue
    return out
