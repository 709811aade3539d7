"""Pure computation off the event loop when its input is long.

``twin up`` serves six nodes from one event loop: a step that computes for half a second on a
20,000-character message (graph-hydrator's name scan, the hashing embedder) would hold every
other node's requests that long. :func:`compute` runs such a step in a thread once its input
passes :data:`INLINE_CHARS`; below that the thread hop (~0.1 ms) costs more than the work.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

INLINE_CHARS = 2_000


async def compute(size: int, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """``fn(*args, **kwargs)``: in a thread when ``size`` (the characters it reads) is over
    :data:`INLINE_CHARS`, on the loop otherwise."""
    if size <= INLINE_CHARS:
        return fn(*args, **kwargs)
    return await asyncio.to_thread(functools.partial(fn, *args, **kwargs))
