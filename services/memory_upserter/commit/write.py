"""``POST /v1/commit``: one turn, written once however often n8n retries it.

1. Read the request (:func:`~.read.read_turn`: the person's time zone, then pure): the turn's
   time, its plan, its message rows, its idempotency key and a hash of the body.
2. Outside any transaction, one read (:mod:`.judge_store`): a stored answer, the session's
   recent user messages, which ground a model's plan (with none, the shadow judge makes one),
   and the user's entities the plan's names may mean; then the open which-question the
   message answers (:func:`~.answer.answered_in`), if any.
3. Decide (pure, :mod:`.plan`): the plan as writes, with notices of what was left out.
4. One transaction under the user's lock (:func:`~.transaction.write`, named steps each in its
   concept's module; its statements, and why they run in that order: :mod:`.sql`), retried on
   a deadlock: a stored answer for the key
   is replayed (a different body is a 409), else the messages, session, entities, facts,
   completion, todos and the answer are written together.
5. After the commit (:func:`~.index.after_commit`): the turn's vectors, the clean-up of a
   ``plan.forget`` and the working memory; a failure there is a warning in the answer.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import timedelta

from contracts.memory import CommitRequest, CommitResponse
from services.core.background import Background
from services.core.llm import LLM
from services.core.settings import Settings
from services.memory_upserter.commit.answer import answered_in
from services.memory_upserter.commit.index import after_commit
from services.memory_upserter.commit.judge_store import judge_turn, plan_turn, replay
from services.memory_upserter.commit.plan import prepare
from services.memory_upserter.commit.read import read_turn
from services.memory_upserter.commit.transaction import write
from services.memory_upserter.commit.turn import Stored
from services.memory_upserter.stores import MemoryStores


async def commit_turn(
    stores: MemoryStores,
    llm: LLM | None,
    settings: Settings,
    background: Background,
    req: CommitRequest,
    *,
    request_id: str | None,
) -> tuple[CommitResponse, bool]:
    """The turn's answer, and whether it is a replay of an earlier commit."""
    turn = await read_turn(stores.db, req)
    idle = timedelta(minutes=settings.session_idle_minutes)
    if turn.plan is not None and turn.plan_source is not None:
        found = await plan_turn(stores.db, turn, idle)
    else:
        found = await judge_turn(stores.db, llm, settings, turn, idle)
    if isinstance(found, Stored):
        return replay(found, turn), True
    judged, answered = await answered_in(stores, turn, found)
    # grounding reads every word of the session: off the loop the six nodes share
    decided = replace(await asyncio.to_thread(prepare, turn, judged), answered=answered)
    written = await write(stores.db, decided, idle, request_id)
    if isinstance(written, Stored):
        return replay(written, turn), True
    response = await after_commit(stores, settings, background, turn, written)
    return response, False
