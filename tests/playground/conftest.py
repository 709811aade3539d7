"""The five nodes of the chain in this process, on the run's real stores, each reachable at
``http://<node>`` (any port) through one httpx client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack

import httpx
import pytest

from services.core.app import create_app
from services.core.deps import Clients
from services.core.settings import Settings
from services.nodes import node_spec
from services.playground.turn import ROUTES


@pytest.fixture
async def nodes(
    settings: Settings, resources: Clients, app_client
) -> AsyncIterator[httpx.AsyncClient]:
    """One client whose requests to http://<node> reach that node's app."""
    async with AsyncExitStack() as stack:
        mounts = {}
        for node in ROUTES:
            app = create_app(node_spec(node), settings, resources)
            await stack.enter_async_context(app_client(app))  # runs the app's lifespan
            mounts[f"http://{node}"] = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(mounts=mounts) as client:
            yield client
