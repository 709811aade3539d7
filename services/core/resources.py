"""Transition: the old name of :class:`services.core.deps.Clients` and its store constants.

Removed once every node takes typed capabilities (services/core/deps.py).
"""

from services.core.deps import EMBEDDER, POSTGRES, REDIS, STORES, VECTORS, Clients
from services.core.deps import LLM_STORE as LLM_DEP

Resources = Clients
ALL_DEPENDENCIES = STORES

__all__ = ["ALL_DEPENDENCIES", "EMBEDDER", "LLM_DEP", "POSTGRES", "REDIS", "VECTORS", "Resources"]
