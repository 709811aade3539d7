"""The turn's facts, written in the transaction once its entities exist (:mod:`.sql`'s order):
the stored facts the plan replaces and ends (:mod:`.supersede`), the todos the turn closes
(:mod:`.todos`), then the plan's facts as writes (:mod:`.fact_writes`) through the memory store."""

from __future__ import annotations

from dataclasses import dataclass

from services.core.deps import Connection
from services.core.memory_store import apply_facts
from services.core.memory_store.fact_ops import FactResult, FactWrite
from services.memory_upserter.commit.corrected import corrected
from services.memory_upserter.commit.entities import Named
from services.memory_upserter.commit.fact_writes import fact_writes
from services.memory_upserter.commit.supersede import Superseding, supersede
from services.memory_upserter.commit.todos import TodosClosed, close_todos
from services.memory_upserter.commit.turn import TurnPlan


@dataclass(frozen=True)
class Facts:
    """What the fact step replaced, closed and wrote."""

    superseding: Superseding
    todos: TodosClosed
    writes: list[FactWrite]
    results: list[FactResult]  # one per write


async def write_facts(conn: Connection, plan: TurnPlan, named: Named) -> Facts:
    """The plan's facts with what they replace and end, and the todos the turn closes (named
    by the plan, or the one a bare "done" means)."""
    superseding = await supersede(conn, plan)  # the handles the plan replaces and ends
    todos = await close_todos(conn, plan)
    writes = fact_writes(plan, named.entities, named.self_id, superseding.replaces)
    writes = await corrected(conn, plan, writes)  # "wait no, make it 3x": the 4x ends
    user_id, now = plan.turn.req.user_id, plan.turn.now
    results = await apply_facts(conn, user_id, writes, now=now, lock=False)
    return Facts(superseding, todos, writes, results)
