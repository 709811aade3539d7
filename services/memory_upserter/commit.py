"""``POST /v1/commit``: one turn, written once however often n8n retries it.

1. Read the request (pure): the turn's time, its plan (``plan``, or the LLM's raw ``answer``,
   whose reply becomes the assistant message), message ids, the idempotency key
   ``commit:{agent}:{chat}:{turn_id}`` and a hash of the body.
2. No plan: the shadow judge extracts one (:mod:`.judge`) — after checking, outside any
   transaction, that this turn was not committed already.
3. One transaction under the user's lock (:mod:`.commit_store` lists its round trips): a stored
   answer for the key is replayed (a different body is a 409), else the messages, session,
   entities, facts, completion, todos and the answer are written together.
4. After the commit: the vectors of the turn's messages and changed facts, embedded in one
   batch (:func:`~.turn_index.sync_turn_vectors`) — after the reply by default
   (``TWIN_INDEX_AFTER_REPLY``: the turn's path does not wait for the embedder; a lost or
   failed indexing leaves ``indexed_at`` NULL for the sweep; when 4 turns are already being
   indexed, this one waits for its own, so bursts slow the writer, not the readers), else
   before it, with a
   ``vectors_unindexed`` warning on failure — the clean-up of a ``plan.forget``, and the
   working memory (compare-and-set, so pulse-decay's concurrent count is never lost). A failure
   here is a warning: Postgres already holds the turn.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import asyncpg
import msgspec
import redis.exceptions
import structlog

from contracts.memory import CommitRequest, CommitResponse, Notice
from contracts.plan import LLMAnswer, MemoryWritePlan, PlanFact
from contracts.slots import Turn
from services.core.clock import check_times, request_clock
from services.core.errors import DependencyUnavailable
from services.core.problems import Conflict
from services.core.resources import Resources
from services.core.validation import FieldError, InvalidInput, decode
from services.core.working_memory import ConcurrentUpdate
from services.memory_upserter import judge_store
from services.memory_upserter import plan_logic as logic
from services.memory_upserter.commit_store import MessageRow, Stored
from services.memory_upserter.due import parse_due
from services.memory_upserter.extractor import Utterance
from services.memory_upserter.forget import clean_up
from services.memory_upserter.forget_store import FORGOTTEN_ANSWER
from services.memory_upserter.judge import judge, names_in
from services.memory_upserter.turn_index import sync_turn_vectors
from services.memory_upserter.turn_writer import TurnPlan, Written, write_turn

ATTEMPTS = 3  # a deadlock with another writer of the same user rolls back; the turn is retried


@dataclass
class ReadTurn:
    """The request read: everything decided before any I/O."""

    req: CommitRequest
    now: datetime
    key: str
    digest: str
    rows: list[MessageRow]
    reply: str | None
    plan: MemoryWritePlan | None
    plan_source: str
    notes: list[Notice] = field(default_factory=list)
    context: list[str] = field(default_factory=list)  # the judge's earlier user messages

    @property
    def user_rows(self) -> list[MessageRow]:
        return [r for r in self.rows if r.role == "user"]


def read(req: CommitRequest) -> ReadTurn:
    """Pure: the turn's time, plan, reply and message rows; :class:`InvalidInput` on a bad
    plan or answer, listing every problem."""
    check_times(
        [("$.now", req.now), *((f"$.messages[{i}].ts", m.ts) for i, m in enumerate(req.messages))]
    )
    now = request_clock(req.now or max((m.ts for m in req.messages if m.ts), default=None))
    plan, reply, source = req.plan, None, "request" if req.plan is not None else None
    errors: list[FieldError] = []
    if req.answer is not None:
        if req.plan is not None:
            errors.append(FieldError("$.answer", "give plan or answer, not both"))
        else:
            answer, planned = _answer(req.answer)
            plan, reply = (answer.plan, answer.reply) if planned else (None, answer.reply)
            source = "answer" if planned else None
    if plan is not None:
        errors += logic.check_plan(plan, "$.plan" if source == "request" else "$.answer.plan", now)
    if errors:
        raise InvalidInput(errors)
    messages = [(m.role, m.speaker, m.text, m.external_id, m.ts) for m in req.messages]
    if reply is not None and not any(m.role == "assistant" for m in req.messages):
        messages.append(("assistant", None, reply, None, None))
    reply = next((text for role, _, text, _, _ in reversed(messages) if role == "assistant"), None)
    rows = [
        MessageRow(uuid.uuid4(), i, role, speaker, text, ext, ts or now)
        for i, (role, speaker, text, ext, ts) in enumerate(messages)
    ]
    digest = hashlib.sha256(msgspec.json.encode(req)).hexdigest()
    key = f"commit:{req.agent_id}:{req.chat_id}:{req.turn_id}"
    return ReadTurn(req, now, key, digest, rows, reply, plan, source or "none")


def _answer(raw: str) -> tuple[LLMAnswer, bool]:
    """The answer, and whether it carries a plan (an answer without one — a question the
    flow asked instead of the model — leaves the turn to the shadow judge)."""
    text = raw.strip()
    if text.startswith("```"):  # a model that fenced its JSON
        text = text.strip("`").removeprefix("json").strip()
    try:
        answer = decode(text.encode(), LLMAnswer)
        return answer, "plan" in msgspec.json.decode(text)
    except InvalidInput as exc:
        raise InvalidInput(
            [FieldError("$.answer" + e.path[1:], e.reason) for e in exc.errors], "Invalid answer"
        ) from None


async def commit_turn(
    res: Resources, req: CommitRequest, *, request_id: str | None
) -> tuple[CommitResponse, bool]:
    """The turn's answer, and whether it is a replay of an earlier commit."""
    turn = read(req)
    settings = res.settings
    idle = timedelta(minutes=settings.session_idle_minutes)
    self_names: list[str] = []
    questions: list[str] = []
    if turn.plan is None:
        new = [Utterance(r.text, r.speaker) for r in turn.user_rows]
        async with res.pg.acquire() as conn:
            context = await judge_store.judge_context(
                conn,
                req.user_id,
                req.agent_id,
                req.chat_id,
                turn.key,
                turn.now,
                idle,
                names_in(new),
            )
        if context.stored is not None:
            return _replay(context.stored, turn), True
        self_names = context.self_names
        judged = await judge(
            res.llm,
            new=new,
            earlier=[Utterance(t, s) for t, s in context.earlier],
            self_names=self_names,
            known=context.known,
            now=turn.now,
            timeout_s=settings.llm_timeout_s,
        )
        turn.plan, turn.plan_source = judged.plan, judged.source
        turn.context = judged.context
        questions = judged.questions
        if judged.warning:
            turn.notes.append(Notice(code="judge_fallback", detail=judged.warning))
        turn.notes += [
            Notice(
                code="entity_ambiguous",
                detail=(
                    f"a todo names someone several people answer to; nobody was linked. Ask: {q}"
                ),
            )
            for q in questions
        ]
    plan = _prepare(turn, self_names)
    plan.questions = questions
    written: Stored | Written | None = None
    async with res.pg.acquire() as conn:
        for attempt in range(ATTEMPTS):
            try:
                written = await write_turn(conn, plan, idle=idle, request_id=request_id)
                break
            except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError):
                if attempt == ATTEMPTS - 1:
                    raise
            except asyncpg.UniqueViolationError as exc:
                if exc.constraint_name == "messages_turn_position_key":
                    raise Conflict(
                        f"turn {req.turn_id!r} was logged already, but its stored "
                        "answer has expired; use a new turn_id"
                    ) from None
                raise
    if isinstance(written, Stored):
        return _replay(written, turn), True
    await _after_commit(res, turn, written, plan.questions)
    return written.response, False


