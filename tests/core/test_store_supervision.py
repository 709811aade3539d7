"""``twin up`` looks after its embedded stores (issue 31 item 4): after ``kill -9`` of the
embedded Postgres or Redis alone, the server is started again and ``/readyz`` answers 200 with
no one restarting ``twin``. The real command in a subprocess, with nothing configured.
"""

from __future__ import annotations

import os
import random
import signal

import httpx

from tests.core.test_embedded import TwinUp, _gone, _wait_for, workdir  # noqa: F401
from tests.reliability.helpers import PLAN, commit_body, hydrate_body


def port_offset() -> int | None:
    """``TWIN_TEST_PORT_OFFSET`` when set (a shared machine's port block), else random."""
    raw = os.environ.get("TWIN_TEST_PORT_OFFSET")
    return int(raw) + random.randrange(0, 500, 10) if raw else None


def _ready(up: TwinUp) -> bool:
    try:
        return httpx.get(up.url("memory-upserter", "/readyz"), timeout=2).status_code == 200
    except httpx.TransportError:
        return False


def _replaced(up: TwinUp, index: int, old: int) -> bool:
    try:
        return up.server_pids()[index] not in (old, 0)
    except (OSError, ValueError, IndexError):
        return False


def test_a_killed_embedded_store_is_restarted_and_readiness_recovers(workdir, user_id) -> None:  # noqa: F811
    up = TwinUp(workdir, offset=port_offset())
    try:
        assert up.ready()["status"] == "ready"
        for index, store in enumerate(("postgres", "redis")):
            old = up.server_pids()[index]
            os.kill(old, signal.SIGKILL)
            _wait_for(lambda old=old: _gone(old), f"the {store} server's death")
            _wait_for(
                lambda index=index, old=old: _replaced(up, index, old),
                f"a new {store} server",
                limit_s=90,
            )
            _wait_for(lambda: _ready(up), f"/readyz 200 after kill -9 of {store}", limit_s=90)
        body = commit_body(user_id, plan=PLAN)
        committed = httpx.post(up.url("memory-upserter", "/v1/commit"), timeout=30, json=body)
        assert committed.status_code == 200, committed.text
        hydrated = httpx.post(
            up.url("graph-hydrator", "/v1/hydrate"), timeout=30, json=hydrate_body(user_id)
        )
        assert hydrated.status_code == 200 and "Marta" in hydrated.text, hydrated.text
        postgres, redis = up.server_pids()
    finally:
        output = up.stop(signal.SIGINT)
    assert output.count('"embedded_store_restarted"') == 2, output
    assert _gone(postgres) and _gone(redis), output
