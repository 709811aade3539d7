"""The repair sweep of the ``episodes`` collection lives with the episode's row model in
:mod:`services.core.memory_store.episode_index` (memory-upserter's import runs it too)."""

from services.core.memory_store.episode_index import REPAIR_BATCH, reindex_episodes

__all__ = ["REPAIR_BATCH", "reindex_episodes"]