def _replay(stored: Stored, turn: ReadTurn) -> CommitResponse:
    if stored.request_hash != turn.digest:
        raise Conflict(
            f"turn {turn.req.turn_id!r} of chat {turn.req.chat_id!r} was committed "
            "with a different body; a new turn needs a new turn_id"
        )
    if stored.response == FORGOTTEN_ANSWER:
        raise Conflict(
            f"turn {turn.req.turn_id!r} of chat {turn.req.chat_id!r} was committed, "
            "then forgotten on request; it is not written again"
        )
    return msgspec.json.decode(msgspec.json.encode(stored.response), type=CommitResponse)


def _prepare(turn: ReadTurn, self_names: Sequence[str]) -> TurnPlan:
    """Pure: the plan as writes — affect facts dropped or promoted, handles resolved, todos
    with their due time, source sentence and message."""
    plan = turn.plan or MemoryWritePlan()
    selves = {logic.fold(n) for n in self_names}
    own = [
        r
        for r in turn.user_rows
        if not r.speaker
        or logic.fold(r.speaker) in selves
        or turn.plan_source in ("request", "answer")
    ]
    facts = [f for f in plan.facts if not logic.is_affect(f)]
    if len(facts) < len(plan.facts):
        turn.notes.append(
            Notice(
                code="affect_fact_dropped",
                detail=(
                    f"{len(plan.facts) - len(facts)} feeling/mood fact(s) ignored: AFFECT "
                    f"becomes a "
                    "fact only through promote_affect, when the user said it"
                ),
            )
        )
    if turn.plan_source != "offline_extractor":  # a model's plan: only what the person said
        words = [r.text for r in own] + turn.context
        kept = [f for f in facts if logic.grounded(f, words)]
        turn.notes += [
            Notice(
                code="fact_not_grounded",
                detail=(
                    f"dropped {f.predicate} {f.value if f.value is not None else f.object!r}: "
                    f'"{f.text[:120]}" — not in the person\'s words this turn'
                ),
            )
            for f in facts
            if f not in kept
        ]
        facts = kept
    promotion = plan.promote_affect
    if promotion is not None:
        if logic.statement_in(promotion.user_statement, [r.text for r in own]):
            facts.append(
                PlanFact(
                    memory_type="PROFILE",
                    subject="user",
                    predicate="FEELS",
                    value=promotion.label.lower(),
                    importance=0,
                    confidence=0.7,
                    text=f"User said they feel {promotion.label.lower()}: "
                    f'"{promotion.user_statement[:400]}"',
                )
            )
        else:
            turn.notes.append(
                Notice(
                    code="affect_not_promoted",
                    detail=(
                        "promote_affect ignored: the user's message in this turn does not contain "
                        "the stated user_statement"
                    ),
                )
            )
    resolved = logic.resolve(msgspec.structs.replace(plan, facts=facts))
    resolved.validity = [logic.validity(f, turn.now) for f, _, _ in resolved.facts]
    todos, seen = [], set()
    user_texts = [(i, r.text) for i, r in enumerate(turn.rows) if r in own]
    for todo in plan.todos:
        key = (todo.kind, logic.fold(todo.text))
        if key in seen:
            continue
        seen.add(key)
        due = parse_due(todo.due, turn.now) if todo.due else None
        if todo.due and due is None:
            turn.notes.append(
                Notice(
                    code="due_not_understood",
                    detail=f"todo {todo.text[:60]!r}: due {todo.due!r} ignored",
                )
            )
        snippet, index = logic.source_of(todo.text, todo.source_snippet, user_texts)
        todos.append(
            (
                uuid.uuid4(),
                todo.kind,
                todo.text,
                due,
                snippet,
                turn.rows[index].message_id if index is not None else None,
            )
        )
    done_said = any(logic.says_done(r.text) for r in own)
    if plan.complete_commitment and not done_said:
        turn.notes.append(
            Notice(
                code="commitment_not_completed",
                detail=("complete_commitment needs the user to say done, finished or completed"),
            )
        )
    return TurnPlan(
        turn=turn,
        resolved=resolved,
        todos=todos,
        done_said=done_said,
        complete_asked=plan.complete_commitment,
        forget=list(plan.forget),
        fact_source="llm_plan"
        if turn.plan_source in ("request", "answer")
        else "shadow_extraction",
    )


