"""How long the event loop was held: a probe for the tests that a heavy request leaves it free
(issue 31 §1: every node of ``twin up`` shares one loop)."""

from __future__ import annotations

import asyncio

TICK_S = 0.005


class LagProbe:
    """A task that sleeps ``TICK_S`` over and over and records how late each wake-up came."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time()
            await asyncio.sleep(TICK_S)
            self.worst = max(self.worst, loop.time() - asked - TICK_S)

    async def __aenter__(self) -> LagProbe:
        self._task = asyncio.create_task(self._run())
        await asyncio.sleep(TICK_S * 2)  # the probe is running before the work starts
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
