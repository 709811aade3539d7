"""The registry of nodes: name → how to build its spec. The CLI's only knowledge of nodes."""

from __future__ import annotations

import importlib

from services.core.app import NodeSpec
from services.core.settings import NODE_PORTS

PACKAGES = {name: "services." + name.replace("-", "_") for name in NODE_PORTS}


def node_spec(name: str) -> NodeSpec:
    """Import ``services/<node>/app.py`` and return its ``SPEC``."""
    if name not in PACKAGES:
        raise KeyError(f"unknown node {name!r}; one of: {', '.join(PACKAGES)}")
    return importlib.import_module(PACKAGES[name] + ".app").SPEC


def all_specs() -> dict[str, NodeSpec]:
    return {name: node_spec(name) for name in PACKAGES}
