"""Issue #18's measure of memory-upserter's layout: a reader who follows a real ``commit_turn``
(a plan with two entities, two facts, a todo, and the person saying a pending one is done)
through the package and its concept folders, reading each function once, stays in at most so
many places (a stay: the stretch in one file before the walk moves to another) and turns back
to a file already left at most so many times (issue #26's goal is 8; the bounds below are what
the layout measures now, so the walk cannot grow unnoticed).

``uv run pytest -q -s -p no:cacheprovider tests/memory_upserter/commit/test_walk.py`` prints
each walk and its count.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import msgspec
import pytest

import services.memory_upserter
from contracts.memory import CommitRequest, CommitResponse
from services.core.deps import Clients
from services.core.settings import Settings
from services.memory_upserter.commit.write import commit_turn
from services.memory_upserter.stores import MemoryStores
from tests.memory_upserter.commit.walk import trace
from tests.memory_upserter.conftest import T0, fact, turn

PACKAGE = Path(services.memory_upserter.__file__).parent
PLAN = {
    "entities": [
        {"name": "Marta", "category": "Person"},
        {"name": "Lisbon", "category": "Location"},
    ],
    "facts": [
        fact("HAS_SISTER", "Marta is the user's sister", obj="Marta", memory_type="PEOPLE"),
        fact(
            "LIVES_IN", "Marta lives in Lisbon", subject="Marta", obj="Lisbon", memory_type="PEOPLE"
        ),
    ],
    "todos": [{"kind": "COMMITMENT", "text": "Call Marta", "due": "tomorrow"}],
}
SAID = "Done, I sent the report to my sister Marta, who lives in Lisbon. I'll call Marta tomorrow."


MAX_STAYS, MAX_RETURNS = 71, 51  # main before issue 26's steps, subfolders followed: 69, 50


@pytest.mark.parametrize(
    "index_after_reply",
    [
        False,  # the vectors written before the answer, inside after_commit's turn_index
        True,  # the product's default: they follow the reply, in a background task
    ],
)
async def test_a_commit_turn_walk_stays_in_few_places(
    settings: Settings,
    resources: Clients,
    user_id: str,
    index_after_reply: bool,
) -> None:
    stores = MemoryStores(resources.db, resources.vectors, resources.embedder, resources.memory)
    settings = msgspec.structs.replace(settings, index_after_reply=index_after_reply)

    async def commit(body: dict) -> tuple[CommitResponse, bool]:
        req = msgspec.convert(body, CommitRequest, strict=False)
        return await commit_turn(
            stores, None, settings, resources.background, req, request_id="walk"
        )

    pending = {"todos": [{"kind": "COMMITMENT", "text": "Send the report to Marta"}]}
    await commit(turn(user_id, "I will send the report to Marta", plan=pending))
    (answer, replayed), walk = await trace(
        PACKAGE, lambda: commit(turn(user_id, SAID, plan=PLAN, at=T0 + timedelta(minutes=1)))
    )
    await resources.background.drain()
    print(
        f"\nindex_after_reply={index_after_reply}: {len(walk.stays)} stays in "
        f"{len(walk.files)} files, {len(walk.returns)} returns: {walk.render()}"
    )
    assert not replayed and answer.warnings == []
    assert [f.outcome for f in answer.facts] == ["created", "created"]
    assert [c.text for c in answer.completions] == ["Send the report to Marta"]
    assert [t.text for t in answer.todos] == ["Call Marta"]
    assert len(walk.stays) <= MAX_STAYS, walk.render()
    assert len(walk.returns) <= MAX_RETURNS, walk.render()
