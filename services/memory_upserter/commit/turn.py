"""The data of one commit, as it moves down the layers: read from the request
(:class:`ReadTurn`), decided (:class:`TurnPlan`), written (:class:`Written`).

Every layer imports its types from here — the orchestrator and its transaction
(:mod:`.write`), the pure steps (:mod:`.read`, :mod:`.plan`, :mod:`.response`,
:mod:`.session`) and what follows the commit (:mod:`.index`) — so no layer needs the
one above it. Rows are named: a field, not a position, says which column a value fills. Data
only, no logic (the steps hold it): pure, no driver imported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from typing import Any, Literal
from uuid import UUID

from contracts.common import Role, TodoKind
from contracts.memory import CommitRequest, CommitResponse, Notice
from contracts.plan import MemoryWritePlan, PlanFact
from services.core.memory_store.shapes import EntityWrite
from services.memory_upserter.commit.shape import Trust
from services.memory_upserter.extract.people import Known
from services.memory_upserter.forget.types import Forgotten

Validity = tuple[datetime | None, datetime | None]
PlanSource = Literal["request", "answer", "llm_judge", "offline_extractor"]


@dataclass(frozen=True)
class Resolved:
    """The plan's entities as writes, and each fact's subject/object as a write index
    (``SELF``, -1: the user's own entity)."""

    writes: list[EntityWrite] = field(default_factory=list)
    facts: list[tuple[PlanFact, int, int | None]] = field(default_factory=list)
    self_aliases: list[str] = field(default_factory=list)
    distinct: dict[int, tuple[int, str]] = field(default_factory=dict)
    # write index → (plan entity index, the handle it is not)
    open: dict[str, str] = field(default_factory=dict)  # a name several answer to → question
    left_open: list[PlanFact] = field(default_factory=list)  # facts naming an open name
    unknown_kind: list[str] = field(default_factory=list)  # new names nothing gave a category


@dataclass(frozen=True)
class Stored:
    """What the idempotency key holds: the first commit's body hash and answer."""

    request_hash: str
    response: dict[str, Any]


@dataclass(frozen=True)
class MessageRow:
    """One message of the turn, as ``messages`` stores it."""

    message_id: UUID
    position: int
    role: Role
    speaker: str | None
    text: str
    external_id: str | None
    ts: datetime


@dataclass(frozen=True)
class TodoRow:
    """One todo of the plan, as ``todos`` stores it (pending)."""

    todo_id: UUID
    kind: TodoKind
    text: str
    due_at: datetime | None
    source_snippet: str | None
    source_message_id: UUID | None


@dataclass(frozen=True)
class CapturedTodo:
    """A todo as the turn left it: this turn's, or the pending one it repeated."""

    todo_id: UUID
    kind: TodoKind
    text: str
    due_at: datetime | None
    source_snippet: str | None
    created: bool


@dataclass(frozen=True)
class PendingTodo:
    """A pending todo a turn may close (a bare "done": a commitment, reminder or habit)."""

    todo_id: str
    text: str
    kind: str = "COMMITMENT"


@dataclass(frozen=True)
class Completed:
    """The todo a "done" completed (a habit: checked in)."""

    todo_id: UUID
    kind: TodoKind
    text: str


@dataclass(frozen=True)
class ReadTurn:
    """The request read: everything decided before any I/O."""

    req: CommitRequest
    now: datetime
    key: str  # the idempotency key, commit:{agent}:{chat}:{turn_id}
    digest: str  # sha256 of the body
    rows: tuple[MessageRow, ...]
    reply: str | None
    user_rows: tuple[MessageRow, ...]  # the person's, of ``rows``
    plan: MemoryWritePlan | None
    plan_source: Literal["request", "answer"] | None  # None: the request has no plan
    zone: tzinfo = UTC  # the person's time zone (users.timezone, else the request's offset)
    notes: tuple[Notice, ...] = ()  # what reading the model's plan or answer repaired or dropped
    trust: Trust = "strict"  # the plan's shape: how its facts are grounded (:mod:`.shape`)


@dataclass(frozen=True)
class Answered:
    """A which-question the turn's message answered (:mod:`.answer`), and whom it chose."""

    question: str
    chosen: Known
    alias: str | None  # "work Marta": stored on the chosen one
    waiting: tuple[str, ...]  # message ids of the turn that raised the question
    closes: tuple[str, ...] = ()  # every open question about that name (the read side's too)
    others: tuple[str, ...] = ()  # the namesakes not chosen: no longer active, not seen now


@dataclass(frozen=True)
class TodoAnswer:
    """A "which one is done?" the turn's message answered ("the dentist one"), and the todo it
    picked, in the todo's own words (:func:`.answer.todo_answer`)."""

    question: str
    verb: Literal["done", "dropped"]
    text: str


@dataclass(frozen=True)
class Judgement:
    """What the turn's plan came with: the plan itself (the request's, or the shadow judge's),
    its source, the names the user goes by, the earlier messages the judge saw, the questions
    and notices it raised."""

    plan: MemoryWritePlan | None
    source: PlanSource
    self_names: tuple[str, ...] = ()
    context: tuple[str, ...] = ()
    questions: tuple[str, ...] = ()
    notes: tuple[Notice, ...] = ()
    known: tuple[Known, ...] = ()  # the user's entities the plan's names may mean
    stored_facts: tuple[str, ...] = ()  # live fact texts a plan's ending fact may restate
    people: tuple[str, ...] = ()  # the person's people and pets, "Person:Lara" (grounding)
    todo_answer: TodoAnswer | None = None  # "the dentist one": the todo a "which one?" meant
    renames: tuple[Rename, ...] = ()  # names the person corrected ("her name is ana not anna")


@dataclass(frozen=True)
class Rename:
    """A known person's name, corrected by the person (:mod:`..extract.renamed`)."""

    entity_ref: str
    old: str  # the name as stored
    new: str


@dataclass(frozen=True)
class TurnPlan:
    """The turn, decided: what the transaction writes."""

    turn: ReadTurn
    plan_source: PlanSource
    resolved: Resolved
    todos: tuple[TodoRow, ...]
    done_said: bool
    complete_asked: bool
    forget: tuple[str, ...]
    fact_source: str
    notes: tuple[Notice, ...] = ()
    questions: tuple[str, ...] = ()  # asked next turn (entity_ambiguous)
    done: tuple[str, ...] = ()  # todos the plan says are done: handles or words
    dropped: tuple[str, ...] = ()  # todos the plan says the person no longer wants
    answered: Answered | None = None  # the open question this turn's message answered
    ends: tuple[str, ...] = ()  # handles of the facts the plan ends
    closes_asked: tuple[str, ...] = ()  # the todo questions this turn answered ("the dentist one")
    renames: tuple[Rename, ...] = ()


@dataclass(frozen=True)
class Written:
    """The committed answer, and what the work after the commit needs."""

    response: CommitResponse
    fact_ids: list[UUID] = field(default_factory=list)  # rows whose vectors must follow
    touched: list[str] = field(default_factory=list)  # entities this turn named
    active_ids: set[str] = field(default_factory=set)  # the request's ids that are live
    forgotten: Forgotten | None = None
    questions: tuple[str, ...] = ()  # the plan's, and the transaction's ("which one is done?")
    closed: tuple[str, ...] = ()  # questions this turn answered: no longer pending
    passed_over: tuple[str, ...] = ()  # active namesakes the answer did not choose: let go


# Where a plan's fields sit in the request, for a warning's path: ``$.plan``, or
# ``$.answer.plan`` in a model's answer (``plan`` for the judge's own: ``.get(source, "plan")``).
PLAN_PATHS = {"request": "$.plan", "answer": "$.answer.plan"}
