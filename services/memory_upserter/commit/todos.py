"""The todo lifecycle of a commit (001): which pending todos a turn closes, done or dropped.

A plan names the todos it closes in ``done`` and ``dropped``, each by its handle (``T07be2c``,
:mod:`services.core.handles`) or by its words ("call Marta"). A name resolves among this
agent's pending todos of every kind (threads, goals and frictions included):

- a handle: the one pending todo whose id it starts; a prefix several ids share names none;
- words: the todo sharing the most content words with them (a word matches its inflections:
  "called" is "call"), when those are at least half of the words given (the floor) and no
  other todo shares as many; else none.

A name that resolves to none is a ``todo_not_closed`` notice, and several a question for the
next turn ("Which one is done: …?"). A bare "done" (the person said done, the plan names no
todo) follows the conservative completion rule: :func:`pick_done` among the pending
commitments, reminders and habits. Done is DONE (a habit is checked in and stays pending);
dropped is DROPPED. Neither is a recent win but a done commitment or reminder (001).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Literal
from uuid import UUID

from contracts.memory import Completion, Notice
from services.core.handles import matches, parse_handle
from services.memory_upserter.commit.todo_question import Verb, ask
from services.memory_upserter.commit.turn import PendingTodo, TurnPlan
from services.memory_upserter.text import STOP_WORDS, done_what, words

if TYPE_CHECKING:  # the statements run on the caller's connection; importing stays pure
    from services.core.deps import Connection

Closing = Literal["DONE", "DROPPED"]
ACTIONABLE = ("COMMITMENT", "REMINDER", "HABIT")  # what a bare "done" can complete
_FILLER = frozenset({"thing", "stuff", "one", "todo", "task", "already", "just", "finally"})
# The words of saying done name no todo: "ok done!! got it done finally" fits "get it done"
# no better than "call mom".
DONE_WORDS = frozenset(
    "done finished finish completed complete did do does doing got get ok okay yes yay yep "
    "checked ticked off now today".split()
)


def content_words(text: str) -> list[str]:
    return [w for w in words(text) if w not in STOP_WORDS and w not in _FILLER]


def _same(a: str, b: str) -> bool:
    """One word, inflections aside: "called" is "call", "booking" is "book"."""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 3 and long_.startswith(short) and len(long_) - len(short) <= 3


def overlap(named: Sequence[str], todo_text: str) -> int:
    """How many of ``named`` (content words) the todo's text holds."""
    theirs = content_words(todo_text)
    return sum(1 for w in named if any(_same(w, t) for t in theirs))


PENDING_ALL = """
SELECT todo_id::text, kind, text FROM todos
 WHERE user_id = $1 AND agent_id = $2 AND status = 'PENDING' AND active
 ORDER BY created_at, todo_id
 LIMIT 50
"""
CLOSE = """
UPDATE todos t
   SET status = CASE WHEN c.status = 'DONE' AND t.kind = 'HABIT' THEN t.status ELSE c.status END,
       completed_at = CASE WHEN c.status = 'DONE' AND t.kind = 'HABIT' THEN NULL
                           ELSE $3::timestamptz END,
       updated_at = $3
  FROM unnest($2::uuid[], $4::text[]) AS c(todo_id, status)
 WHERE t.user_id = $1 AND t.todo_id = c.todo_id AND t.status = 'PENDING' AND t.active
RETURNING t.todo_id, t.kind, t.text, c.status
"""


@dataclass(frozen=True)
class Closed:
    """A todo this turn closed."""

    todo_id: UUID
    kind: str
    text: str
    status: Closing


@dataclass(frozen=True)
class Closings:
    """The todos a plan's ``done``/``dropped`` name, and what it could not resolve."""

    closing: dict[str, Closing] = field(default_factory=dict)  # todo_id → status, in order
    notes: list[Notice] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)


