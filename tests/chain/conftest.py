"""The six nodes over the run's shared clients, and Alice, who told deanna about herself."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from datetime import timedelta

import httpx
import pytest

from services.core.app import create_app
from services.core.deps import Clients
from services.core.settings import Settings
from services.nodes import NODE_NAMES, node_spec
from tests.chain.conversation import DEANNAS_OWN, ROUTES, T0, TOLD, tell


@pytest.fixture(scope="module")
async def nodes(
    settings: Settings, resources: Clients, app_client
) -> AsyncIterator[dict[str, httpx.AsyncClient]]:
    async with AsyncExitStack() as stack:
        yield {
            ROUTES[node]: await stack.enter_async_context(
                app_client(create_app(node_spec(node), settings, resources))
            )
            for node in NODE_NAMES
        }


@pytest.fixture(scope="module")
async def alice(nodes) -> str:
    """Alice's three facts, told to deanna in chat 1, and one deanna keeps for herself (its
    value is in her words: a plan fact that is not is dropped as ungrounded)."""
    user_id = f"alice-{uuid.uuid4().hex[:8]}"
    for n, text in enumerate(TOLD):
        await tell(nodes, user_id, "deanna", "chat-1", text, T0 + timedelta(minutes=n))
    await tell(
        nodes,
        user_id,
        "deanna",
        "chat-1",
        "I'm on your couch-to-5k plan.",
        T0 + timedelta(minutes=5),
        plan={
            "facts": [
                {
                    "memory_type": "PROFILE",
                    "subject": "user",
                    "predicate": "TRAINING_PLAN",
                    "value": "couch-to-5k plan",
                    "scope": "agent",
                    "importance": 3,
                    "text": DEANNAS_OWN,
                }
            ]
        },
    )
    return user_id
