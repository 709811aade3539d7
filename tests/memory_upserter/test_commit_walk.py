"""Issue #18's measure of memory-upserter's layout: a reader who follows a real ``commit_turn``
(a plan with two entities, two facts, a todo, and the person saying a pending one is done)
through the package, reading each function once, stays in at most :data:`MAX_STAYS` places
(a stay: the stretch in one file before the walk moves to another; issue #18's goal is 15).

``uv run pytest -q -s -p no:cacheprovider tests/memory_upserter/test_commit_walk.py`` prints
the walk and its count.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import msgspec

import services.memory_upserter
from contracts.memory import CommitRequest
from services.core.deps import Clients
from services.core.settings import Settings
from services.memory_upserter.commit import commit_turn
from services.memory_upserter.stores import MemoryStores
from tests.memory_upserter.conftest import T0, fact, turn
from tests.memory_upserter.walk import trace

MAX_STAYS = 19
PACKAGE = Path(services.memory_upserter.__file__).parent


async def test_a_commit_turn_walk_stays_in_few_places(
    settings: Settings, resources: Clients, user_id: str
) -> None:
    stores = MemoryStores(resources.db, resources.vectors, resources.embedder, resources.memory)

    async def commit(body: dict) -> tuple[object, bool]:
        req = msgspec.convert(body, CommitRequest, strict=False)
        return await commit_turn(
            stores, None, settings, resources.background, req, request_id="walk"
        )

    pending = {"todos": [{"kind": "COMMITMENT", "text": "Send the report to Marta"}]}
    await commit(turn(user_id, "I will send the report to Marta", plan=pending))
    plan = {
        "entities": [
            {"name": "Marta", "category": "Person"},
            {"name": "Lisbon", "category": "Location"},
        ],
        "facts": [
            fact("HAS_SISTER", "Marta is the user's sister", obj="Marta", memory_type="PEOPLE"),
            fact(
                "LIVES_IN",
                "Marta lives in Lisbon",
                subject="Marta",
                obj="Lisbon",
                memory_type="PEOPLE",
            ),
        ],
        "todos": [{"kind": "COMMITMENT", "text": "Call Marta", "due": "tomorrow"}],
    }
    said = (
        "Done, I sent the report to my sister Marta, who lives in Lisbon. I'll call Marta tomorrow."
    )
    (answer, replayed), walk = await trace(
        PACKAGE, lambda: commit(turn(user_id, said, plan=plan, at=T0 + timedelta(minutes=1)))
    )
    assert not replayed
    print(f"\n{len(walk.stays)} stays: {walk.render()}")
    assert [f.outcome for f in answer.facts] == ["created", "created"]  # type: ignore[attr-defined]
    assert len(answer.completions) == 1 and len(answer.todos) == 1  # type: ignore[attr-defined]
    assert len(walk.stays) <= MAX_STAYS, walk.render()
