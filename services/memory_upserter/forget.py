"""``POST /v1/forget`` (003 §9): intentional amnesia, scoped, soft by default.

Postgres first, in one transaction under the user's lock (:mod:`.forget_store`); then every
retrieval path: fact and episode vectors go inactive (soft) or are deleted (hard), and the
user's working memory loses the forgotten entity ids, turns and — hard, or scope ``session`` —
the conversations' keys. Only the asking user's rows, points and keys are ever touched.
A hard forget then rewrites the Postgres tables it touched (:mod:`.forget_compact`), so no
deleted row's bytes stay in their files; the vector index never held the text. The answer
carries a deletion receipt (:mod:`.forget_receipt`).
Commits reuse :func:`forget_in_transaction` and :func:`clean_up` for ``plan.forget``.
"""

from __future__ import annotations

import time
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from uuid import UUID

import asyncpg
import msgspec

from contracts.memory import Notice
from contracts.privacy import ForgetRequest, ForgetResponse, ForgetTarget
from services.core.errors import DependencyUnavailable
from services.core.memory_store import lock_user, mark_indexed
from services.core.resources import Resources
from services.core.validation import FieldError, InvalidInput
from services.core.working_memory import ConcurrentUpdate
from services.memory_upserter import forget_compact as compaction
from services.memory_upserter import forget_quotes as quotes
from services.memory_upserter import forget_receipt as receipts
from services.memory_upserter import forget_store as store
from services.memory_upserter.forget_working_memory import (
    Reach,
    RedisEffect,
    forget_in_working_memory,
)
from services.memory_upserter.plan_logic import fold
from services.memory_upserter.turn_index import reindex_mentions

AUDIT_KINDS = {
    "facts": "fact",
    "todos": "todo",
    "episodes": "episode",
    "messages": "message",
    "entities": "entity",
}


@dataclass
class Forgotten:
    """What the transaction forgot, and what the clean-up after it must reach."""

    effects: store.Effects
    forget_ids: list[UUID] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # normalized entity names and aliases
    texts: list[str] = field(default_factory=list)
    wipe_user: bool = False  # every key and point of the user
    wipe_agent: str | None = None  # every working-memory key of this agent
    session_chat: tuple[str, str] | None = None  # (agent, chat) whose keys go
    warnings: list[Notice] = field(default_factory=list)
    redis: RedisEffect = field(default_factory=RedisEffect)


def check(req: ForgetRequest) -> None:
    """What the schema cannot say; raises :class:`InvalidInput` listing every problem."""
    errors: list[FieldError] = []
    if req.scope == "session":
        errors += [
            FieldError(f"$.{f}", f"scope 'session' needs {f}")
            for f in ("agent_id", "chat_id")
            if getattr(req, f) is None
        ]
        if req.targets:
            errors.append(
                FieldError(
                    "$.targets",
                    "scope 'session' forgets the conversation; "
                    "targets need scope 'agent' or 'global'",
                )
            )
    else:
        if req.scope == "agent" and req.agent_id is None:
            errors.append(FieldError("$.agent_id", "scope 'agent' needs agent_id"))
        if not req.targets and not req.everything:
            errors.append(FieldError("$.targets", "name what to forget, or set everything: true"))
        if req.include_history:
            errors.append(FieldError("$.include_history", "only for scope 'session'"))
    for i, target in enumerate(req.targets):
        given = [
            f for f in msgspec.structs.fields(ForgetTarget) if getattr(target, f.name) is not None
        ]
        if len(given) != 1:
            errors.append(
                FieldError(
                    f"$.targets[{i}]",
                    "give exactly one of entity, fact_id, episode_id, todo_id, text",
                )
            )
        for f in ("fact_id", "episode_id", "todo_id"):
            if getattr(target, f) is not None and not _uuid(getattr(target, f)):
                errors.append(FieldError(f"$.targets[{i}].{f}", "not a UUID"))
    if req.session_id is not None and not _uuid(req.session_id):
        errors.append(FieldError("$.session_id", "not a UUID"))
    if errors:
        raise InvalidInput(errors)


