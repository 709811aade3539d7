"""Issue 31 item 6: turns acknowledged while the vector index could not take them (a crash of the
after-reply queue leaves the same rows: ``indexed_at IS NULL``) become searchable by themselves.
memory-upserter sweeps at start and every ``TWIN_INDEX_SWEEP_S``; nobody calls
``/v1/reindex``. Real Postgres, a real Qdrant Edge shard held by another index (as another
process would hold it), the product's after-reply indexing.

Nothing here waits a fixed time or asserts on the clock (it flaked on a loaded machine): the
tests wait for what the sweep did (a tick counted, an event logged, a row stamped), with
generous deadlines that only bound a hang."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import msgspec
import pytest
from structlog.testing import capture_logs

from services.core.app import create_app
from services.core.deps import STORES, Clients
from services.core.settings import Settings
from services.core.vectors import EdgeVectorIndex
from services.memory_upserter.person import sweep
from services.nodes import node_spec
from tests.reliability.helpers import PLAN, commit_body, retrieve_body, rows

SWEEP_S = 0.2
PATIENCE_S = 60.0  # bounds a hang only: every wait returns as soon as its check holds
_UNINDEXED = """
SELECT (SELECT count(*) FROM messages WHERE user_id = $1 AND indexed_at IS NULL)
     + (SELECT count(*) FROM relations WHERE user_id = $1 AND indexed_at IS NULL) AS n
"""


@pytest.fixture
async def taken(
    throwaway_settings: Settings, tmp_path
) -> AsyncIterator[tuple[Clients, EdgeVectorIndex]]:
    """Clients whose Edge folder another index holds, sweeping every :data:`SWEEP_S`."""
    owner = EdgeVectorIndex(tmp_path / "qdrant", dim=throwaway_settings.embedding_dim)
    await owner.ensure_collections()
    settings = msgspec.structs.replace(
        throwaway_settings,
        qdrant_path=str(tmp_path / "qdrant"),
        index_after_reply=True,
        index_sweep_s=SWEEP_S,
    )
    res = await Clients.open(settings, STORES)
    yield res, owner
    await owner.close()
    await res.close()


async def _unindexed(res: Clients, user_id: str) -> int:
    [row] = await rows(res, _UNINDEXED, user_id)
    return int(row["n"])


async def _commit_unindexed(node, res: Clients, user_id: str) -> None:
    """Two acknowledged turns whose after-reply indexing failed: their rows wait unindexed."""
    quiet = res.replace(settings=msgspec.structs.replace(res.settings, index_sweep_s=0))
    async with node("memory-upserter", quiet) as upserter:
        for text in ("My sister Marta visits. I'll call her tomorrow.", "Marta loves sailing."):
            answer = await upserter.post("/v1/commit", json=commit_body(user_id, text, plan=PLAN))
            assert answer.status_code == 200, answer.text
        await res.background.drain()
    assert await _unindexed(res, user_id) >= 4  # 4 messages and the fact


async def _searchable(node, res: Clients, user_id: str) -> dict:
    async with node("rag-gate", res) as gate:
        found = await gate.post("/v1/retrieve", json=retrieve_body(user_id, "How is Marta?"))
        assert found.status_code == 200, found.text
        return found.json()


async def _until(check: Callable[[], object], seconds: float = PATIENCE_S) -> bool:
    """Poll ``check`` (sync or async) until it is truthy; False after ``seconds``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while loop.time() < deadline:
        result = check()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return True
        await asyncio.sleep(0.05)
    return False


async def _swept_within(res: Clients, user_id: str, seconds: float = PATIENCE_S) -> bool:
    async def done() -> bool:
        return await _unindexed(res, user_id) == 0

    return await _until(done, seconds)


def _events(logs: list[dict], event: str) -> list[dict]:
    return [e for e in logs if e["event"] == event]


