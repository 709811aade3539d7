"""A soak turn as the shipped flow runs it (n8n-workflows, issue 30), with a plan whose facts
the person's words support, so the fact write path is soaked too (issue 31 item 7).

- the person's message states what the plan writes (where a person lives, a liking, a promise
  to call), and carries the turn's number ("day N"), so a user message logged twice is seen;
- a memory read that fails after n8n's retries does not drop the turn: the flow replies
  degraded (the persona alone) and still commits;
- a commit that fails after its retries goes to commit-later, which sends the same body again
  every ``COMMIT_LATER_S`` until it is stored or ``COMMIT_LATER_TRIES`` are spent;
- every turn started is counted, so started minus persisted is what the flow lost.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bench.load.samples import (
    Sample,
    envelope_body,
    hydrate_body,
    ids,
    pulse_body,
    retrieve_body,
)
from bench.soak.workload import Ledger, Pools, call

COMMIT_LATER_S = 10.0
COMMIT_LATER_TRIES = 6
TEAS = ("green", "black", "mint", "jasmine")


def grounded(sample: Sample, n: int) -> tuple[Sample, dict[str, Any]]:
    """The turn's message and its commit body: every fact and todo stated by the person."""
    names = sorted(sample.entities)
    person = names[n % len(names)]
    first = person.split()[0]
    city, tea = f"city {n % 7}", TEAS[n % len(TEAS)]
    said = (
        f"Day {n} of the plan. {person} lives in {city} now. I like {tea} tea. "
        f"I will call {first} about the garden shed."
    )
    plan = {
        "entities": [{"name": person, "category": "Person", "aliases": [first]}],
        "facts": [
            {
                "memory_type": "PEOPLE",
                "subject": person,
                "predicate": "LIVES_IN",
                "value": city,
                "text": f"{person} lives in {city}",
            },
            {
                "memory_type": "PROFILE",
                "subject": "user",
                "predicate": "LIKES",
                "value": f"{tea} tea",
                "text": f"I like {tea} tea",
            },
        ],
        "todos": [
            {
                "kind": "COMMITMENT",
                "text": f"call {first} about the garden shed",
                "source_snippet": f"I will call {first} about the garden shed.",
            }
        ],
    }
    return Sample(sample.user_id, sample.chat_id, said, sample.entities), plan


async def turn(pools: Pools, ledger: Ledger, sample: Sample, turn_id: str, n: int) -> None:
    t0 = time.perf_counter()
    sample, plan = grounded(sample, n)
    key = (sample.user_id, sample.chat_id, turn_id)
    ledger.begun.append(key)
    if not await _reads(pools, ledger, sample):
        ledger.degraded += 1  # the persona alone answers; the turn is still committed
    body = {
        **ids(sample),
        "turn_id": turn_id,
        "plan": plan,
        "messages": [
            {"role": "user", "text": sample.message},
            {"role": "assistant", "text": "Noted. How did it go?"},
        ],
    }
    ledger.sent.append(key)
    committed = await call(pools, ledger, "commit", body)
    if committed is None:
        ledger.dropped["commit"] += 1
        committed = await _commit_later(pools, ledger, body)
    if committed is None:
        ledger.lost += 1
        return
    ledger.acked.append(key)
    ledger.warnings.update(w["code"] for w in committed.get("warnings", []))
    ledger.turns_ms.append((t0 - ledger.started, (time.perf_counter() - t0) * 1000))


async def _reads(pools: Pools, ledger: Ledger, sample: Sample) -> bool:
    """pulse → hydrate → retrieve → envelope; False at the first that failed every try."""
    pulse = await call(pools, ledger, "pulse", pulse_body(sample))
    if pulse is None:
        ledger.dropped["pulse"] += 1
        return False
    hydrate = await call(pools, ledger, "hydrate", hydrate_body(sample, pulse))
    if hydrate is None:
        ledger.dropped["hydrate"] += 1
        return False
    retrieve = await call(pools, ledger, "retrieve", retrieve_body(sample, pulse, hydrate))
    if retrieve is None:
        ledger.dropped["retrieve"] += 1
        return False
    envelope = envelope_body(sample, pulse, hydrate, retrieve)
    if await call(pools, ledger, "envelope", envelope) is None:
        ledger.dropped["envelope"] += 1
        return False
    return True


async def _commit_later(pools: Pools, ledger: Ledger, body: dict[str, Any]) -> Any:
    ledger.later += 1
    for _ in range(COMMIT_LATER_TRIES):
        await asyncio.sleep(COMMIT_LATER_S)
        if (committed := await call(pools, ledger, "commit", body)) is not None:
            return committed
    return None
