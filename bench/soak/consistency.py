"""The soak's final check, read straight from Postgres (not through the stalling proxy).

- every acknowledged turn is in the message log exactly once: its two messages (the user's
  and the reply), no more, no fewer;
- no turn that was sent (acknowledged or not) is there more than once, and no user message,
  fact or pending todo is written twice (read by content, not by id);
- turns started against turns persisted (the shipped flow's degraded reply and commit-later
  mean a turn is persisted whatever step failed);
- no episode covers the same range twice, and no session's checkpoint is past its last message;
- what stayed unindexed after the final sweeps (messages, facts, episodes with
  ``indexed_at IS NULL``), reported, not failed: the sweeps repair them on their schedule.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import asyncpg

from bench.soak.workload import Ledger

MESSAGES_PER_TURN = 2  # the user's message and the assistant's reply (bench.load.commit_body)


# Written twice, by what the person said rather than by id (each soak message is unique: it
# carries its day number): a user message in the log twice, one fact ACTIVE twice, one promise
# pending twice; and a person who lives in two cities at once (a correction not superseding).
DOUBLES = ("user_messages_twice", "facts_twice", "todos_twice", "two_homes_at_once")
_TWICE = """
SELECT
  (SELECT count(*) FROM (SELECT 1 FROM messages WHERE user_id = ANY($1::text[]) AND role = 'user'
                          GROUP BY user_id, chat_id, text HAVING count(*) > 1) t)
      AS user_messages_twice,
  (SELECT count(*) FROM (SELECT 1 FROM relations
                          WHERE user_id = ANY($1::text[]) AND status = 'ACTIVE'
                          GROUP BY user_id, scope, COALESCE(agent_id, ''), subject_id, predicate,
                                   object_id, object_value HAVING count(*) > 1) t)
      AS facts_twice,
  (SELECT count(*) FROM (SELECT 1 FROM todos WHERE user_id = ANY($1::text[])
                          AND status = 'PENDING'
                          GROUP BY user_id, agent_id, kind, text_normalized
                          HAVING count(*) > 1) t)
      AS todos_twice,
  (SELECT count(*) FROM (SELECT 1 FROM relations
                          WHERE user_id = ANY($1::text[]) AND status = 'ACTIVE'
                            AND predicate = 'LIVES_IN'
                          GROUP BY user_id, scope, COALESCE(agent_id, ''), subject_id
                          HAVING count(*) > 1) t)
      AS two_homes_at_once,
  (SELECT count(*) FROM relations WHERE user_id = ANY($1::text[]) AND status = 'ACTIVE')
      AS facts_active,
  (SELECT count(*) FROM todos WHERE user_id = ANY($1::text[])) AS todos
"""


async def check(dsn: str, ledger: Ledger) -> dict[str, Any]:
    users = sorted({user for user, _, _ in ledger.begun})
    conn = await asyncpg.connect(dsn)
    try:
        logged = {
            (r["user_id"], r["chat_id"], r["turn_id"]): r["n"]
            for r in await conn.fetch(
                """SELECT user_id, chat_id, turn_id, count(*) AS n FROM messages
                WHERE user_id = ANY($1::text[]) GROUP BY 1, 2, 3""",
                users,
            )
        }
        twice = dict(await conn.fetchrow(_TWICE, users))
        episodes_twice = await conn.fetchval(
            """SELECT count(*) FROM (SELECT 1 FROM episodes GROUP BY user_id, first_message_seq
                                      HAVING count(*) > 1) t"""
        )
        checkpoint_past_end = await conn.fetchval(
            "SELECT count(*) FROM sessions WHERE checkpoint_message_seq > last_message_seq"
        )
        counts = dict(
            await conn.fetchrow(
                """SELECT (SELECT count(*) FROM messages) AS messages,
                      (SELECT count(*) FROM episodes) AS episodes,
                      (SELECT count(*) FROM relations) AS facts,
                      (SELECT count(*) FROM sessions) AS sessions,
                      (SELECT count(*) FROM sessions WHERE needs_consolidation)
                          AS sessions_unconsolidated,
                      (SELECT count(*) FROM messages WHERE indexed_at IS NULL AND active)
                          AS messages_unindexed,
                      (SELECT count(*) FROM relations WHERE indexed_at IS NULL
                                                        AND status = 'ACTIVE')
                          AS facts_unindexed,
                      (SELECT count(*) FROM episodes WHERE indexed_at IS NULL)
                          AS episodes_unindexed"""
            )
        )
    finally:
        await conn.close()
    acked = Counter(ledger.acked)
    missing = [k for k in acked if logged.get(k, 0) == 0]
    wrong = [k for k in acked if logged.get(k, 0) not in (0, MESSAGES_PER_TURN)]
    sent_twice = [k for k in set(ledger.sent) if logged.get(k, 0) > MESSAGES_PER_TURN]
    unacked_logged = [k for k in set(ledger.sent) - set(acked) if logged.get(k, 0)]
    started = set(ledger.begun)
    persisted = sum(1 for k in started if logged.get(k, 0))
    ok = not (
        missing
        or wrong
        or sent_twice
        or episodes_twice
        or checkpoint_past_end
        or any(twice[k] for k in DOUBLES)
    )
    return {
        "ok": ok,
        "acked_turns": len(acked),
        "sent_turns": len(set(ledger.sent)),
        "acked_missing": len(missing),
        "acked_not_exactly_once": len(wrong),
        "logged_more_than_once": len(sent_twice),
        "unacked_but_logged": len(unacked_logged),  # written, but the answer was lost: fine
        "started_turns": len(started),
        "persisted_turns": persisted,
        **twice,
        "episodes_twice": episodes_twice,
        "checkpoint_past_end": checkpoint_past_end,
        "examples": [list(k) for k in (missing + wrong + sent_twice)[:5]],
        **counts,
    }
