"""Readiness: ask every dependency a node needs, in parallel, each within a short timeout, and
judge each route by what it needs and what it serves on without.

A route needs the stores its handler takes (read off its parameters); it may declare some it
answers without, still 200, with its own ``degraded`` flags (:func:`degrades_without`). A node
is ready while every route has what it cannot do without; ``/readyz`` names the routes that
are serving degraded, and which store each one is missing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from services.core import migrate
from services.core.deps import EMBEDDER, LLM_STORE, POSTGRES, REDIS, VECTORS, Clients

DEGRADES_WITHOUT = "degrades_without"  # the key in a route handler's ``opt``


def degrades_without(*stores: str) -> dict[str, Any]:
    """A route handler's ``opt`` saying it still answers, degraded, while ``stores`` are down."""
    return {DEGRADES_WITHOUT: frozenset(stores)}


@dataclass(frozen=True, slots=True)
class RouteNeeds:
    """What one route reads (``needs``) and, of those, what it answers without (``spares``)."""

    path: str
    needs: frozenset[str]
    spares: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Verdict:
    """``blocking``: the first failing store some route cannot do without (None: ready).
    ``degraded``: route → the failing stores it serves on without."""

    blocking: str | None
    degraded: dict[str, list[str]]


def judge(checks: Mapping[str, str], routes: Sequence[RouteNeeds]) -> Verdict:
    """The node's readiness from its dependency ``checks`` (``"ok"`` or a reason)."""
    failing = {name for name, value in checks.items() if value != "ok"}
    blocking = sorted(store for route in routes for store in failing & route.needs - route.spares)
    degraded = {
        route.path: sorted(failing & route.needs & route.spares)
        for route in routes
        if failing & route.needs & route.spares
    }
    return Verdict(blocking[0] if blocking else None, degraded)


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
