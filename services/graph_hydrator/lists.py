"""Foundation facts and this agent's todo lists, ordered, deduped and capped (001/004) — pure.

Foundation = the person's facts every turn of every persona starts from, whatever the message
names: ACTIVE, currently valid facts visible to the agent (global or its own, scope-merged like
edges) that are

* seeded (``source = 'seeded_profile'``: the person's profile) or pinned;
* about the person (subject = their own entity ``self:user``), global, PROFILE or PEOPLE, of
  importance 2 or more — name, home, work, family ("User lives in Lisbon", "Marta is the
  user's sister"): what one persona learned reaches every other persona's next turn;
* about the person and of importance 3 (core identity), in any scope visible to the agent;
* about the person and this persona's own (scope ``agent``: a coach's plan, a goal it keeps
  for itself), of any importance: what it wrote for itself is in its every later turn (it
  never reaches another persona: only facts visible to this agent are read);
* critical (allergy, medication, intolerance, safety boundary), whoever's they are.

Never foundation, whatever else holds: a fact stored with less confidence than
:data:`contracts.slots.UNVERIFIED_BELOW` (a psyche guess, a fact the write path could not
ground: not authoritative), and a promoted affect (:data:`AFFECT_PREDICATES`, "User said they
feel nervous…": how they felt once, not who they are) unless pinned or seeded. PSYCHE
inferences only when pinned or seeded. A fact about someone else, however important
("Caroline went to a support group"), is not the person's foundation: it reaches the turn
that names them, through the subgraph and rag-gate.

Order (pinned down by ``tests/graph_hydrator/test_logic.py``): seeded facts first, in the
profile's own order (oldest first); then pinned facts, most important then newest first; then
the rest: critical first, then core identity (importance 3), then this persona's own notes,
then by importance, then newest first (``updated_at``: a fact stated again is fresh); past its
first :data:`OWN_NOTES_CAP`, a persona's own notes come last. Seeded
before pinned because the profile is what the operator declared the person to be (001/004
put it first) while a pin is one turn's emphasis; both come before anything ranked.
12 at most, the same text once.

Todos are this agent's alone (000): pending commitments (8), active threads (3), frictions (3)
and recent wins — commitments done within the last 48 hours (3). A reminder ("remind me to
call Marta") is a commitment with a due date; goals and habits are threads the person keeps
working on: :data:`LIST_OF_KIND` says which list each kind of todo joins. Each list is deduped by
normalized text ("Call Márta!" = "call marta"), keeping the first in its order:
commitments by nearest due date then newest, threads and frictions most recently updated
first, wins most recently completed first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any, TypeVar

from contracts.common import Provenance
from contracts.slots import UNVERIFIED_BELOW, FactLine, TodoLine
from services.core.text import fold
from services.graph_hydrator.rows import FactRow, TodoRow
from services.graph_hydrator.subgraph import is_critical, merge_scopes
from services.graph_hydrator.text import dedupe_key

FOUNDATION_CAP = 12
OWN_NOTES_CAP = 4  # a persona's own notes ranked ahead of the person's home and work, at most
AFFECT_PREDICATES = frozenset({"FEELS"})  # memory-upserter's promote_affect
SELF_TYPES = frozenset({"PROFILE", "PEOPLE"})  # the person's identity and their relations
TODO_CAPS = {"COMMITMENT": 8, "THREAD": 3, "FRICTION": 3, "WIN": 3}  # 8: bench/RESULTS.md
LIST_OF_KIND = {
    "COMMITMENT": "COMMITMENT",
    "REMINDER": "COMMITMENT",
    "THREAD": "THREAD",
    "GOAL": "THREAD",
    "HABIT": "THREAD",
    "FRICTION": "FRICTION",
}
WINS_WINDOW = timedelta(hours=48)
# How many rows the store fetches per list, so that dropping duplicates still fills the cap.
FETCH_FACTOR = 4

T = TypeVar("T")
_FAR = float("inf")


def dedupe(items: Iterable[T], text: Callable[[T], str], cap: int) -> list[T]:
    """The first ``cap`` items whose normalized text has not been seen before."""
    seen: set[str] = set()
    out: list[T] = []
    for item in items:
        key = dedupe_key(text(item))
        if key in seen:
            continue
        seen.add(key)
        out.append(item)
        if len(out) == cap:
            break
    return out


def foundation_rank(fact: FactRow) -> tuple[Any, ...]:
    if fact.seeded:
        return (0, fact.created_at.timestamp(), fact.fact_id)
    updated = (fact.updated_at or fact.created_at).timestamp()
    if fact.pinned:
        return (1, -fact.importance, -updated, fact.fact_id)
    own = fact.scope == "agent"
    core = fact.importance == 3
    return (2, not is_critical(fact.predicate), not core, not own, -fact.importance, -updated,
            fact.fact_id)  # fmt: skip


def is_foundation(fact: FactRow) -> bool:
    if fact.confidence < UNVERIFIED_BELOW:
        return False
    if fact.seeded or fact.pinned:
        return True
    if fact.memory_type == "PSYCHE" or fact.predicate.upper() in AFFECT_PREDICATES:
        return False
    if is_critical(fact.predicate):
        return True
    if not fact.about_self:
        return False
    return (
        fact.importance == 3
        or fact.scope == "agent"
        or (fact.scope == "global" and fact.importance >= 2 and fact.memory_type in SELF_TYPES)
    )


def pick_foundation(facts: Iterable[FactRow]) -> list[FactLine]:
    merged, _ = merge_scopes(
        [f for f in facts if is_foundation(f)], lambda f: (f.subject_id, f.predicate, f.scope)
    )
    chosen = dedupe(_own_notes_capped(sorted(merged, key=foundation_rank)), lambda f: f.text,
                    FOUNDATION_CAP)  # fmt: skip
    return [
        FactLine(
            fact_id=f.fact_id,
            text=f.text,
            memory_type=f.memory_type,
            importance=f.importance,
            pinned=f.pinned,
            source=f.source,
            confidence=f.confidence,
            valid_to=f.valid_to,
            provenance=Provenance(
                row_id=f.fact_id, message_ids=list(f.message_ids), source=f.source
            ),
        )
        for f in chosen
    ]


def _own_notes_capped(ranked: list[FactRow]) -> list[FactRow]:
    """The ranked facts with this persona's own notes (not seeded, pinned, critical or core)
    past the first :data:`OWN_NOTES_CAP` moved to the end: a coach with many notes never
    pushes the person's home or job out of its own prompt."""
    ahead: list[FactRow] = []
    later: list[FactRow] = []
    notes = 0
    for fact in ranked:
        note = foundation_rank(fact)[:4] == (2, True, True, False)  # ranked as an own note
        (later if note and notes >= OWN_NOTES_CAP else ahead).append(fact)
        notes += note
    return ahead + later


