"""Everything one commit writes, in one transaction under the user's lock, as named steps in
:mod:`.sql`'s order, each in the module of its concept: the user lock, the stored answer (a
replay stops here), the messages and session (here), the entities (:mod:`.entities`), the facts
with the todos they close (:mod:`.facts`), the todos captured (:mod:`.capture`), a
``plan.forget`` (:mod:`..forget.tx`), the answer (:mod:`.response`), and the answer stored last
with the counters (:mod:`.finish`). :func:`write` retries the transaction on a deadlock."""

from __future__ import annotations

import uuid
from datetime import timedelta

import asyncpg
import structlog

from services.core.deps import Connection, Database
from services.core.errors import Conflict, Contention
from services.core.memory_store import lock_user
from services.memory_upserter.commit import sql
from services.memory_upserter.commit.capture import capture_turn
from services.memory_upserter.commit.entities import write_entities
from services.memory_upserter.commit.facts import write_facts
from services.memory_upserter.commit.finish import finish
from services.memory_upserter.commit.lifecycle import settle_todos
from services.memory_upserter.commit.response import respond
from services.memory_upserter.commit.rows import LogRow, SessionRow
from services.memory_upserter.commit.turn import Stored, TurnPlan, Written
from services.memory_upserter.forget.tx import forget_in_transaction

RACED_KEYS = frozenset({"uniq_relations_memory_key", "uniq_relations"})
ATTEMPTS = 3  # a deadlock with another writer of the same user rolls back; the turn is retried


class Replay(Exception):
    """The key holds an answer already: the transaction rolls back, the answer is replayed."""

    def __init__(self, stored: Stored) -> None:
        super().__init__("replay")
        self.stored = stored


async def write(
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


async def transaction(
    conn: Connection, plan: TurnPlan, idle: timedelta, request_id: str | None
) -> Written:
    """Everything the turn writes, in the caller's transaction (:mod:`.sql`'s order)."""
    req, now = plan.turn.req, plan.turn.now
    await lock_user(conn, req.user_id)
    await _open(conn, plan, idle)
    plan = await settle_todos(conn, plan)  # a forget naming a todo drops it; "booked the train"
    session = await _log(conn, plan)
    named = await write_entities(conn, plan)
    facts = await write_facts(conn, plan, named)
    todos = await capture_turn(conn, plan, session.session_id)
    forgotten = (
        await forget_in_transaction(  # what the person asked to forget (soft, across personas)
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
        if plan.forget
        else None
    )
    response = respond(plan, session, named, facts, todos, forgotten)
    return await finish(conn, plan, response, session, named, facts, forgotten)


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
