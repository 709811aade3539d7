"""The turn's answer (pure): once everything is written, :func:`respond` gathers what the
transaction's steps wrote and noticed into the :class:`CommitResponse` (:func:`commit_response`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, cast
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
from services.core.memory_store.fact_ops import FactResult, FactWrite
from services.core.memory_store.keys import canonical_predicate
from services.core.memory_store.shapes import EntityResult
from services.memory_upserter.commit.asked import forget_notice, reached_before
from services.memory_upserter.commit.turn import CapturedTodo, Completed, TurnPlan

if TYPE_CHECKING:  # what the transaction's steps return; importing stays pure
    from services.memory_upserter.commit.entities import Named
    from services.memory_upserter.commit.facts import Facts
    from services.memory_upserter.commit.rows import SessionRow
    from services.memory_upserter.forget.types import Forgotten


def respond(
    plan: TurnPlan,
    session: SessionRow,
    named: Named,
    facts: Facts,
    todos: Sequence[CapturedTodo],
    forgotten: Forgotten | None,
) -> CommitResponse:
    """The turn's answer from what the transaction wrote, with every notice the steps raised."""
    said = [r.text for r in plan.turn.user_rows]
    asked = [forget_notice(plan.forget, forgotten.effects.counts, said)] if forgotten else []
    return commit_response(
        plan,
        session_id=session.session_id,
        new_session=session.created,
        entities=named.entities,
        facts=list(zip(facts.writes, facts.results, strict=True)),
        todos=todos,
        completed=None,
        forgotten=dict(forgotten.effects.counts) if forgotten else {},
        warnings=[
            *plan.turn.notes,
            *named.notes,
            *plan.notes,
            *facts.superseding.notes,
            *facts.todos.done.notes,
            *facts.todos.named.notes,
            *asked,
        ],
        ended=facts.superseding.ended,
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
