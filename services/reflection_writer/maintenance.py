"""Per-user upkeep after a consolidation: the summary spine and the curator (I/O around the pure
``spine`` and ``curator`` modules).

Counters are taken from the truth, not trusted alone: new messages for the spine are counted in
the message log after the last version's ``through_message_seq``; facts added for the curator
are the larger of ``user_state.facts_since_curator`` (if a writer bumps it) and the number of
relation rows added since the last run (``user_state.state.curator.fact_count``, 000's
``lastMemoryCountAtRun``). Both run in their own transaction; the curator holds the user's
graph-writer lock (``memory_store.lock_user``), so it never races a turn's fact writes, and a
second scheduler waiting on it finds the curator no longer due.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import asyncpg

from contracts.reflection import CuratorReport, UserMaintenance
from services.core import memory_store
from services.core.deps import Connection, Database
from services.core.embedder import Embedder
from services.core.vectors import VectorIndex
from services.reflection_writer import curator, spine

SPINE_FACTS = 200


async def upkeep(
    db: Database, vectors: VectorIndex, embedder: Embedder, user_id: str, now: datetime
) -> UserMaintenance:
    """The spine, then the curator (and its fact vectors), for one user."""
    async with db.acquire() as conn:
        version = await maybe_spine(conn, user_id, now)
        report, changed = await maybe_curate(conn, user_id, now)
    # Archived/superseded points go inactive, folds get theirs (shared facts index format).
    await memory_store.sync_fact_vectors(db, vectors, embedder, user_id, changed)
    return UserMaintenance(user_id=user_id, spine_version=version, curator=report)


async def maybe_spine(conn: Connection, user_id: str, now: datetime) -> int | None:
    """Write the next spine version when 20+ messages came since the last; its number or None."""
    async with conn.transaction():
        state = await conn.fetchrow(
            """WITH last AS (SELECT version, through_message_seq FROM summary_spine
                              WHERE user_id = $1 ORDER BY version DESC LIMIT 1)
               SELECT (SELECT version FROM last), (SELECT count(*) FROM messages m
                        WHERE m.user_id = $1
                          AND m.seq > COALESCE((SELECT through_message_seq FROM last), 0)),
                      (SELECT max(seq) FROM messages WHERE user_id = $1)""",
            user_id,
        )
        assert state is not None  # a SELECT without FROM: always one row
        version, new_messages, through = state[0] or 0, state[1], state[2]
        if not spine.due(new_messages):
            return None
        facts = await conn.fetch(
            """SELECT r.memory_type, r.text, s.name FROM relations r
                 JOIN entities s ON s.user_id = r.user_id AND s.entity_id = r.subject_id
                WHERE r.user_id = $1 AND r.status = 'ACTIVE' AND s.active
                  AND r.scope = 'global' AND s.scope = 'global'
                  AND r.memory_type IN ('PROFILE', 'PROJECT', 'PEOPLE')
                  AND (r.valid_to IS NULL OR r.valid_to > $2)
                ORDER BY r.pinned DESC, r.importance DESC, r.updated_at DESC, r.rel_id
                LIMIT $3""",
            user_id,
            now,
            SPINE_FACTS,
        )
        built = spine.build([spine.SpineFact(r[0], r[1], r[2]) for r in facts])
        written: int | None = await conn.fetchval(
            """INSERT INTO summary_spine (user_id, version, content, text, message_count,
                                          through_message_seq, created_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7)
               ON CONFLICT (user_id, version) DO NOTHING RETURNING version""",
            user_id,
            version + 1,
            built.content,
            built.text,
            new_messages,
            through,
            now,
        )
        if written is not None:
            await conn.execute(
                """INSERT INTO user_state (user_id, agent_id, spine_messages_since, updated_at)
                   VALUES ($1, '', 0, $2)
                   ON CONFLICT (user_id, agent_id)
                   DO UPDATE SET spine_messages_since = 0, updated_at = $2""",
                user_id,
                now,
            )
        return written


async def maybe_curate(
    conn: Connection, user_id: str, now: datetime
) -> tuple[CuratorReport | None, list[str]]:
    """Run the curator when due: (report or None, ids of every fact row it changed)."""
    async with conn.transaction():
        await memory_store.lock_user(conn, user_id)  # one graph writer per user at a time
        state = await conn.fetchrow(
            """SELECT us.curator_last_run_at, us.facts_since_curator,
                      (us.state #>> '{curator,fact_count}')::bigint,
                      (SELECT count(*) FROM relations r WHERE r.user_id = $1)
                 FROM (SELECT 1) one
                 LEFT JOIN user_state us ON us.user_id = $1 AND us.agent_id = ''""",
            user_id,
        )
        assert state is not None  # FROM a one-row subquery: always one row
        last_run, bumped, count_at_run, count_now = state
        added = max(bumped or 0, count_now - (count_at_run or 0))
        if not curator.due(last_run, now, added):
            return None, []
        rows = await conn.fetch(
            """SELECT rel_id::text, scope, agent_id, subject_id::text, predicate,
                      COALESCE(object_id::text, object_value::text), memory_type, text,
                      confidence::float8, importance, pinned, source, created_at,
                      provenance_message_ids
                 FROM relations WHERE user_id = $1 AND status = 'ACTIVE'
                ORDER BY created_at, rel_id""",
            user_id,
        )
        facts = [_curator_fact(r) for r in rows]
        decided = curator.plan(facts, memory_store.EXCLUSIVE_PREDICATES)
        report = await _apply(conn, user_id, decided, now)
        count_after = await conn.fetchval(
            "SELECT count(*) FROM relations WHERE user_id = $1", user_id
        )
        await conn.execute(
            """INSERT INTO user_state (user_id, agent_id, curator_last_run_at,
                                       facts_since_curator, state, updated_at)
               VALUES ($1, '', $2, 0, $3, $2)
               ON CONFLICT (user_id, agent_id) DO UPDATE
                  SET curator_last_run_at = $2, facts_since_curator = 0,
                      state = user_state.state || $3, updated_at = $2""",
            user_id,
            now,
            {"curator": {"last_run_at": now.isoformat(), "fact_count": count_after}},
        )
        return report, [*decided.touched, *(f.new_id for f in decided.folds)]


def _curator_fact(r: asyncpg.Record) -> curator.CuratorFact:
    return curator.CuratorFact(
        rel_id=r[0],
        scope=r[1],
        agent_id=r[2],
        subject_id=r[3],
        predicate=r[4],
        object_key=r[5],
        memory_type=r[6],
        text=r[7],
        confidence=r[8],
        importance=r[9],
        pinned=r[10],
        source=r[11],
        created_at=r[12],
        message_ids=tuple(str(m) for m in r[13] or []),
    )


async def _apply(
    conn: Connection, user_id: str, decided: curator.CuratorPlan, now: datetime
) -> CuratorReport:
    """The curator's plan written: duplicates archived, groups folded, the stale superseded."""
    archived = await _archive(conn, user_id, decided.archive, now) if decided.archive else 0
    folded_facts = 0
    for fold in decided.folds:
        folded_facts += await _fold(conn, user_id, fold, now)
    superseded = 0
    for old, newer in decided.supersede:
        status = await conn.execute(_SUPERSEDE, user_id, old, newer, now)
        superseded += int(status.split()[-1])
    return CuratorReport(
        archived_duplicates=archived,
        folded_groups=len(decided.folds),
        folded_facts=folded_facts,
        superseded=superseded,
    )


_SUPERSEDE = """UPDATE relations
                  SET status = 'SUPERSEDED', superseded_by = $3::uuid, indexed_at = NULL,
                      valid_to = GREATEST($4, COALESCE(valid_from, $4)), updated_at = $4
                WHERE user_id = $1 AND rel_id = $2::uuid AND status = 'ACTIVE'
                  AND NOT pinned"""


async def _archive(conn: Connection, user_id: str, ids: Sequence[str], now: datetime) -> int:
    status = await conn.execute(
        """UPDATE relations SET status = 'ARCHIVED', indexed_at = NULL, updated_at = $3
        WHERE user_id = $1 AND rel_id = ANY($2::uuid[]) AND status = 'ACTIVE'
          AND NOT pinned""",
        user_id,
        ids,
        now,
    )
    return int(str(status).split()[-1])


async def _fold(conn: Connection, user_id: str, fold: curator.Fold, now: datetime) -> int:
    """One group folded into a new fact; its members archived. How many were folded."""
    await conn.execute(
        """INSERT INTO relations (rel_id, user_id, scope, agent_id, subject_id, predicate,
                                  object_value, memory_type, fact_type, text, importance,
                                  confidence, source, provenance_message_ids, created_at,
                                  updated_at)
           VALUES ($1::uuid, $2, $3, $4, $5::uuid, $6, $7, 'PEOPLE', 'fact', $8, $9, $10,
                   $11, $12, $13, $13)
           ON CONFLICT DO NOTHING""",
        fold.new_id,
        user_id,
        fold.scope,
        fold.agent_id,
        fold.subject_id,
        curator.FOLD_PREDICATE,
        {"fold_id": fold.new_id, "members": len(fold.members)},
        fold.text,
        fold.importance,
        fold.confidence,
        curator.FOLD_SOURCE,
        fold.message_ids,
        now,
    )
    status = await conn.execute(
        """UPDATE relations SET status = 'ARCHIVED', folded_into = $3::uuid, indexed_at = NULL,
               updated_at = $4
            WHERE user_id = $1 AND rel_id = ANY($2::uuid[]) AND status = 'ACTIVE'
              AND NOT pinned""",
        user_id,
        fold.members,
        fold.new_id,
        now,
    )
    return int(status.split()[-1])
