"""A correction a turn later succeeds what was just said, whatever its predicate (issue 27,
found by the blind v4 set: a coach's "3 runs mon wed sat" then "wait no, … make it tue" left
both current). The correction has to name what it takes back."""

from __future__ import annotations

import httpx

from services.core.deps import Clients
from services.memory_upserter.commit.corrected import takes_back
from tests.memory_upserter.conftest import commit, fact, later, rows, turn


async def _current(resources: Clients, user_id: str, predicate: str) -> list[str]:
    found = await rows(
        resources,
        "SELECT text FROM relations WHERE user_id = $1 AND predicate = $2 AND status = 'ACTIVE' "
        "AND (valid_to IS NULL OR valid_to > $3) ORDER BY text",
        user_id,
        predicate,
        later(10),
    )
    return [r["text"] for r in found]


async def test_a_correction_that_names_the_old_value_succeeds_it(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    first = {"facts": [fact("swim_days", "User swims on tuesdays and fridays", value="tue fri")]}
    await commit(client, turn(user_id, "i swim tue and fri", plan=first, at=later(-3)))
    second = {"facts": [fact("swim_days", "User swims on tuesdays and sundays", value="tue sun")]}
    await commit(client, turn(user_id, "oops not friday, sunday", plan=second, at=later(-1)))
    assert await _current(resources, user_id, "SWIM_DAYS") == ["User swims on tuesdays and sundays"]


async def test_a_turn_that_takes_nothing_back_keeps_both(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    first = {"facts": [fact("likes", "User likes green tea", value="green tea")]}
    await commit(client, turn(user_id, "i love green tea", plan=first, at=later(-3)))
    second = {"facts": [fact("likes", "User likes oolong", value="oolong")]}
    await commit(client, turn(user_id, "actually oolong is great too", plan=second, at=later(-1)))
    assert await _current(resources, user_id, "LIKES") == [
        "User likes green tea",
        "User likes oolong",
    ]


def test_what_a_correction_takes_back_is_what_only_the_old_fact_says() -> None:
    message = "no wait not 4x, make it 3x"
    assert takes_back("User lifts 4x a week", "User lifts 3x a week", message)
    assert not takes_back("User lifts 4x a week", "User lifts 3x a week", "sorry, 3x")
    assert takes_back("User runs mon, wed, sat", "User runs mon, tue, sat", "wednesdays dont work")
