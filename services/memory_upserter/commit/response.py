"""What the commit's transaction writes and answers, built from what it read (pure): once the
turn's entities exist, :func:`decide` makes each plan fact a :class:`FactWrite` with its memory
key and picks the pending todo a "done" completes; once everything is written,
:func:`commit_response` is the turn's :class:`CommitResponse`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import cast
from uuid import UUID

from contracts.common import Category, Scope
from contracts.memory import (
    CommitResponse,
    Completion,
    EntityWritten,
    FactWritten,
    Notice,
    TodoWritten,
)
from contracts.plan import PlanFact
from services.core.memory_store.fact_ops import FactResult, FactWrite
from services.core.memory_store.keys import canonical_predicate, memory_key, primary_ref
from services.core.memory_store.shapes import EntityResult
from services.memory_upserter.commit.asked import reached_before
from services.memory_upserter.commit.fact_text import plain_fact_text
from services.memory_upserter.commit.read import SELF
from services.memory_upserter.commit.todo_question import ask
from services.memory_upserter.commit.todos import pick_done
from services.memory_upserter.commit.turn import (
    CapturedTodo,
    Completed,
    PendingTodo,
    TurnPlan,
    Validity,
)


@dataclass(frozen=True)
class Decided:
    """What the transaction writes once the entities exist."""

    writes: list[FactWrite]
    complete: str | None  # the pending todo the person said is done
    notes: list[Notice]  # why nothing was completed
    questions: list[str]  # for the next turn ("which one is done?")


def decide(
    plan: TurnPlan,
    entities: Sequence[EntityResult],
    self_id: UUID | None,
    pending: Sequence[PendingTodo],
    replaces: Mapping[str, UUID] | None = None,
) -> Decided:
    """The plan's facts as writes between the written entities; and, when the person said
    done, the single pending commitment, reminder or habit (or the one their words name) to
    complete — with several and nothing to tell them apart, a notice now and a question for
    the next turn. ``replaces``: the fact each ``replaces`` handle named (:mod:`.supersede`)."""
    t, agent = plan.turn, plan.turn.req.agent_id
    named = replaces or {}
    provenance = [str(r.message_id) for r in (t.user_rows or t.rows)]
    writes = [
        replace(
            fact_write(f, s, o, entities, self_id, agent, provenance, plan.fact_source, valid),
            replaces=named.get(f.replaces) if f.replaces else None,
        )
        for (f, s, o), valid in zip(plan.resolved.facts, plan.validity, strict=True)
    ]
    if not plan.done_said:
        return Decided(writes, None, [], [])
    choice = pick_done(pending, [r.text for r in t.user_rows])
    if isinstance(choice, str):
        return Decided(writes, choice, [], [])
    if choice:
        question = ask("done", choice)
        detail = f"several todos are pending; nothing was completed. Ask: {question}"
        notice = Notice(code="commitment_not_completed", detail=detail)
        return Decided(writes, None, [notice], [question])
    if plan.complete_asked:
        detail = "nothing to complete: no commitment, reminder or habit is pending for this agent"
        return Decided(writes, None, [Notice(code="commitment_not_completed", detail=detail)], [])
    return Decided(writes, None, [], [])


def fact_write(
    fact: PlanFact,
    s: int,
    o: int | None,
    entities: Sequence[EntityResult],
    self_id: UUID | None,
    agent_id: str,
    provenance: list[str],
    source: str,
    valid: Validity = (None, None),
) -> FactWrite:
    """The fact between its subject and object (write indexes into ``entities``; ``SELF``:
    the user's own entity ``self_id``)."""

    def endpoint(index: int) -> tuple[UUID, str, str]:
        if index == SELF:
            assert self_id is not None, "a fact about the user needs the user's entity"
            return self_id, "self", "Person"
        e = entities[index]
        return e.entity_id, primary_ref(e.entity_ref, e.entity_id), e.category

    subject_id, subject_ref, category = endpoint(s)
    object_id, object_ref = endpoint(o)[:2] if o is not None else (None, None)
    predicate = canonical_predicate(fact.predicate, literal=o is None)
    text = plain_fact_text(fact.text, [(e.entity_ref, e.name) for e in entities if e.entity_ref])
    key = memory_key(
        memory_type=fact.memory_type,
        category=category,
        subject_ref=subject_ref,
        fact_type=fact.fact_type,
        predicate=predicate,
        object_ref=object_ref,
        value=fact.value or text,
    )
    return FactWrite(
        subject_entity_id=subject_id,
        predicate=predicate,
        text=text,
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


def commit_response(
    plan: TurnPlan,
    *,
    session_id: UUID,
    new_session: bool,
    entities: Sequence[EntityResult],
    facts: Sequence[tuple[FactWrite, FactResult]],
    todos: Sequence[CapturedTodo],
    completed: Completed | None,
    forgotten: dict[str, int],
    warnings: list[Notice],
    ended: Sequence[FactWritten] = (),
) -> CommitResponse:
    """The turn's answer; ``ended``: the facts the plan's ``ends`` ended."""
    turn, req, now = plan.turn, plan.turn.req, plan.turn.now
    written = [*(fact_written(w, r, now=now) for w, r in facts), *ended]
    return CommitResponse(
        user_id=req.user_id,
        agent_id=req.agent_id,
        chat_id=req.chat_id,
        turn_id=req.turn_id,
        session_id=str(session_id),
        new_session=new_session,
        message_ids=[str(r.message_id) for r in turn.rows],
        reply=turn.reply,
        plan_source=plan.plan_source,
        entities=_entities(entities),
        facts=written,
        todos=[
            TodoWritten(
                todo_id=str(t.todo_id),
                kind=t.kind,
                text=t.text,
                due_at=t.due_at,
                source_snippet=t.source_snippet,
                outcome="created" if t.created else "unchanged",
            )
            for t in todos
        ],
        completions=[
            Completion(
                todo_id=str(completed.todo_id),
                kind=completed.kind,
                text=completed.text,
                outcome="checked_in" if completed.kind == "HABIT" else "completed",
            )
        ]
        if completed
        else [],
        forgotten=forgotten,
        warnings=warnings,
        confirmations=confirmations(
            plan.forget, forgotten, written, [r.text for r in turn.user_rows]
        ),
    )


def fact_written(w: FactWrite, r: FactResult, *, now: datetime | None) -> FactWritten:
    """How one fact write is reported; ``now`` is the default start of a new fact (None: none
    reported, as a profile seed has no time of its own)."""
    return FactWritten(
        fact_id=str(r.rel_id),
        text=w.text,
        predicate=canonical_predicate(w.predicate),
        memory_type=w.memory_type,
        scope=cast(Scope, w.scope),
        memory_key=w.memory_key,
        outcome=r.outcome,
        valid_from=w.valid_from or now,
        valid_to=w.valid_to,
        replaced_id=str(r.replaced_id) if r.replaced_id else None,
    )


def _entities(results: Sequence[EntityResult]) -> list[EntityWritten]:
    merged: dict[UUID, EntityWritten] = {}
    for r in results:
        known = merged.get(r.entity_id)
        if known is None or (r.outcome == "created" or known.outcome == "unchanged"):
            outcome = r.outcome if known is None or r.outcome != "unchanged" else known.outcome
            merged[r.entity_id] = EntityWritten(
                entity_id=str(r.entity_id),
                name=r.name,
                category=cast(Category, r.category),  # the entities table's check
                entity_ref=r.entity_ref,
                outcome=outcome,
            )
    return list(merged.values())


FORGET_KINDS = ("facts", "todos", "episodes", "messages", "entities")


def confirmations(
    forget: Sequence[str],
    forgotten: Mapping[str, int],
    facts: Sequence[FactWritten],
    said: Sequence[str] = (),
) -> list[str]:
    """What the reply confirms to the person of what they asked memory this turn (pure): a
    forget they asked for (or that it reached nothing stored before — ``said``, this turn's
    user messages, name it too) and each fact their words ended, one line each; a forget
    that reached nothing says so, so the person is never told of one that did not happen."""
    lines = []
    if forget:
        named = ", ".join(f'"{t}"' for t in forget)
        before = reached_before(forget, forgotten, said)
        reached = any(before.get(k) for k in FORGET_KINDS)
        lines.append(
            f"✓ Forgotten, as you asked: {named}."
            if reached
            else f"Nothing I remember matched {named}: nothing was forgotten."
        )
    lines += [f'✓ No longer noted: "{f.text}".' for f in facts if f.outcome == "ended"]
    return lines