def find(name: str, pending: Sequence[PendingTodo]) -> list[PendingTodo]:
    """The pending todos ``name`` may mean: one when it resolves (module docstring), the
    tied best (several) when the words fit more than one, none when nothing clears the floor."""
    handle = parse_handle(name)
    if handle is not None:
        if handle.kind != "todo":
            return []
        hits = [p for p in pending if matches(handle, p.todo_id)]
        return hits if len(hits) == 1 else []
    named = list(dict.fromkeys(content_words(name)))
    if not named:
        return []
    scored = [(overlap(named, p.text), p) for p in pending]
    best = max((score for score, _ in scored), default=0)
    if best == 0 or best * 2 < len(named):
        return []
    return [p for score, p in scored if score == best]


def resolve_closings(
    done: Sequence[str],
    dropped: Sequence[str],
    pending: Sequence[PendingTodo],
    *,
    guessed: bool = False,
) -> Closings:
    """What ``done`` and ``dropped`` name among ``pending`` (a todo named twice keeps its first
    status); a name that fits several asks which, one that fits none is a notice — unless the
    names are ``guessed`` (the offline judge's: "I just booked the flights" may close
    nothing)."""
    out = Closings()
    for status, names in (("DONE", done), ("DROPPED", dropped)):
        for name in names:
            found = find(name, pending)
            hits = [p for p in found if p.todo_id not in out.closing]
            if len(hits) == 1:
                out.closing[hits[0].todo_id] = status  # type: ignore[assignment]
                continue
            verb: Verb = "done" if status == "DONE" else "dropped"
            if (found and not hits) or (guessed and not hits):
                continue  # named already, or a guess that names nothing
            if hits:
                out.questions.append(ask(verb, [p.text for p in hits]))
                detail = f"{name[:60]!r} fits several pending todos; none was {verb}"
            else:
                detail = f"{name[:60]!r} names none of this agent's pending todos; none was {verb}"
            out.notes.append(Notice(code="todo_not_closed", detail=detail))
    return out


def pick_done(pending: Sequence[PendingTodo], said: Sequence[str]) -> str | list[str] | None:
    """Which pending todo the person said is done: the only one (unless they were done with
    something else, :func:`_means`); else the only one their content words name most (the
    words of saying done aside — "done", "finally", "it" — inflections matched: "called" is
    "call"); else the texts to ask about."""
    spoken = [w for text in said for w in content_words(text) if w not in DONE_WORDS]
    if len(pending) == 1:
        return pending[0].todo_id if _means(pending[0], spoken, said) else None
    if not pending:
        return None
    scores = [(overlap(spoken, p.text), p.todo_id) for p in pending]
    best = max(score for score, _ in scores)
    winners = [todo_id for score, todo_id in scores if score == best]
    return winners[0] if best > 0 and len(winners) == 1 else [p.text for p in pending]


# "so done with this week", "done for today": done with something, not done doing the todo
_DONE_WITH = re.compile(
    r"(?i)\b(?:done|finished|through)\s+with\s+(?!(?:it|that|this)\s*(?:[!.,?]|$))|"
    r"\bso\s+done\b|"
    r"\bdone\s+for\s+(?:the\s+)?(?:day|today|tonight|week|now)\b"
)


def _means(todo: PendingTodo, spoken: Sequence[str], said: Sequence[str]) -> bool:
    """A "done" means the only pending todo unless it names something else ("gym done!") or
    the person is done *with* something their words do not name it by ("im so done with this
    week lol", "done for today")."""
    whole = len(content_words(todo.text))
    if whole and overlap(spoken, todo.text) >= whole:  # the message names all of it
        return True
    named = [w for text in said for w in done_what(text) if w not in DONE_WORDS]
    if named:  # this todo only if the done names it
        return overlap(named, todo.text) > 0
    if overlap(spoken, todo.text):
        return True
    return not any(_DONE_WITH.search(text) for text in said)


@dataclass(frozen=True)
class Done:
    """What a bare "done" completes: the pending todo, or why none (a notice, and a question
    for the next turn when several fit)."""

    complete: str | None = None
    notes: list[Notice] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class TodosClosed:
    """The todos the turn closed: named by the plan, or the one a bare "done" means."""

    named: Closings
    done: Done
    closed: list[Closed]
    completions: list[Completion]


