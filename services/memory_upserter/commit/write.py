"""``POST /v1/commit``: one turn, written once however often n8n retries it.

1. Read the request (:func:`~.read.read_turn`: the person's time zone, then pure): the turn's
   time, its plan, its message rows, its idempotency key and a hash of the body.
2. Outside any transaction, one read (:mod:`.judge_store`): a stored answer, the session's
   recent user messages, which ground a model's plan (with none, the shadow judge makes one),
   and the user's entities the plan's names may mean; then the open which-question the
   message answers (:func:`~.answer.answered_in`: which person, which todo is done), if any.
3. Decide (pure, :mod:`.plan`): the plan as writes, with notices of what was left out.
4. One transaction under the user's lock (:mod:`.transaction`, named steps; its statements,
   and why they run in that order: :mod:`.sql`), retried on a deadlock: a stored answer for the key
   is replayed (a different body is a 409), else the messages, session, entities, facts,
   completion, todos and the answer are written together.
5. After the commit (:func:`~.index.after_commit`): the turn's vectors, the clean-up of a
   ``plan.forget`` and the working memory; a failure there is a warning in the answer.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import timedelta

import asyncpg
import structlog

from contracts.memory import CommitRequest, CommitResponse
from services.core.background import Background
from services.core.deps import Database
from services.core.errors import Conflict, Contention
from services.core.llm import LLM
from services.core.settings import Settings
from services.memory_upserter.commit.answer import answered_in
from services.memory_upserter.commit.index import after_commit
from services.memory_upserter.commit.judge_store import judge_turn, plan_turn, replay
from services.memory_upserter.commit.plan import prepare
from services.memory_upserter.commit.read import read_turn
from services.memory_upserter.commit.transaction import Replay, transaction
from services.memory_upserter.commit.turn import (
    Stored,
    TodoAnswer,
    TurnPlan,
    Written,
)
from services.memory_upserter.stores import MemoryStores

RACED_KEYS = frozenset({"uniq_relations_memory_key", "uniq_relations"})
ATTEMPTS = 3  # a deadlock with another writer of the same user rolls back; the turn is retried


async def commit_turn(
    stores: MemoryStores,
    llm: LLM | None,
    settings: Settings,
    background: Background,
    req: CommitRequest,
    *,
    request_id: str | None,
) -> tuple[CommitResponse, bool]:
    """The turn's answer, and whether it is a replay of an earlier commit."""
    turn = await read_turn(stores.db, req)
    idle = timedelta(minutes=settings.session_idle_minutes)
    if turn.plan is not None and turn.plan_source is not None:
        found = await plan_turn(stores.db, turn, idle)
    else:
        found = await judge_turn(stores.db, llm, settings, turn, idle)
    if isinstance(found, Stored):
        return replay(found, turn), True
    judged, answered, todo = await answered_in(stores, turn, found)
    # grounding reads every word of the session: off the loop the six nodes share
    decided = replace(await asyncio.to_thread(prepare, turn, judged), answered=answered)
    decided = with_todo_answer(decided, todo)
    written = await _write(stores.db, decided, idle, request_id)
    if isinstance(written, Stored):
        return replay(written, turn), True
    response = await after_commit(stores, settings, background, turn, written)
    return response, False


def with_todo_answer(plan: TurnPlan, answered: TodoAnswer | None) -> TurnPlan:
    """The plan closing the todo the person's answer picked, and the question it answered."""
    if answered is None:
        return plan
    if answered.verb == "done":
        return replace(plan, done=(*plan.done, answered.text), closes_asked=(answered.question,))
    return replace(plan, dropped=(*plan.dropped, answered.text), closes_asked=(answered.question,))


async def _write(
    db: Database, plan: TurnPlan, idle: timedelta, request_id: str | None
) -> Stored | Written:
    """Commit the turn, or return what an earlier commit of it stored (nothing written); the
    transaction is retried when a deadlock with another writer of the user rolled it back."""
    async with db.acquire() as conn:
        for attempt in range(ATTEMPTS):
            try:
                async with conn.transaction():
                    return await transaction(conn, plan, idle, request_id)
            except Replay as replay:
                return replay.stored
            except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError):
                if attempt == ATTEMPTS - 1:
                    raise
            except asyncpg.UniqueViolationError as exc:
                _raced(exc, plan, last=attempt == ATTEMPTS - 1)
    raise AssertionError("unreachable: the last attempt returns or raises")


def _raced(exc: asyncpg.UniqueViolationError, plan: TurnPlan, *, last: bool) -> None:
    """Return to retry a unique-key race on the user's facts (another writer made the row the
    transaction meant to make: the retry reads it and updates it); raise what else it is.

    Only the constraint's name is logged or answered: the error's DETAIL quotes the row."""
    if exc.constraint_name == "messages_turn_position_key":
        raise Conflict(
            f"turn {plan.turn.req.turn_id!r} was logged already, but its stored "
            "answer has expired; use a new turn_id"
        ) from None
    if exc.constraint_name not in RACED_KEYS:
        raise exc
    structlog.get_logger("memory-upserter").warning(
        "commit_retried", constraint=exc.constraint_name, last=last
    )
    if last:
        raise Contention(
            f"the person's facts kept changing under this commit ({exc.constraint_name}); "
            "send it again"
        ) from None
