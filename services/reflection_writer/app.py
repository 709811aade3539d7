"""HTTP surface of reflection-writer: ``POST /v1/consolidate`` (the slow brain, on a schedule)
and ``GET /v1/day-log`` (the day log view).

Consolidation is safe to call from several schedulers at once and to retry: each session is
consolidated under a lease, each range is one episode (found again by a retry), and the
checkpoint moves only with the episode's transaction (see ``consolidate``).
"""

from __future__ import annotations

from typing import Annotated

from litestar import get, post
from litestar.di import Provide
from litestar.params import JSONBody, Parameter

from contracts.reflection import (
    ConsolidateRequest,
    ConsolidateResponse,
    DayLogRequest,
    DayLogResponse,
)
from services.core.app import NodeSpec
from services.core.deps import Database, Inject
from services.core.embedder import Embedder
from services.core.llm import LLM
from services.core.logs import bind_ids
from services.core.settings import Settings
from services.core.validation import convert
from services.core.vectors import VectorIndex
from services.reflection_writer.brain import SlowBrain
from services.reflection_writer.consolidate import consolidate
from services.reflection_writer.daylog import day_log
from services.reflection_writer.drafting import drafter_for


def provide_slow_brain(
    db: Inject[Database],
    vectors: Inject[VectorIndex],
    embedder: Inject[Embedder],
    llm: Inject[LLM | None],
    settings: Inject[Settings],
) -> SlowBrain:
    return SlowBrain(
        db=db,
        vectors=vectors,
        embedder=embedder,
        drafter=drafter_for(llm, settings.llm_timeout_s),
        lease_s=settings.consolidation_lease_s,
    )


@post(
    "/v1/consolidate",
    status_code=200,
    tags=["reflection-writer"],
    summary="Consolidate quiet, flagged or full sessions into grounded episodes",
    description=(
        "The slow brain (run it from a Schedule trigger, e.g. every 5 minutes, with `{}`). "
        "Finds sessions with turns after their checkpoint that are quiet for "
        "`inactivity_minutes`, flagged, or hold `batch_size` unconsolidated messages — or takes "
        "one `session_id` — and for each writes one episode: a grounded reflection "
        "(Observation / Action / Evidence citing user messages / Unresolved / labelled "
        "Hypothesis; ungrounded Evidence is dropped and counted), the session summary, psyche "
        "facts (low confidence), links to the session's todos and to the previous episode, and "
        "its vector; then advances the checkpoint. Afterwards, per user: a new summary-spine "
        "version every 20+ messages and the curator when due. Sessions that could not be done "
        "now are listed in `skipped` with a reason; retrying is always safe."
    ),
)
async def consolidate_route(
    data: JSONBody[ConsolidateRequest], brain: Inject[SlowBrain]
) -> ConsolidateResponse:
    bind_ids(user_id=data.user_id, agent_id=data.agent_id)
    answer = await consolidate(brain, data)  # an unknown session: NotFound, a 404
    bind_ids(
        user_id=data.user_id,
        agent_id=data.agent_id,
        episodes=answer.totals.sessions,
        skipped=answer.totals.skipped,
    )
    return answer


@get(
    "/v1/day-log",
    tags=["reflection-writer"],
    summary="One day's episodes of a user, in order, with summaries and reflections",
    description=(
        "The day log is a view over episodes (Episode = Session), not a second summary. The "
        "day is read in the user's time zone unless `tz` names another. Pages with "
        "`{items, next_cursor}`: pass `next_cursor` back as `cursor` for the next page."
    ),
)
async def day_log_route(
    db: Inject[Database],
    user_id: Annotated[str, Parameter(description="The person's id.")],
    day: Annotated[str, Parameter(description="The date, YYYY-MM-DD.")],
    agent_id: Annotated[str | None, Parameter(description="Only this agent's episodes.")] = None,
    tz: Annotated[str | None, Parameter(description="IANA zone; default the user's.")] = None,
    limit: Annotated[int, Parameter(ge=1, le=200, description="Page size.")] = 50,
    cursor: Annotated[str | None, Parameter(description="`next_cursor` of a page.")] = None,
) -> DayLogResponse:
    request = convert(
        {
            "user_id": user_id,
            "day": day,
            "agent_id": agent_id,
            "tz": tz,
            "limit": limit,
            "cursor": cursor,
        },
        DayLogRequest,
    )
    bind_ids(user_id=request.user_id, agent_id=request.agent_id)
    async with db.acquire() as conn:
        return await day_log(conn, request)


SPEC = NodeSpec(
    name="reflection-writer",
    summary="Consolidates quiet sessions into grounded episodes, summaries, the spine and "
    "curated facts.",
    route_handlers=[consolidate_route, day_log_route],
    dependencies={"brain": Provide(provide_slow_brain, sync_to_thread=False)},
    # No Redis: the lock is a lease on the session row, the log is the source, and the spine
    # reaches the fast brain through graph-hydrator, so a Redis outage never stops
    # consolidation.
)
