"""Every list of a plan has a cap (issue 31 §1: 10,000 entities in one plan took 26 s). The
commit keeps the first ones and names the rest in a warning; the turn is stored."""

from __future__ import annotations

import httpx

from contracts.plan import MemoryWritePlan, PlanEntity
from services.memory_upserter.commit.lenient import _max_lengths
from tests.memory_upserter.conftest import turn


def test_the_plan_contract_caps_entities_aliases_and_forget() -> None:
    assert _max_lengths(MemoryWritePlan)["entities"] == 50
    assert _max_lengths(MemoryWritePlan)["forget"] == 20
    assert _max_lengths(PlanEntity)["aliases"] == 20


async def test_a_plan_over_its_caps_is_cut_to_them_with_a_warning(
    client: httpx.AsyncClient, user_id: str
) -> None:
    plan = {
        "entities": [
            {"name": f"Friend {i}", "aliases": [f"F{i}-{a}" for a in range(30 if i == 0 else 1)]}
            for i in range(10_000)
        ],
        "forget": [f"thing {i}" for i in range(100)],
    }
    answer = await client.post("/v1/commit", json=turn(user_id, "hello", plan=plan))
    assert answer.status_code == 200, answer.text
    dropped = [w["detail"] for w in answer.json()["warnings"] if w["code"] == "plan_part_dropped"]
    assert any(d.startswith("$.plan.entities") and "first 50" in d for d in dropped), dropped
    assert any(d.startswith("$.plan.forget") and "first 20" in d for d in dropped), dropped
    assert any(".aliases" in d and "first 20" in d for d in dropped), dropped
