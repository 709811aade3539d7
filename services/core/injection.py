"""How litestar hands a handler its capabilities: one provider per capability parameter, and
a node's stores read off its handlers (see :mod:`services.core.deps` for the table)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from litestar.datastructures import State
from litestar.di import Provide

from services.core.background import Background
from services.core.deps import CAPABILITIES, Clients, Database, MissingCapability
from services.core.embedder import Embedder
from services.core.llm import LLM
from services.core.settings import Settings
from services.core.vectors import VectorIndex
from services.core.working_memory import WorkingMemory


def _clients(state: State) -> Clients:
    clients: Clients | None = state.clients
    if clients is None:  # pragma: no cover - the lifespan opens them before any request
        raise MissingCapability("the node's clients are not open")
    return clients


def _db(state: State) -> Database:
    return _clients(state).db


def _vectors(state: State) -> VectorIndex:
    return _clients(state).vectors


def _embedder(state: State) -> Embedder:
    return _clients(state).embedder


def _llm(state: State) -> LLM | None:
    return _clients(state).llm


def _memory(state: State) -> WorkingMemory:
    return _clients(state).memory


def _settings(state: State) -> Settings:
    return _clients(state).settings


def _background(state: State) -> Background:
    return _clients(state).background


def providers() -> dict[str, Provide]:
    """The litestar providers of every capability (registered on every node's app)."""
    functions: dict[str, Callable[[State], Any]] = {
        "db": _db,
        "vectors": _vectors,
        "embedder": _embedder,
        "llm": _llm,
        "memory": _memory,
        "settings": _settings,
        "background": _background,
    }
    return {name: Provide(fn, sync_to_thread=False) for name, fn in functions.items()}


def needs_of(
    handlers: Sequence[Any], dependencies: Mapping[str, Callable[..., Any] | Provide]
) -> frozenset[str]:
    """The stores a node needs: the capability parameters of its handlers, and of the providers
    they name, transitively."""
    needs: set[str] = set()
    seen: set[str] = set()

    def visit(fn: Callable[..., Any]) -> None:
        for name in inspect.signature(fn).parameters:
            if name in CAPABILITIES:
                needs.add(CAPABILITIES[name])
            elif name in dependencies and name not in seen:
                seen.add(name)
                provider = dependencies[name]
                visit(provider.dependency if isinstance(provider, Provide) else provider)

    for handler in handlers:
        visit(handler.fn)
    return frozenset(needs)
