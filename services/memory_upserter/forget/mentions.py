"""An entity or text forget in the message log (inside the forget's transaction): the messages
that mention it lose the sentences that do (:mod:`.redact`) and the forgotten entity ids;
a message with nothing left goes whole, soft or hard like the other rows. Every other message
of the conversation stays as it was.

A hard forget's redaction is an ``UPDATE``: the old text stays in the table's dead tuples until
the table is rewritten, which a hard forget then does (:mod:`.compact`), and in the message
points' vectors until they are re-indexed and the collection rewritten (:mod:`.cleanup`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from services.core.deps import Connection
from services.memory_upserter.forget.redact import Needles, redact
from services.memory_upserter.forget.store import NAMES_SQL, TEXT_SQL
from services.memory_upserter.forget.types import Effects

_MENTIONING = f"""
SELECT r.message_id, r.text FROM messages r
 WHERE r.user_id = $1 AND (r.active OR $2) AND ($3::text IS NULL OR r.agent_id = $3)
   AND ({NAMES_SQL.format(names="$4", col="r.text")} OR {TEXT_SQL.format(texts="$5", col="r.text")}
        OR r.entity_ids && $6::uuid[])
 ORDER BY r.seq
"""


async def redact_messages(
    conn: Connection,
    *,
    user_id: str,
    agent_id: str | None,
    names_pattern: str | None,
    needles: Needles,
    entity_ids: Sequence[UUID],
    hard: bool,
    now: datetime,
    reason: str | None,
    effects: Effects,
) -> None:
    """Redact the user's messages (this agent's, or any agent's when ``agent_id`` is None)
    mentioning what ``needles`` name; counts ``messages_redacted``, and ``messages`` for
    those that went whole."""
    texts = list(needles.texts)
    if not (names_pattern or texts or entity_ids):
        return
    found = await conn.fetch(
        _MENTIONING, user_id, hard, agent_id, names_pattern, texts, list(entity_ids)
    )
    emptied: list[UUID] = []
    redacted: list[tuple[UUID, str]] = []
    for row in found:
        kept = redact(row["text"], needles)
        if not kept:
            emptied.append(row["message_id"])
        else:
            redacted.append((row["message_id"], kept))
    if redacted:
        await conn.executemany(
            """UPDATE messages SET text = $3,
                      entity_ids = ARRAY(SELECT e FROM unnest(entity_ids) e
                                          WHERE e <> ALL($4::uuid[]))
                WHERE user_id = $1 AND message_id = $2""",
            [(user_id, mid, text, list(entity_ids)) for mid, text in redacted],
        )
        changed = {
            r["message_id"] for r in found if r["text"] != dict(redacted).get(r["message_id"])
        }
        effects.add("messages_redacted", [mid for mid, _ in redacted if mid in changed])
    if emptied:
        if hard:
            await conn.execute(
                "DELETE FROM messages WHERE user_id = $1 AND message_id = ANY($2::uuid[])",
                user_id,
                emptied,
            )
        else:
            await conn.execute(
                """UPDATE messages SET active = false, forgotten_at = $3, forget_reason = $4
                    WHERE user_id = $1 AND message_id = ANY($2::uuid[])""",
                user_id,
                emptied,
                now,
                reason,
            )
        effects.add("messages", emptied)
