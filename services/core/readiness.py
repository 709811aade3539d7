"""Readiness: ask every dependency a node needs, in parallel, each within a short timeout."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from services.core import migrate
from services.core.deps import EMBEDDER, LLM_STORE, POSTGRES, REDIS, VECTORS, Clients


async def check_dependencies(res: Clients, needs: frozenset[str]) -> dict[str, str]:
    """``{dependency: "ok" | reason}`` for each dependency the node needs."""
    probes: dict[str, Callable[[], Awaitable[str]]] = {
        POSTGRES: lambda: _postgres(res),
        REDIS: lambda: _redis(res),
        VECTORS: lambda: _vectors(res),
        EMBEDDER: lambda: _embedder(res),
        LLM_STORE: lambda: _llm(res),
    }
    names = sorted(needs)
    results = await asyncio.gather(
        *(_timed(probes[name], res.settings.ready_timeout_s) for name in names)
    )
    return dict(zip(names, results, strict=True))


async def _timed(probe: Callable[[], Awaitable[str]], limit_s: float) -> str:
    try:
        async with asyncio.timeout(limit_s):
            return await probe()
    except TimeoutError:
        return f"timed out after {limit_s} s"
    except Exception as exc:  # noqa: BLE001 - any failure means "not ready", with its reason
        return f"{type(exc).__name__}: {str(exc)[:160]}"


async def _postgres(res: Clients) -> str:
    async with res.db.acquire() as conn:
        missing = await migrate.missing_versions(conn)
    return "ok" if not missing else f"migrations pending: {', '.join(missing)}"


async def _redis(res: Clients) -> str:
    await res.redis.ping()
    return "ok"


async def _vectors(res: Clients) -> str:
    await res.vectors.ping()
    return "ok"


async def _embedder(res: Clients) -> str:
    return "ok" if EMBEDDER in res.opened else "not loaded"


async def _llm(res: Clients) -> str:
    # No network call: a configured endpoint is checked by the requests that use it, and with
    # none configured the node runs its deterministic offline engine.
    return "ok"