def todo_rank(todo: TodoRow) -> tuple[Any, ...]:
    """A list's order, the same on every read: a commitment by nearest due (none last), then
    newest, then its folded text — todos written by one plan share their ``created_at``, and a
    random id as the tie-break made one of them vanish from one turn to the next."""
    if todo.bucket == "COMMITMENT":
        due = todo.due_at.timestamp() if todo.due_at else _FAR
        return (due, -todo.created_at.timestamp(), fold(todo.text), todo.todo_id)
    if todo.bucket == "WIN":
        done = todo.completed_at.timestamp() if todo.completed_at else 0
        return (-done, fold(todo.text), todo.todo_id)
    return (-todo.updated_at.timestamp(), fold(todo.text), todo.todo_id)


def bucket_of(todo: TodoRow, now: datetime) -> str | None:
    """Which list a todo belongs to right now, or None (e.g. a win older than 48 hours)."""
    if todo.status == "PENDING":
        return LIST_OF_KIND.get(todo.kind)
    if (
        todo.status == "DONE"
        and LIST_OF_KIND.get(todo.kind) == "COMMITMENT"
        and todo.completed_at is not None
        and now - WINS_WINDOW < todo.completed_at <= now
    ):
        return "WIN"
    return None


def pick_todos(todos: Iterable[TodoRow], now: datetime) -> dict[str, list[TodoLine]]:
    """``{"COMMITMENT": [...], "THREAD": [...], "FRICTION": [...], "WIN": [...]}``."""
    return {
        name: [_todo_line(t) for t in dedupe(rows, lambda t: t.text, TODO_CAPS[name])]
        for name, rows in _buckets(todos, now).items()
    }


def hidden_todos(todos: Iterable[TodoRow], now: datetime) -> dict[str, int]:
    """How many todos of each list its cap left out (``"todos_commitment": 2``), none when
    every one is shown: the prompt cannot name what it does not list."""
    hidden = {
        f"todos_{name.lower()}": len(dedupe(rows, lambda t: t.text, len(rows))) - TODO_CAPS[name]
        for name, rows in _buckets(todos, now).items()
    }
    return {name: count for name, count in hidden.items() if count > 0}


def _buckets(todos: Iterable[TodoRow], now: datetime) -> dict[str, list[TodoRow]]:
    """Each list's todos in its order (:func:`todo_rank`)."""
    buckets: dict[str, list[TodoRow]] = {name: [] for name in TODO_CAPS}
    for todo in todos:
        bucket = bucket_of(todo, now)
        if bucket is not None:
            buckets[bucket].append(todo)
    return {name: sorted(rows, key=todo_rank) for name, rows in buckets.items()}


def _todo_line(todo: TodoRow) -> TodoLine:
    return TodoLine(
        todo_id=todo.todo_id,
        kind=todo.kind,
        text=todo.text,
        status=todo.status,
        due_at=todo.due_at,
        created_at=todo.created_at,
        completed_at=todo.completed_at,
        source_snippet=todo.source_snippet,
    )
