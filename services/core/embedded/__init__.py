"""Embedded stores: with no ``DATABASE_URL`` (``REDIS_URL``) configured, ``twin`` runs a
Postgres (Redis) of its own, as it runs Qdrant Edge when no ``QDRANT_URL`` is set.

``embedded_stores(settings)`` is the one place that decides: an explicit URL always wins; for
each store left unset it starts the embedded server (Postgres under ``<data_dir>/postgres``,
Redis under ``<data_dir>/redis``; the Qdrant Edge folder is only held, by this process), and
yields settings whose URLs point at them and whose ``embedded`` names them. Leaving the block
stops what it started, in reverse order, whatever happened inside (SIGTERM and Ctrl-C end
uvicorn's loop, then this block). While the block runs, a server it started that dies is
started again (:mod:`services.core.embedded.supervise`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import msgspec

from services.core.embedded.postgres import EmbeddedPostgres
from services.core.embedded.process import EmbeddedStoreError
from services.core.embedded.redis import EmbeddedRedis
from services.core.embedded.supervise import Supervised, supervised
from services.core.embedded.vectors import vector_folder_held
from services.core.settings import Settings

__all__ = ["EmbeddedPostgres", "EmbeddedRedis", "EmbeddedStoreError", "embedded_stores"]

DATABASE = "twin"


@contextmanager
def embedded_stores(
    settings: Settings, needs: Iterable[str] = ("postgres", "redis")
) -> Iterator[Settings]:
    """Start the embedded server of every store in ``needs`` without a URL; stop them on the
    way out."""
    needs = frozenset(needs)
    data_dir = Path(settings.data_dir)
    changes: dict[str, object] = {}
    embedded: set[str] = set()
    started: dict[str, Supervised] = {}
    with ExitStack() as stack:
        if settings.qdrant_url is None and "vectors" in needs:  # first: a second twin stops here
            stack.enter_context(vector_folder_held(Path(settings.qdrant_path)))
        if settings.database_url is None and "postgres" in needs:
            postgres = EmbeddedPostgres(data_dir / "postgres")
            postgres.start()
            stack.callback(postgres.stop)
            changes["database_url"] = postgres.url(DATABASE)
            embedded.add("postgres")
            started["postgres"] = postgres
        if settings.redis_url is None and "redis" in needs:
            redis = EmbeddedRedis(data_dir / "redis", persist=settings.embedded_redis_persist)
            redis.start()
            stack.callback(redis.stop)
            changes["redis_url"] = redis.url()
            embedded.add("redis")
            started["redis"] = redis
        # last in, first out: the watching stops before the servers do
        stack.enter_context(supervised(started))
        yield msgspec.structs.replace(
            settings, **changes, embedded=frozenset(settings.embedded | embedded)
        )
