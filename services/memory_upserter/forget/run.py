"""``POST /v1/forget`` (003 §9): intentional amnesia, scoped, soft by default.

Postgres first, in one transaction under the user's lock (:mod:`.tx`); then every
retrieval path (:mod:`.cleanup`): fact and episode vectors go inactive (soft) or are
deleted (hard), and the user's working memory loses the forgotten entity ids, turns and — hard,
or scope ``session`` — the conversations' keys. Only the asking user's rows, points and keys
are ever touched. A hard forget then rewrites the Postgres tables it touched
(:mod:`.compact`), so no deleted row's bytes stay in their files, takes their planner statistics
again (:mod:`.statistics`), and rewrites the vector collections it touched (:mod:`.cleanup`).
The answer carries a deletion receipt (:mod:`.receipt`).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime

import asyncpg

from contracts.memory import Notice
from contracts.privacy import ForgetRequest, ForgetResponse
from services.core.background import Background
from services.core.memory_store import lock_user
from services.memory_upserter.forget import compact as compaction
from services.memory_upserter.forget import receipt as receipts
from services.memory_upserter.forget import statistics
from services.memory_upserter.forget.check import check
from services.memory_upserter.forget.cleanup import clean_up
from services.memory_upserter.forget.tx import forget_in_transaction
from services.memory_upserter.forget.types import Forgotten
from services.memory_upserter.stores import MemoryStores


async def forget(
    stores: MemoryStores, background: Background, req: ForgetRequest, *, request_id: str | None
) -> ForgetResponse:
    check(req)
    now = datetime.now(UTC)
    started = time.monotonic()
    done = await _postgres(stores, req, now, request_id)
    # A turn's vectors may still be on their way (indexed after the reply): let them land
    # before removing them, or a point loaded before the forget would come back after it.
    await background.drain()
    cleaned = await clean_up(
        stores,
        req.user_id,
        done,
        hard=req.hard,
        agent_scope=req.agent_id if req.scope == "agent" else None,
    )
    counts: Counter[str] = Counter(done.effects.counts)
    counts.update(cleaned.counts)
    warnings = [*done.warnings, *cleaned.warnings]
    rows = done.effects.tables or receipts.rows_per_table(counts)
    touched = compaction.touched_tables(rows) if req.hard else []
    rewrite = await _rewrite(stores, background, touched, started) if req.hard else _Rewrite(True)
    warnings += rewrite.warnings
    return ForgetResponse(
        user_id=req.user_id,
        scope=req.scope,
        hard=req.hard,
        forget_ids=[str(i) for i in done.forget_ids],
        counts=dict(counts),
        entity_ids=[str(i) for i in done.effects.ids.get("entities", [])],
        warnings=warnings,
        receipt=receipts.receipt(
            hard=req.hard,
            rows=rows,
            points=receipts.points_per_collection(counts),
            redis_deleted=cleaned.redis.deleted,
            redis_rewritten=cleaned.redis.rewritten,
            compacted=rewrite.compacted,
            pending=rewrite.pending,
            analyzed=rewrite.analyzed,
            statistics_left=not rewrite.catalog_rewritten
            or (bool(touched) and not rewrite.analyzed),
            vectors_rewritten=cleaned.purged,
            vectors_left=bool(cleaned.unpurged),
            kept=receipts.kept(counts),
        ),
    )


@dataclass
class _Rewrite:
    """What a hard forget's rewrite of the tables it touched did."""

    catalog_rewritten: bool
    compacted: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)  # rewritten later, in the background
    analyzed: list[str] = field(default_factory=list)
    warnings: list[Notice] = field(default_factory=list)


async def _rewrite(
    stores: MemoryStores, background: Background, touched: list[str], started: float
) -> _Rewrite:
    """The touched tables rewritten (what cannot be now, later) and their statistics taken
    again; a failure is a warning: the rows are gone either way."""
    done = _Rewrite(True)
    try:
        done.compacted, done.pending = await compaction.compact(stores.db, touched)
    except (OSError, TimeoutError, asyncpg.PostgresError) as exc:  # the rows are gone:
        done.compacted, done.pending = [], touched  # answer, and rewrite them in the background
        done.warnings.append(
            Notice(
                code="compaction_deferred",
                detail=(
                    f"Postgres did not rewrite the tables ({type(exc).__name__}); retried for 60 s"
                ),
            )
        )
    try:
        done.analyzed, done.catalog_rewritten = await statistics.refresh(stores.db, touched)
    except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
        done.warnings.append(
            Notice(
                code="statistics_not_refreshed",
                detail=f"Postgres did not re-analyze the tables ({type(exc).__name__})",
            )
        )
    if done.pending:  # too large to rewrite inside the request, or its lock was busy
        background.spawn(
            compaction.finish_later(stores.db, done.pending, started=started),
            name="forget-compaction",
        )
    return done


async def _postgres(
    stores: MemoryStores, req: ForgetRequest, now: datetime, request_id: str | None
) -> Forgotten:
    """The Postgres half, in one transaction under the user's lock."""
    async with stores.db.acquire() as conn, conn.transaction():
        await lock_user(conn, req.user_id)
        return await forget_in_transaction(
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
