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
from services.memory_upserter.stores import MemoryStores


async def forget(
    stores: MemoryStores, background: Background, req: ForgetRequest, *, request_id: str | None
) -> ForgetResponse:
    check(req)
    now = datetime.now(UTC)
    started = time.monotonic()
    async with stores.db.acquire() as conn, conn.transaction():
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
    compacted: list[str] = []
    pending: list[str] = []
    analyzed: list[str] = []
    catalog_rewritten = True
    if req.hard:
        try:
            compacted, pending = await compaction.compact(stores.db, touched)
        except (OSError, TimeoutError, asyncpg.PostgresError) as exc:  # the rows are gone:
            compacted, pending = [], touched  # answer, and rewrite them in the background
            warnings.append(
                Notice(
                    code="compaction_deferred",
                    detail=(
                        f"Postgres did not rewrite the tables ({type(exc).__name__}); retried "
                        f"for 60 s"
                    ),
                )
            )
        try:
            analyzed, catalog_rewritten = await statistics.refresh(stores.db, touched)
        except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
            warnings.append(
                Notice(
                    code="statistics_not_refreshed",
                    detail=f"Postgres did not re-analyze the tables ({type(exc).__name__})",
                )
            )
        if pending:  # too large to rewrite inside the request, or its lock was busy
            background.spawn(
                compaction.finish_later(stores.db, pending, started=started),
                name="forget-compaction",
            )
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
            compacted=compacted,
            pending=pending,
            analyzed=analyzed,
            statistics_left=not catalog_rewritten or (bool(touched) and not analyzed),
            vectors_rewritten=cleaned.purged,
            vectors_left=bool(cleaned.unpurged),
            kept=receipts.kept(counts),
        ),
    )