async def close_todos(conn: Connection, plan: TurnPlan) -> TodosClosed:
    """Close what the plan names done or dropped, or else the todo a bare "done" means."""
    named, actionable, bare = await named_closings(conn, plan)
    # a name that fits several asked already which of those: no second question about all
    done = bare_done(plan, actionable) if bare and not named.questions else Done()
    closing = {**named.closing}
    if done.complete is not None:
        closing.setdefault(done.complete, "DONE")
    closed, reported = await close_reported(conn, plan.turn.req.user_id, closing, plan.turn.now)
    return TodosClosed(named, done, closed, reported)


def bare_done(plan: TurnPlan, pending: Sequence[PendingTodo]) -> Done:
    """When the person said done: the single pending commitment, reminder or habit (or the
    one their words name) to complete — with several and nothing to tell them apart, a notice
    now and a question for the next turn."""
    if not plan.done_said:
        return Done()
    choice = pick_done(pending, [r.text for r in plan.turn.user_rows])
    if isinstance(choice, str):
        return Done(choice)
    if choice:
        question = ask("done", choice)
        detail = f"several todos are pending; nothing was completed. Ask: {question}"
        notice = Notice(code="commitment_not_completed", detail=detail)
        return Done(None, [notice], [question])
    if plan.complete_asked:
        detail = "nothing to complete: no commitment, reminder or habit is pending for this agent"
        return Done(None, [Notice(code="commitment_not_completed", detail=detail)])
    return Done()


async def named_closings(
    conn: Connection, plan: TurnPlan
) -> tuple[Closings, list[PendingTodo], bool]:
    """What the plan's ``done``/``dropped`` name among this agent's pending todos (read only
    when the turn may close one), the pending todos a bare "done" may complete, and whether
    it may: not when the plan named todos (the offline judge's guesses that name none aside)."""
    req, guessed = plan.turn.req, plan.plan_source == "offline_extractor"
    may_close = plan.done_said or plan.done or plan.dropped
    pending = await load_pending(conn, req.user_id, req.agent_id) if may_close else []
    named = resolve_closings(plan.done, plan.dropped, pending, guessed=guessed)
    named_any = named.closing or ((plan.done or plan.dropped) and not guessed)
    return named, [p for p in pending if p.kind in ACTIONABLE], not named_any


async def load_pending(conn: Connection, user_id: str, agent_id: str) -> list[PendingTodo]:
    """This agent's pending todos, every kind, oldest first (50 at most)."""
    rows = await conn.fetch(PENDING_ALL, user_id, agent_id)
    return [PendingTodo(r["todo_id"], r["text"], r["kind"]) for r in rows]


async def close(
    conn: Connection, user_id: str, closing: dict[str, Closing], now: datetime
) -> list[Closed]:
    """Close the todos (still pending) as decided, in one statement."""
    if not closing:
        return []
    ids, statuses = list(closing), list(closing.values())
    rows = await conn.fetch(CLOSE, user_id, [UUID(i) for i in ids], now, statuses)
    order = {todo_id: n for n, todo_id in enumerate(ids)}
    found = [Closed(r["todo_id"], r["kind"], r["text"], r["status"]) for r in rows]
    return sorted(found, key=lambda c: order[str(c.todo_id)])


async def close_reported(
    conn: Connection, user_id: str, closing: dict[str, Closing], now: datetime
) -> tuple[list[Closed], list[Completion]]:
    """Close the todos as decided (:func:`close`), and how the answer reports them."""
    closed = await close(conn, user_id, closing, now)
    return closed, completions(closed)


def completions(closed: Sequence[Closed]) -> list[Completion]:
    """How the answer reports the closed todos."""
    return [
        Completion(
            todo_id=str(c.todo_id),
            kind=c.kind,  # type: ignore[arg-type]  # the todos table's check
            text=c.text,
            outcome="dropped"
            if c.status == "DROPPED"
            else "checked_in"
            if c.kind == "HABIT"
            else "completed",
        )
        for c in closed
    ]