async def forget(res: Resources, req: ForgetRequest, *, request_id: str | None) -> ForgetResponse:
    check(req)
    now = datetime.now(UTC)
    started = time.monotonic()
    async with res.pg.acquire() as conn, conn.transaction():
        await lock_user(conn, req.user_id)
        done = await forget_in_transaction(
            conn,
            user_id=req.user_id,
            scope=req.scope,
            agent_id=req.agent_id,
            chat_id=req.chat_id,
            targets=req.targets,
            everything=req.everything,
            include_history=req.include_history,
            session_id=req.session_id,
            hard=req.hard,
            reason=req.reason,
            now=now,
            request_id=request_id,
        )
    # A turn's vectors may still be on their way (indexed after the reply): let them land
    # before removing them, or a point loaded before the forget would come back after it.
    await res.background.drain()
    await clean_up(
        res,
        req.user_id,
        done,
        hard=req.hard,
        agent_scope=req.agent_id if req.scope == "agent" else None,
    )
    rows = done.effects.tables or receipts.rows_per_table(done.effects.counts)
    compacted: list[str] = []
    pending: list[str] = []
    if req.hard:
        touched = compaction.touched_tables(rows)
        try:
            compacted, pending = await compaction.compact(res.pg, touched)
        except (OSError, TimeoutError, asyncpg.PostgresError) as exc:  # the rows are gone:
            compacted, pending = [], touched  # answer, and rewrite them in the background
            done.warnings.append(
                Notice(
                    code="compaction_deferred",
                    detail=(
                        f"Postgres did not rewrite the tables ({type(exc).__name__}); retried "
                        f"for 60 s"
                    ),
                )
            )
        if pending:  # too large to rewrite inside the request, or its lock was busy
            res.background.spawn(
                compaction.finish_later(res.pg, pending, started=started), name="forget-compaction"
            )
    return ForgetResponse(
        user_id=req.user_id,
        scope=req.scope,
        hard=req.hard,
        forget_ids=[str(i) for i in done.forget_ids],
        counts=dict(done.effects.counts),
        entity_ids=[str(i) for i in done.effects.ids.get("entities", [])],
        warnings=done.warnings,
        receipt=receipts.receipt(
            hard=req.hard,
            rows=rows,
            points=receipts.points_per_collection(done.effects.counts),
            redis_deleted=done.redis.deleted,
            redis_rewritten=done.redis.rewritten,
            compacted=compacted,
            pending=pending,
        ),
    )


async def forget_in_transaction(
    conn: asyncpg.Connection,
    *,
    user_id: str,
    scope: str,
    agent_id: str | None,
    chat_id: str | None,
    targets: Sequence[ForgetTarget] = (),
    names_or_texts: Sequence[str] = (),
    everything: bool = False,
    include_history: bool = False,
    session_id: str | None = None,
    hard: bool,
    reason: str | None,
    now: datetime,
    request_id: str | None,
) -> Forgotten:
    """The Postgres half, inside the caller's transaction (the caller holds the user lock).
    ``names_or_texts`` (a plan's ``forget``) are entities when a name or alias matches, else
    texts."""
    done = Forgotten(store.Effects())
    scoped_agent = agent_id if scope == "agent" else None
    if scope == "session":
        done.session_chat = (agent_id, chat_id)
        sid = None
        if include_history:
            sid = await store.session_to_forget(
                conn, user_id, agent_id, chat_id, uuid.UUID(session_id) if session_id else None
            )
        if sid is not None:
            done.effects = await store.forget_rows(
                conn,
                store.Selection(user_id, agent_id, session_id=sid),
                hard=hard,
                now=now,
                reason=reason,
            )
            if hard:
                done.effects.counts["snippets"] += await quotes.clear_snippets(conn, user_id, sid)
        fallback = "session"
    elif everything and scope == "global" and hard:
        done.effects = await store.forget_everything_hard(conn, user_id)
        done.wipe_user, fallback = True, "all"
    else:
        handles = [t.entity for t in targets if t.entity] + list(names_or_texts)
        found = await store.find_entities(conn, user_id, handles, hard=hard) if handles else []
        matched = {fold(n) for r in found for n in (r["name_normalized"], *r["aliases"])}
        texts = [t.text for t in targets if t.text]
        texts += [x for x in names_or_texts if fold(x) not in matched]
        for t in targets:
            if t.entity and not any(_answers(r, t.entity) for r in found):
                done.warnings.append(
                    Notice(code="entity_not_found", detail=f"no entity answers to {t.entity!r}")
                )
        entity_ids = [r["entity_id"] for r in found]
        if everything:
            entity_ids += await _scope_entities(conn, user_id, scoped_agent)
        done.names = sorted(
            {n for r in found if not r["is_self"] for n in (r["name_normalized"], *r["aliases"])}
        )
        done.texts = [fold(t) for t in texts]
        selection = store.Selection(
            user_id,
            scoped_agent,
            everything=everything,
            entity_ids=tuple(entity_ids),
            fact_ids=_ids(t.fact_id for t in targets),
            todo_ids=_ids(t.todo_id for t in targets),
            episode_ids=_ids(t.episode_id for t in targets),
            texts=tuple(texts),
            names_pattern=store.names_pattern(done.names),
        )
        done.effects = await store.forget_rows(conn, selection, hard=hard, now=now, reason=reason)
        done.effects.counts["summaries"] += await quotes.drop_summaries(
            conn,
            user_id,
            everything=everything and scope == "global",
            texts=texts,
            names_pattern=selection.names_pattern,
        )
        done.effects.counts["seeds"] += await quotes.drop_seed(
            conn, user_id, texts=texts, names_pattern=selection.names_pattern
        )
        if everything:
            done.wipe_user = scope == "global"
            done.wipe_agent = scoped_agent
        fallback = "all" if everything else "entity"
    if hard and not done.wipe_user:  # a wiped user's answers went with the users row
        done.effects.counts["stored_answers"] += await store.scrub_stored_answers(
            conn, user_id, done.effects
        )
    done.forget_ids = await store.audit(
        conn,
        user_id=user_id,
        agent_id=agent_id,
        chat_id=chat_id,
        scope=scope,
        hard=hard,
        reason=reason,
        effects=done.effects,
        kinds=AUDIT_KINDS,
        fallback_kind=fallback,
        request_id=request_id,
        now=now,
    )
    return done


