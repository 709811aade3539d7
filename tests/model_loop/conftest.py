"""The six nodes in-process over the run's stores, and each recorded conversation replayed once
per style (cached for the whole run: every test, in every module, reads the same replay)."""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from bench.model_loop import checks
from bench.model_loop.replay import STYLES, Replay, conversations, replay, styles_of
from services.core.deps import Clients
from tests.chain.conversation import six_nodes

RECORDED = {conv["id"]: conv for conv in conversations()}
# the conversations recorded in the first styles (test_replay.py); the ones recorded with
# handles in the prompt and the later sets (test_replay_sets.py) are in RECORDED too
CONVERSATIONS = {k: c for k, c in RECORDED.items() if set(STYLES) <= set(styles_of(c))}


class Replayed:
    """A conversation replayed in one style: the counts, what memory holds, ``next`` per turn."""

    def __init__(self, run: Replay, tables: dict[str, list], end: datetime) -> None:
        self.run, self.tables, self.end = run, tables, end
        self.nexts = {t.index: t.next for t in run.turns}


@pytest.fixture(scope="module")
async def nodes(resources: Clients, app_client) -> AsyncIterator[dict[str, httpx.AsyncClient]]:
    async with six_nodes(resources, app_client) as clients:
        yield clients


@pytest.fixture(scope="session")
def replays() -> dict[tuple[str, str], Replayed]:
    """Each (conversation, style) replayed so far in this run (a module's nodes replay it, every
    module reads it)."""
    return {}


@pytest.fixture(scope="module")
def replayed(nodes, replays: dict[tuple[str, str], Replayed]) -> Any:
    cache = replays

    async def get(conv_id: str, style: str) -> Replayed:
        if (conv_id, style) not in cache:
            conv = RECORDED[conv_id]
            run = await replay(nodes["retrieve"], nodes["memory"], conv, style)
            tables = await checks.export(nodes["memory"], run.user_id)
            cache[conv_id, style] = Replayed(
                run, tables, datetime.fromisoformat(conv["turns"][-1]["at"])
            )
            _keep(run)
        return cache[conv_id, style]

    return get


def _keep(run: Replay) -> None:
    """With ``TWIN_MODEL_LOOP_OUT`` set (``bench.model_loop.figures`` sets it), the replay's
    counts as JSON in that folder, for the figures to be read from the test's own run."""
    folder = os.environ.get("TWIN_MODEL_LOOP_OUT")
    if folder:
        path = Path(folder) / f"{run.conversation}-{run.style}.json"
        path.write_text(json.dumps(dataclasses.asdict(run), indent=1))
