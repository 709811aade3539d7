"""An imported person is recalled at once, episodes included: an export, a hard forget and an
import through HTTP, then ``/v1/turn`` hands the model the episode; ``/v1/reindex`` writes an
episode whose vector is missing (every collection is swept, episodes included)."""

from __future__ import annotations

from datetime import timedelta

from services.core.deps import Clients
from tests.chain.conversation import T0, ok
from tests.chain.test_forget import AGENT, LATER, forget, say, turn, user


async def _episode_recalled(nodes, resources: Clients, user_id: str) -> bool:
    """The episode's vector answers a search, and ``/v1/turn`` hands it to the model."""
    await resources.background.drain()
    found = await resources.vectors.search(
        "episodes", user_id=user_id, agent_id=AGENT, text="pottery class", limit=5
    )
    answer = await turn(nodes, user_id, AGENT, "Remember the pottery class?", LATER)
    episodes = repr(answer["retrieve"]["EPISODE"]).lower()
    return bool(found) and "pottery" in episodes


async def _consolidated(nodes, user_id: str) -> None:
    for n, text in enumerate(["I went to a pottery class today.", "The pottery class was fun."]):
        await say(nodes, user_id, "clay", text, T0 + timedelta(minutes=n))
    done = await ok(
        nodes["reflect"],
        "/v1/consolidate",
        {"user_id": user_id, "now": (T0 + timedelta(hours=3)).isoformat()},
    )
    assert done["totals"]["episodes_created"] == 1


async def test_an_import_after_a_hard_forget_recalls_the_episodes_at_once(
    nodes, resources: Clients
) -> None:
    user_id = user()
    await _consolidated(nodes, user_id)
    assert await _episode_recalled(nodes, resources, user_id)
    exported = await nodes["memory"].get("/v1/export", params={"user_id": user_id})
    assert exported.status_code == 200 and exported.json()["tables"]["episodes"]
    await forget(nodes, user_id=user_id, scope="global", everything=True, hard=True)
    assert not await _episode_recalled(nodes, resources, user_id)
    await ok(nodes["memory"], "/v1/import", exported.json())
    assert await _episode_recalled(nodes, resources, user_id)


async def test_reindex_writes_an_episode_whose_vector_is_missing(nodes, resources: Clients) -> None:
    user_id = user()
    await _consolidated(nodes, user_id)
    async with resources.db.acquire() as conn:
        (episode,) = await conn.fetch(
            "UPDATE episodes SET indexed_at = NULL WHERE user_id = $1 RETURNING episode_id::text",
            user_id,
        )
    await resources.vectors.delete("episodes", user_id=user_id, ids=[episode["episode_id"]])
    assert not await _episode_recalled(nodes, resources, user_id)
    swept = await ok(nodes["memory"], "/v1/reindex", {"user_id": user_id})
    assert swept["episodes_indexed"] == 1 and not swept["remaining"]
    assert await _episode_recalled(nodes, resources, user_id)