def _count_ticks(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """Each finished sweep tick's result, in order (``sweep_every`` calls the module's
    ``sweep_backlog`` by name, so the wrapper sees every tick)."""
    ticks: list[int | None] = []
    real = sweep.sweep_backlog

    async def counted(clients: Clients) -> int | None:
        result = await real(clients)
        ticks.append(result)
        return result

    monkeypatch.setattr(sweep, "sweep_backlog", counted)
    return ticks


async def test_a_node_start_indexes_what_an_index_outage_left_unindexed(
    node, taken: tuple[Clients, EdgeVectorIndex], user_id: str
) -> None:
    res, owner = taken
    await _commit_unindexed(node, res, user_id)
    before = await _searchable(node, res, user_id)
    await owner.close()  # the index is back; the after-reply queue that owed the rows is gone

    async with node("memory-upserter", res):
        assert await _swept_within(res, user_id)
    assert before["FACTS"]["relevant_facts"] == []
    after = await _searchable(node, res, user_id)
    assert [f["text"] for f in after["FACTS"]["relevant_facts"]] == ["Marta is the user's sister"]
    assert await res.vectors.count("messages", user_id=user_id) == 4
    assert await res.vectors.count("facts", user_id=user_id) == 1


async def test_the_sweep_waits_out_an_index_outage_and_indexes_on_a_later_tick(
    node, taken: tuple[Clients, EdgeVectorIndex], user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    res, owner = taken
    await _commit_unindexed(node, res, user_id)
    ticks = _count_ticks(monkeypatch)
    with capture_logs() as logs:
        async with node("memory-upserter", res):
            # ticks while the index is down (the start's and a later one): skipped, nothing tried
            assert await _until(lambda: ticks.count(None) >= 2), ticks
            assert _events(logs, "index_sweep_skipped")
            assert await _unindexed(res, user_id) >= 4
            await owner.close()
            assert await _until(lambda: any(ticks)), ticks
            assert await _unindexed(res, user_id) == 0
            swept = len(_events(logs, "index_swept"))
            # later ticks find nothing: idempotent, no writes
            after = len(ticks)
            assert await _until(lambda: len(ticks) >= after + 3), ticks
            assert ticks[after:] == [0] * len(ticks[after:]), ticks
            assert len(_events(logs, "index_swept")) == swept
    assert await res.vectors.count("messages", user_id=user_id) == 4


async def test_a_backlog_is_swept_in_batches_without_holding_the_event_loop(
    node, taken: tuple[Clients, EdgeVectorIndex], user_id: str, monkeypatch
) -> None:
    """40 messages, batches of 8: one tick, five batches, and the event loop ran other tasks
    between every two batches (a probe task that only yields counts its turns; each batch
    records the count it started at). The loop's worst lag is printed, never asserted: on a
    loaded machine it measures the machine, not the sweep."""
    res, owner = taken
    monkeypatch.setattr(sweep, "SWEEP_BATCH", 8)  # 40 messages: five batches
    quiet = res.replace(settings=msgspec.structs.replace(res.settings, index_sweep_s=0))
    async with node("memory-upserter", quiet) as upserter:
        for i in range(20):
            body = commit_body(user_id, f"Turn {i}: Marta sails on day {i}.", plan={})
            assert (await upserter.post("/v1/commit", json=body)).status_code == 200
        await res.background.drain()
    await owner.close()
    turns = [0]  # the probe's turns on the loop
    batches: list[tuple[int, int]] = []  # (probe turns when the batch started, rows it swept)
    real_reindex = sweep.reindex

    async def recorded(*args, **kwargs):
        started = turns[0]
        answer = await real_reindex(*args, **kwargs)
        batches.append((started, sweep.swept_rows(answer)))
        return answer

    monkeypatch.setattr(sweep, "reindex", recorded)
    lags: list[float] = []

    async def probe() -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(0)
            turns[0] += 1
            lags.append(loop.time() - start)

    with capture_logs() as logs:
        async with node("memory-upserter", res):
            ticker = asyncio.create_task(probe())
            try:
                assert await _swept_within(res, user_id)
                assert await _until(lambda: _events(logs, "index_swept"))
            finally:
                ticker.cancel()
    assert await res.vectors.count("messages", user_id=user_id) == 40
    # one tick, five batches: the loop kept going while a backlog remained
    assert [e["rows"] for e in _events(logs, "index_swept")] == [40]
    swept = [rows for _, rows in batches if rows]
    assert swept == [8] * 5, batches
    started = [turn for turn, rows in batches if rows]
    assert all(b > a for a, b in zip(started, started[1:], strict=False)), batches
    print(f"sweep of 40 messages: max loop lag {max(lags) * 1000:.1f} ms over {len(lags)} probes")


async def test_a_node_that_opens_its_own_clients_sweeps_too(
    app_client, taken: tuple[Clients, EdgeVectorIndex], node, user_id: str
) -> None:
    """As ``twin up`` and ``twin serve`` build a node: the app opens its clients in its
    lifespan, and the sweep starts only once they are open (and stops before they close)."""
    res, owner = taken
    await _commit_unindexed(node, res, user_id)
    await owner.close()
    async with app_client(create_app(node_spec("memory-upserter"), res.settings)) as upserter:
        assert (await upserter.get("/readyz")).status_code == 200
        assert await _swept_within(res, user_id)