async def clean_up(
    res: Resources, user_id: str, done: Forgotten, *, hard: bool, agent_scope: str | None
) -> None:
    """The vector and working-memory half, after the commit; failures become warnings (the
    rows are already forgotten, and inactive rows are filtered by every Postgres read)."""
    counts: Counter = done.effects.counts
    try:
        counts.update(await _vectors(res, user_id, done, hard=hard))
    except DependencyUnavailable as exc:
        done.warnings.append(
            Notice(
                code="vectors_not_updated",
                detail=(
                    f"{exc.dependency} unavailable: forgotten rows may still have vectors; "
                    "POST /v1/reindex marks forgotten facts inactive"
                ),
            )
        )
    reach = Reach(
        wipe_user=done.wipe_user,
        wipe_agent=done.wipe_agent,
        session_chat=done.session_chat,
        entity_ids={str(i) for i in done.effects.ids.get("entities", [])},
        message_ids={str(i) for i in done.effects.ids.get("messages", [])},
        names=done.names,
        texts=done.texts,
    )
    try:
        done.redis = await forget_in_working_memory(
            res.working_memory, user_id, reach, hard=hard, agent_scope=agent_scope
        )
        counts["working_memory"] += done.redis.conversations
    except (ConcurrentUpdate, DependencyUnavailable, OSError) as exc:
        done.warnings.append(
            Notice(
                code="working_memory_not_updated",
                detail=f"working memory not cleaned: {type(exc).__name__}",
            )
        )


async def _vectors(res: Resources, user_id: str, done: Forgotten, *, hard: bool) -> Counter:
    counts: Counter = Counter()
    vectors = res.vectors
    if vectors is None:
        return counts
    if done.wipe_user and hard:
        for collection in ("facts", "episodes", "knowledge", "messages"):
            counts[f"{collection}_vectors"] += await vectors.delete(collection, user_id=user_id)
        return counts
    for kind, collection in (
        ("facts", "facts"),
        ("episodes", "episodes"),
        ("messages", "messages"),
    ):
        ids = [str(i) for i in done.effects.ids.get(kind, [])]
        if not ids:
            continue
        if hard:
            counts[f"{collection}_vectors"] += await vectors.delete(
                collection, user_id=user_id, ids=ids
            )
        else:
            counts[f"{collection}_vectors"] += await vectors.set_active(
                collection, user_id=user_id, ids=ids, active=False
            )
    if done.effects.ids.get("messages") and res.embedder is not None:
        counts["messages_vectors_rewritten"] += await reindex_mentions(
            res.pg, vectors, res.embedder, user_id, [*done.names, *done.texts]
        )
    facts = done.effects.ids.get("facts", [])
    if facts and not hard:
        async with res.pg.acquire() as conn:
            await mark_indexed(conn, "relations", facts, unchanged_since=datetime.now(UTC))
    return counts


async def _scope_entities(
    conn: asyncpg.Connection, user_id: str, agent_id: str | None
) -> list[UUID]:
    rows = await conn.fetch(
        "SELECT entity_id FROM entities WHERE user_id = $1 AND entity_ref IS DISTINCT FROM "
        "'self:user' AND ($2::text IS NULL OR (scope = 'agent' AND agent_id = $2))",
        user_id,
        agent_id,
    )
    return [r[0] for r in rows]


def _answers(row: asyncpg.Record, handle: str) -> bool:
    key = fold(handle)
    return (
        str(row["entity_id"]) == key
        or handle == row["entity_ref"]
        or key in {fold(n) for n in (row["name_normalized"], *row["aliases"])}
    )


def _ids(values) -> tuple[UUID, ...]:
    return tuple(uuid.UUID(v) for v in values if v)


def _uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True
