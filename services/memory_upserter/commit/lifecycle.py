"""The todo lifecycle as people and small models say it (issue 27 §6, 28), decided at commit
against this agent's pending todos, before anything is written:

- **A forget that names a todo drops it.** "forget the ikea shelf", "forget the bike shop
  thing, sold the bike": a ``forget`` target (the person's request, read by rule, or a model's
  that the request holds) whose first clause names a pending todo by its words — every one of
  them in the todo, two at least or "… thing" (:func:`.todos.find`) — drops that todo and
  forgets nothing; several such todos ask which. Only a target that names no todo stays a
  forget request.
- **A past tense of the todo's verb closes it.** "booked the train", "called kasia last
  night", "vet's booked ✅" (:mod:`.did`): when a model's plan says a commitment is done
  (``complete_commitment``) without naming it and the person never said "done", or when the
  judge wrote the plan (no model plan: a reply-only answer), the todo their words name done.
  Several named as well ask which (:func:`.todo_question.ask`); a model's
  ``complete_commitment`` that names none is a ``commitment_not_completed`` notice.

:func:`settle` is pure; :func:`settle_todos` reads the pending todos it needs.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from contracts.memory import Notice
from services.core.handles import handle_of
from services.memory_upserter.commit.did import done_by_words
from services.memory_upserter.commit.todo_question import ask
from services.memory_upserter.commit.todos import content_words, find, load_pending, overlap
from services.memory_upserter.commit.turn import PendingTodo, TurnPlan

if TYPE_CHECKING:  # the statements run on the caller's connection; importing stays pure
    from services.core.deps import Connection

JUDGED = ("offline_extractor", "llm_judge")  # no model plan: the judge read the person's words
_FIRST_CLAUSE = re.compile(r"[,;:()!?.]|\s+-\s+|\b(?:since|because|bc|cause|we're|were)\b", re.I)
_THING = re.compile(r"(?i)\b(?:thing|todo|to-do|reminder|task|errand)\b")
NOT_DONE = Notice(
    code="commitment_not_completed",
    detail="complete_commitment needs the user to say done, finished or completed, or what "
    "they did in the words of a pending todo",
)


def forget_names_todo(target: str, pending: Sequence[PendingTodo]) -> list[PendingTodo]:
    """The pending todos a forget target's first clause names ("the ikea shelf, we're keeping
    it" → "Return the IKEA shelf"); [] when it names none (a memory to forget)."""
    head = _FIRST_CLAUSE.split(target, maxsplit=1)[0]
    named = list(dict.fromkeys(content_words(head)))
    # every word of it in the todo, and more than a name: "marta", "my sister marta" are a
    # memory to forget even with "Call Marta" pending; "the bike shop thing" is the todo
    if len(named) < 2 and not _THING.search(head):
        return []
    return [p for p in find(head, pending) if overlap(named, p.text) == len(named)]


def may_close_by_words(plan: TurnPlan) -> bool:
    """Whether the person's past tense may close a todo this turn (module docstring): not
    when the plan names the todos it closes."""
    if plan.done:
        return False
    return plan.done_said or plan.complete_asked or plan.plan_source in JUDGED


def needs_pending(plan: TurnPlan) -> bool:
    return bool(plan.forget) or may_close_by_words(plan)


def settle(plan: TurnPlan, pending: Sequence[PendingTodo]) -> TurnPlan:
    """The plan with its forgets that name a todo turned into drops, and the todo the person's
    past tense names done; the notices and questions that go with them."""
    said = [r.text for r in plan.turn.user_rows]
    forget: list[str] = []
    dropped: list[str] = []
    notes: list[Notice] = []
    questions: list[str] = []
    for target in plan.forget:
        todos = forget_names_todo(target, pending)
        if not todos:
            forget.append(target)
            continue
        if len(todos) == 1:
            dropped.append(handle_of("todo", todos[0].todo_id))
        else:
            questions.append(ask("dropped", [t.text for t in todos]))
        named = ", ".join(repr(t.text) for t in todos)
        detail = f"forget {target[:60]!r} names the pending todo {named}: dropped, not forgotten"
        notes.append(Notice(code="plan_forget_dropped", detail=detail))
    left = [p for p in pending if handle_of("todo", p.todo_id) not in dropped]
    done, done_notes, asked = closed_by_words(plan, left, said)
    notes += done_notes
    questions += asked
    return dataclasses.replace(
        plan,
        forget=tuple(forget),
        done=(*plan.done, *done),
        dropped=(*plan.dropped, *dropped),
        notes=(*plan.notes, *notes),
        questions=tuple(dict.fromkeys([*plan.questions, *questions])),
    )


def closed_by_words(
    plan: TurnPlan, pending: Sequence[PendingTodo], said: Sequence[str]
) -> tuple[list[str], list[Notice], list[str]]:
    """The handle of the todo the person's past tense names done (:mod:`.did`), or the
    question when several fit (a "done" among several asks in :func:`.todos.bare_done`), or
    the notice that a model's ``complete_commitment`` named none."""
    if not may_close_by_words(plan):
        return [], [], []
    hits = done_by_words(pending, said)
    if len(hits) == 1:
        return [handle_of("todo", hits[0].todo_id)], [], []
    if hits and not plan.done_said:
        question = ask("done", [t.text for t in hits])
        detail = f"several todos fit what the person did; nothing was completed. Ask: {question}"
        return [], [Notice(code="commitment_not_completed", detail=detail)], [question]
    if not hits and plan.complete_asked and not plan.done_said and plan.plan_source not in JUDGED:
        return [], [NOT_DONE], []
    return [], [], []


async def settle_todos(conn: Connection, plan: TurnPlan) -> TurnPlan:
    """:func:`settle` against this agent's pending todos (read only when the turn may need them)."""
    if not needs_pending(plan):
        return plan
    req = plan.turn.req
    return settle(plan, await load_pending(conn, req.user_id, req.agent_id))
