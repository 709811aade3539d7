"""``POST /v1/commit``: one turn, written once however often n8n retries it.

1. Read the request (pure, :func:`~.read.read`): the turn's time, its plan, its message
   rows, its idempotency key and a hash of the body.
2. Outside any transaction, one read (:mod:`.judge_store`): a stored answer, and the session's
   recent user messages, which ground a model's plan (with none, the shadow judge makes one).
3. Decide (pure, :mod:`.plan`): the plan as writes, with notices of what was left out.
4. One transaction under the user's lock (:func:`_transaction`; its statements, and why they
   run in that order: :mod:`.sql`), retried on a deadlock: a stored answer for the key
   is replayed (a different body is a 409), else the messages, session, entities, facts,
   completion, todos and the answer are written together.
5. After the commit (:func:`~.index.after_commit`): the turn's vectors, the clean-up of a
   ``plan.forget`` and the working memory; a failure there is a warning in the answer.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import timedelta
from uuid import UUID

import asyncpg
import msgspec

from contracts.memory import CommitRequest, CommitResponse
from services.core.background import Background
from services.core.deps import Connection, Database
from services.core.errors import Conflict
from services.core.llm import LLM
from services.core.memory_store import (
    apply_facts,
    lock_user,
    self_entity_id,
    upsert_entities,
)
from services.core.settings import Settings
from services.memory_upserter.commit import sql
from services.memory_upserter.commit import todos as lifecycle
from services.memory_upserter.commit.answer import answered_notice, find_answer, link, prefer
from services.memory_upserter.commit.asked import forget_notice
from services.memory_upserter.commit.capture import Where, capture
from services.memory_upserter.commit.index import after_commit
from services.memory_upserter.commit.judge_store import judge_turn, plan_turn, replay
from services.memory_upserter.commit.names import distinct_writes, handles_of, load_known
from services.memory_upserter.commit.plan import prepare
from services.memory_upserter.commit.read import SELF, read
from services.memory_upserter.commit.response import commit_response, decide
from services.memory_upserter.commit.supersede import supersede
from services.memory_upserter.commit.turn import (
    Stored,
    TurnPlan,
    Written,
)
from services.memory_upserter.commit.zone import person_zone
from services.memory_upserter.forget.tx import forget_in_transaction
from services.memory_upserter.stores import MemoryStores

ATTEMPTS = 3  # a deadlock with another writer of the same user rolls back; the turn is retried


class _Replay(Exception):
    """The key holds an answer already: the transaction rolls back, the answer is replayed."""

    def __init__(self, stored: Stored) -> None:
        super().__init__("replay")
        self.stored = stored


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
    turn = read(req, await person_zone(stores.db, req.user_id, req.now))
    idle = timedelta(minutes=settings.session_idle_minutes)
    answered = await find_answer(stores, turn)  # "the work one": which Marta was meant
    if turn.plan is not None and turn.plan_source is not None:
        found = await plan_turn(stores.db, turn, idle)
        if not isinstance(found, Stored):
            async with stores.db.acquire() as conn:  # whom the plan's names mean (003 §10)
                known = await load_known(conn, req.user_id, req.agent_id, handles_of(turn.plan))
            found = replace(found, known=tuple(known))
    else:
        found = await judge_turn(stores.db, llm, settings, turn, idle)
    if isinstance(found, Stored):
        return replay(found, turn), True
    judged = replace(found, known=tuple(prefer(found.known, answered)))
    decided = replace(prepare(turn, judged), answered=answered)
    written = await _write(stores.db, decided, idle, request_id)
    if isinstance(written, Stored):
        return replay(written, turn), True
    response = await after_commit(stores, settings, background, turn, written)
    return response, False


async def _write(
    db: Database, plan: TurnPlan, idle: timedelta, request_id: str | None
) -> Stored | Written:
    """Commit the turn, or return what an earlier commit of it stored (nothing written); the
    transaction is retried when a deadlock with another writer of the user rolled it back."""
    async with db.acquire() as conn:
        for attempt in range(ATTEMPTS):
            try:
                async with conn.transaction():
                    return await _transaction(conn, plan, idle, request_id)
            except _Replay as replay:
                return replay.stored
            except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError):
                if attempt == ATTEMPTS - 1:
                    raise
            except asyncpg.UniqueViolationError as exc:
                if exc.constraint_name == "messages_turn_position_key":
                    raise Conflict(
                        f"turn {plan.turn.req.turn_id!r} was logged already, but its stored "
                        "answer has expired; use a new turn_id"
                    ) from None
                raise
    raise AssertionError("unreachable: the last attempt returns or raises")


async def _transaction(
    conn: Connection, plan: TurnPlan, idle: timedelta, request_id: str | None
) -> Written:
    """Everything the turn writes, in the caller's transaction (:mod:`.sql`'s order)."""
    t, resolved = plan.turn, plan.resolved
    req, now, user = t.req, t.now, t.req.user_id
    await lock_user(conn, user)
    opened = await conn.fetchrow(sql.OPEN, user, req.agent_id, req.chat_id, now, idle, t.key)
    if opened is not None and opened["request_hash"]:
        raise _Replay(Stored(opened["request_hash"], opened["response"]))
    rows = t.rows
    session = await conn.fetchrow(
        sql.LOG,
        user,
        req.agent_id,
        req.chat_id,
        uuid.uuid4(),
        now,
        max(1, len(t.user_rows)),
        req.turn_id,
        [r.message_id for r in rows],
        [r.position for r in rows],
        [r.role for r in rows],
        [r.speaker for r in rows],
        [r.text for r in rows],
        [r.external_id for r in rows],
        [r.ts for r in rows],
    )
    assert session is not None  # the statement always returns the session
    entity_writes, unknown = await distinct_writes(conn, plan)
    entities = (
        await upsert_entities(
            conn,
            user,
            entity_writes,
            agent_id=req.agent_id,
            now=now,
            source=plan.fact_source,
            lock=False,
        )
        if entity_writes
        else []
    )
    self_id = None
    if resolved.self_aliases or any(SELF in (s, o) for _, s, o in resolved.facts):
        self_id = await self_entity_id(conn, user)
    if resolved.self_aliases:
        names = resolved.self_aliases
        await conn.execute(sql.SELF_ALIASES, user, self_id, plan.fact_source, names, names[0], now)
    pending = (
        await lifecycle.load_pending(conn, user, req.agent_id)
        if plan.done_said or plan.done or plan.dropped
        else []
    )
    superseding = await supersede(conn, plan)  # the handles the plan replaces and ends
    guessed = plan.plan_source == "offline_extractor"
    named = lifecycle.resolve_closings(plan.done, plan.dropped, pending, guessed=guessed)
    named_any = named.closing or ((plan.done or plan.dropped) and not guessed)
    bare = replace(plan, done_said=False) if named_any else plan  # named todos: no bare "done"
    actionable = [p for p in pending if p.kind in lifecycle.ACTIONABLE]
    decided = decide(bare, entities, self_id, actionable, superseding.replaces)
    results = await apply_facts(conn, user, decided.writes, now=now, lock=False)
    closing = {**named.closing}
    if decided.complete is not None:
        closing.setdefault(decided.complete, "DONE")
    closed = await lifecycle.close(conn, user, closing, now)
    where = Where(user, req.agent_id, req.chat_id, session["session_id"], now)
    todos = await capture(conn, where, plan.todos)
    forgotten = None
    if plan.forget:
        forgotten = await forget_in_transaction(
            conn,
            user_id=user,
            scope="global",
            agent_id=req.agent_id,
            chat_id=req.chat_id,
            names_or_texts=plan.forget,
            hard=False,
            reason="asked in conversation",
            now=now,
            request_id=request_id,
        )
    said = [r.text for r in t.user_rows]
    asked = [forget_notice(plan.forget, forgotten.effects.counts, said)] if forgotten else []
    response = commit_response(
        plan,
        session_id=session["session_id"],
        new_session=session["created"],
        entities=entities,
        facts=list(zip(decided.writes, results, strict=True)),
        todos=todos,
        completed=None,
        forgotten=dict(forgotten.effects.counts) if forgotten else {},
        warnings=[
            *t.notes,
            *unknown,
            *plan.notes,
            *superseding.notes,
            *decided.notes,
            *named.notes,
            *asked,
        ],
        ended=superseding.ended,
    )
    chosen = await link(conn, user, plan.answered, plan.fact_source) if plan.answered else None
    others = plan.answered.others if chosen and plan.answered else ()
    response = msgspec.structs.replace(
        response,
        completions=lifecycle.completions(closed),
        warnings=[*response.warnings, *answered_notice(plan.answered, chosen)],
    )
    touched = list(
        dict.fromkeys([*([str(chosen)] if chosen else []), *(str(e.entity_id) for e in entities)])
    )
    live = await conn.fetch(
        sql.FINISH,
        user,
        req.agent_id,
        t.key,
        t.digest,
        response,
        now,
        session["session_id"],
        session["last_seq"],
        len(rows),
        sum(r.outcome in ("created", "superseded_previous") for r in results),
        [*_uuids([i for i in req.active_entity_ids if i not in others]), *map(UUID, touched)],
        list(map(UUID, touched)),
        [r.message_id for r in rows],
    )  # the answer under the turn's key, the checkpoint, counters, last_seen, named entities
    changed = {r.rel_id for r in results if r.outcome != "unchanged"}
    changed |= {r.replaced_id for r in results if r.replaced_id}
    changed |= {UUID(f.fact_id) for f in superseding.ended}
    return Written(
        response,
        sorted(changed, key=str),
        touched,
        {str(r["entity_id"]) for r in live},
        forgotten,
        (*plan.questions, *decided.questions, *named.questions),
        plan.answered.closes if chosen and plan.answered else (),
    )


def _uuids(values: list[str]) -> list[UUID]:
    out = []
    for value in values:
        try:
            out.append(UUID(value))
        except ValueError:
            continue
    return out
