"""The six nodes over the run's shared clients, and Alice, who told deanna about herself."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import timedelta

import httpx
import pytest

from services.core.deps import Clients
from tests.chain.conversation import DEANNAS_OWN, T0, TOLD, six_nodes, tell


@pytest.fixture(scope="module")
async def nodes(resources: Clients, app_client) -> AsyncIterator[dict[str, httpx.AsyncClient]]:
    async with six_nodes(resources, app_client) as clients:
        yield clients


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
