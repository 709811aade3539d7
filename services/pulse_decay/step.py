"""pulse-decay's step (load → decay → save), for its route and for the one-call turn.

Per call: 1 Redis read (``MGET`` of session + affect) and 1 Redis write (one script setting
both with their TTLs), no other I/O. When Redis cannot be reached (down, or slower than its
timeout) the turn still gets an answer: a neutral AFFECT and an empty session, flagged
``degraded`` and saved nowhere — affect is volatile by design, and a flow must not fail on it.
Two turns of the same chat racing each other do not overwrite each other: the write is a
compare-and-set, and the loser reloads and recomputes (up to :data:`MAX_ATTEMPTS` times), so
``msg_count`` counts every message and turns appended by memory-upserter in between are kept.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import redis.exceptions
import structlog

from contracts.pulse import PulseRequest, PulseResponse
from contracts.slots import AffectSlot, SessionState
from services.core.errors import Contention, DependencyUnavailable
from services.core.settings import Settings
from services.core.working_memory import ConcurrentUpdate, Snapshot, WorkingMemory
from services.pulse_decay.logic import Outcome, apply_turn, stored_reply

MAX_ATTEMPTS = 8  # each conflict means another turn of this chat was saved: progress


async def count_turn(
    memory: WorkingMemory, settings: Settings, data: PulseRequest, now: datetime
) -> PulseResponse:
    """Count the message and decay the affect of ``data``'s chat; the state as saved."""
    window = timedelta(seconds=settings.affect_ttl_s)

    def compute(seen: Snapshot) -> tuple[SessionState | None, AffectSlot | None, Outcome]:
        outcome = apply_turn(data, seen.session, seen.affect, now=now, decay_window=window)
        if outcome.applied == ("replayed",):
            return None, None, outcome  # already saved: nothing to write
        return outcome.session, outcome.affect, outcome

    try:
        outcome = await memory.update(
            data.user_id, data.agent_id, data.chat_id, compute, attempts=MAX_ATTEMPTS
        )
    except ConcurrentUpdate:
        raise Contention(
            f"this chat changed {MAX_ATTEMPTS} times while the turn was computed; retry"
        ) from None
    except (DependencyUnavailable, redis.exceptions.RedisError, OSError) as exc:
        structlog.get_logger().warning("pulse_degraded", error=type(exc).__name__)
        fresh = apply_turn(data, None, None, now=now, decay_window=window)
        return PulseResponse(
            session=fresh.session, AFFECT=fresh.affect, applied=list(fresh.applied), degraded=True
        )
    replay = stored_reply(data, outcome.session) if outcome.applied == ("replayed",) else None
    return PulseResponse(
        session=outcome.session,
        AFFECT=outcome.affect,
        applied=list(outcome.applied),
        replay_reply=replay,
    )