async def _after_commit(
    res: Resources, turn: ReadTurn, after: Written, questions: Sequence[str] = ()
) -> None:
    req = turn.req
    indexing = sync_turn_vectors(
        res.pg,
        res.vectors,
        res.embedder,
        req.user_id,
        [r.message_id for r in turn.rows],
        after.fact_ids,
        after.touched,
    )
    if res.settings.index_after_reply and res.background.has_room():
        res.background.spawn(_index_later(indexing), name=f"index-turn:{req.turn_id}")
    elif warning := await indexing:
        after.response.warnings.append(Notice(code="vectors_unindexed", detail=warning))
    if after.forgotten is not None:
        await clean_up(res, req.user_id, after.forgotten, hard=False, agent_scope=None)
        after.response.warnings += after.forgotten.warnings
    unknown = len(req.active_entity_ids) - len(after.active_ids & set(req.active_entity_ids))
    if unknown:
        after.response.warnings.append(
            Notice(
                code="unknown_active_entity",
                detail=(f"{unknown} active_entity_ids are not this user's live entities; not kept"),
            )
        )
    turns = [
        Turn(role=r.role, text=r.text, speaker=r.speaker, ts=r.ts, message_id=str(r.message_id))
        for r in turn.rows
    ]
    active = [*after.touched, *(i for i in req.active_entity_ids if i in after.active_ids)]

    def compute(seen):
        session = logic.next_session(
            seen.session,
            user_id=req.user_id,
            agent_id=req.agent_id,
            chat_id=req.chat_id,
            turns=turns,
            active_ids=active,
            scratch=req.scratch,
            now=turn.now,
            max_turns=res.settings.working_memory_turns,
            questions=questions,
        )
        return session, None, None

    try:
        await res.working_memory.update(req.user_id, req.agent_id, req.chat_id, compute)
    except (ConcurrentUpdate, DependencyUnavailable, redis.exceptions.RedisError, OSError) as exc:
        after.response.warnings.append(
            Notice(
                code="working_memory_not_updated",
                detail=(
                    f"the turn is saved, but the working memory was not updated "
                    f"({type(exc).__name__})"
                ),
            )
        )


async def _index_later(indexing: Coroutine[Any, Any, str | None]) -> None:
    """The turn's vectors, after the reply: a failure leaves the rows for the sweep."""
    warning = await indexing
    if warning:
        structlog.get_logger().warning("turn_unindexed", detail=warning)
