"""One heavy commit never holds the event loop (issue 31 §1): every node of ``twin up`` shares
one loop, so a commit whose offline judge, grounding or embedding runs on it freezes the other
five nodes' ``/healthz`` for as long as it runs.

Measured as a ratio, not a time: a probe task asks to wake every few milliseconds while the
heaviest commit the contracts allow runs; its worst late wake-up must stay a small share of the
commit's own duration (held on the loop, the share is close to 1)."""

from __future__ import annotations

import time

import httpx

from services.core.app import create_app
from services.core.deps import Clients
from services.core.embedder import HashingEmbedder
from services.core.settings import Settings
from services.memory_upserter.app import SPEC
from tests.lag import LagProbe
from tests.memory_upserter.conftest import turn


def heavy_turn(user_id: str) -> dict:
    """Five user messages of 19,800 characters of repetitive, rule-matching text (the break
    test's slowest input for the offline judge), and no plan: the shadow judge reads them."""
    sentence = "I moved from Lisbon to Porto and my sister Marta may have moved too. "
    text = (sentence * (19_800 // len(sentence) + 1))[:19_800]
    body = turn(user_id, text, reply="ok")
    body["messages"] = [{"role": "user", "text": text} for _ in range(5)] + [
        {"role": "assistant", "text": "noted"}
    ]
    return body


async def test_a_heavy_commit_leaves_the_loop_free_for_other_requests(
    client: httpx.AsyncClient, user_id: str
) -> None:
    async with LagProbe() as probe:
        started = time.perf_counter()
        answer = await client.post("/v1/commit", json=heavy_turn(user_id))
        took = time.perf_counter() - started
    assert answer.status_code == 200, answer.text
    assert probe.worst < 0.25 * took, f"loop held {probe.worst:.3f} s of a {took:.3f} s commit"


def heavy_plan_turn(user_id: str) -> dict:
    """A body near the 1 MiB limit: 45 messages of 20,000 characters, and a model's plan at
    every cap (50 facts, each to be grounded in all that text, and the most entities allowed)."""
    words = "Marta my sister lives in Lisbon and works at the hospital as a nurse and she "
    text = (words * (20_000 // len(words) + 1))[:20_000]
    body = turn(user_id, text, reply="ok")
    body["messages"] = [{"role": "user", "text": text} for _ in range(45)]
    body["plan"] = {
        "entities": [{"name": f"Person {i}", "aliases": [f"P{i}"]} for i in range(50)],
        "facts": [
            {
                "memory_type": "PEOPLE",
                "subject": f"Person {i}",
                "predicate": "LIVES_IN",
                "value": f"Lisbon quarter {i}",
                "text": f"Person {i} lives in Lisbon quarter {i}",
            }
            for i in range(50)
        ],
    }
    return body


async def test_a_commit_at_every_cap_leaves_the_loop_free(
    settings: Settings, resources: Clients, app_client, user_id: str
) -> None:
    """With the hashing embedder (pure Python, so it too must leave the loop on long texts;
    MiniLM's hop is the other test's)."""
    hashing = resources.replace(embedder=HashingEmbedder(settings.embedding_dim))
    async with app_client(create_app(SPEC, settings, hashing)) as client, LagProbe() as probe:
        started = time.perf_counter()
        answer = await client.post("/v1/commit", json=heavy_plan_turn(user_id))
        took = time.perf_counter() - started
    assert answer.status_code == 200, answer.text
    assert probe.worst < 0.25 * took, f"loop held {probe.worst:.3f} s of a {took:.3f} s commit"
