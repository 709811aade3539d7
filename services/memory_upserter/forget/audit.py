"""What a forget leaves behind on purpose, inside its transaction: the audit (``forget_log``:
ids and counts, never content) and, for a hard forget, the stored commit answers that quoted a
forgotten row, emptied to :data:`FORGOTTEN_ANSWER` (the key stays, so a late retry of that turn
is refused rather than written again)."""

from __future__ import annotations

import uuid
from datetime import datetime
from uuid import UUID

from services.core.deps import Connection
from services.memory_upserter.forget.types import Effects

FORGOTTEN_ANSWER = {"forgotten": True}


async def scrub_stored_answers(conn: Connection, user_id: str, effects: Effects) -> int:
    """Hard forget: empty the stored commit answers (the idempotency replays) that quote a
    forgotten row — an answer lists its turn's messages, facts, entities and todos. The key
    stays, so a late retry of that turn is refused rather than written again."""
    ids = [str(i) for kind_ids in effects.ids.values() for i in kind_ids]
    if not ids:
        return 0
    status = await conn.execute(
        """UPDATE idempotency_keys SET response = $3::jsonb
            WHERE user_id = $1 AND response IS NOT NULL AND response <> $3::jsonb
              AND EXISTS (SELECT 1 FROM unnest($2::text[]) id
                           WHERE strpos(response::text, id) > 0)""",
        user_id,
        ids,
        FORGOTTEN_ANSWER,
    )
    return int(status.split()[-1])


async def audit(
    conn: Connection,
    *,
    user_id: str,
    agent_id: str | None,
    chat_id: str | None,
    scope: str,
    hard: bool,
    reason: str | None,
    effects: Effects,
    kinds: dict[str, str],
    fallback_kind: str,
    request_id: str | None,
    now: datetime,
) -> list[UUID]:
    """One forget_log row per kind of row forgotten (ids and counts only)."""
    rows = [
        (uuid.uuid4(), kinds[k], [str(i) for i in ids])
        for k, ids in effects.ids.items()
        if ids and k in kinds
    ]
    if not rows:
        rows = [(uuid.uuid4(), fallback_kind, [])]
    await conn.executemany(
        """INSERT INTO forget_log (forget_id, user_id, agent_id, chat_id, scope, target_kind,
                                   target_ids, reason, hard, counts, request_id, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)""",
        [
            (
                fid,
                user_id,
                agent_id,
                chat_id,
                "session" if scope == "chat" else scope,  # a chat is its sessions
                kind,
                ids,
                reason,
                hard,
                dict(effects.counts),
                request_id,
                now,
            )
            for fid, kind, ids in rows
        ],
    )
    return [r[0] for r in rows]
